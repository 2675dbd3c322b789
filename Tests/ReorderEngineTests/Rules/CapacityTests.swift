import Testing
import ReorderEngine

extension CapacityRule: ReferenceMeaning, RandomRuleKind {
    func isBroken(by move: SimulatedMove, in ref: ReferenceEvaluator) -> Bool {
        guard move.crossesSections else { return false }
        // SPEC §12: with `rows`, a section's count is its rows that `rows` selects (before the
        // move), and only moving rows it selects are limited; a block adds only those.
        func counted(_ u: Int) -> Int {
            guard let rows else { return move.oldCounts[u] }
            return ref.table.sections[u].rows.indices.filter { ref.selects(rows, Position(section: u, row: $0)).0 }.count
        }
        let chosen = ref.sections(section).selected
        let m = rows.map { rows in move.moving.filter { ref.selects(rows, $0).0 }.count } ?? move.moving.count
        guard m > 0 else { return false }
        // SPEC §8.3: `max` reads the destination's attribute, `min` the source's; none: unbounded.
        func value(_ bound: CapacityBound?, _ u: Int) -> Int? {
            switch bound {
            case .value(let n)?: return n
            case .attribute(let name)?: return ref.table.sections[u].attributes[name]
            case nil: return nil
            }
        }
        if let max = value(max, move.t), chosen.contains(move.t), counted(move.t) + m > max { return true }
        if let min = value(min, move.s), chosen.contains(move.s), counted(move.s) - m < min { return true }
        return false
    }

    static let weight = 2
    static func random(_ g: inout RandomPolicies) -> RowRule.Kind {
        func bound(_ range: ClosedRange<Int>) -> CapacityBound {
            g.chance(0.4) ? .attribute(g.pick(g.attributeNames + ["absent"])) : .value(g.int(range))
        }
        let max = g.chance(0.6) ? bound(0...6) : nil
        let min = max == nil || g.chance(0.4) ? bound(0...4) : nil
        let section = g.sectionSelector()
        return .capacity(section: section, max: max, min: min, rows: g.chance(0.5) ? g.rowSelector() : nil)
    }
}

@Suite struct CapacityRuleTests {
    @Test func theReasonNamesTheBoundThatWasHit() throws {
        let policy = Policy(name: "t", rules: [RowRule(.capacity(section: .index(1), max: 1, min: nil), metadata: RuleMetadata(id: "wip"))])
        let bound = try CompiledPolicy(policy).bind(Table(sections: [Section(rowIDs: ["a"]), Section(rowIDs: ["x"])]))
        let decision = try bound.decide(.row(from: Position(section: 0, row: 0), to: Position(section: 1, row: 0)))
        #expect(decision.violations.map(\.reason) == ["moving \"a\" to 1.0 would put 2 rows in section 1, more than its max of 1"])
    }

    @Test("capacity with rows counts only the rows it selects and limits only them (SPEC §12)")
    func rowsCountsOnlySelectedRows() throws {
        let card = { (id: String) in Row(id: id, kind: "card") }
        let table = Table(sections: [
            Section(id: "Todo", rows: [Row(id: "Head", kind: "header"), card("a"), card("b"), Row(id: "Add", kind: "add")]),
            Section(id: "Doing", rows: [Row(id: "Head2", kind: "header"), card("x"), card("y"), Row(id: "Add2", kind: "add")]),
        ])
        let policy = Policy(name: "t", rules: [RowRule(
            .capacity(section: .id("Doing"), max: 3, min: nil, rows: RowSelector(kinds: ["card"])), metadata: RuleMetadata(id: "wip"))])
        var bound = try CompiledPolicy(policy).bind(table)
        // Doing holds 4 rows but 2 cards: a third card comes in.
        let third = try bound.decide(.row(from: Position(section: 0, row: 1), to: Position(section: 1, row: 1)))
        #expect(third.kind == .allowed)
        // A header is not counted and never limited, even into a full column.
        let full = Table(sections: [table.sections[0], Section(id: "Doing", rows: [card("x"), card("y"), card("z")])])
        bound = try CompiledPolicy(policy).bind(full)
        #expect(try bound.decide(.row(from: Position(section: 0, row: 0), to: Position(section: 1, row: 0))).kind == .allowed)
        let fourth = try bound.decide(.row(from: Position(section: 0, row: 1), to: Position(section: 1, row: 0)))
        #expect(fourth.kind != .allowed)
        #expect(fourth.violations.map(\.reason) == [
            "moving \"a\" to 1.0 would put 4 rows of kind card in section 1 (\"Doing\"), more than its max of 3"])
        // A block: only its cards count (header + card fits? no: 3 + 1 > 3; header alone: yes).
        #expect(bound.isValid(MultiRowMove(section: 0, rows: [0, 3], to: Position(section: 1, row: 0)), to: Position(section: 1, row: 0)))
        #expect(!bound.isValid(MultiRowMove(section: 0, rows: [0, 1], to: Position(section: 1, row: 0)), to: Position(section: 1, row: 0)))
    }
}
