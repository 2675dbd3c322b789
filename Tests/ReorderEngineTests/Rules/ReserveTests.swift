import Testing
import ReorderEngine

extension ReserveRule: ReferenceMeaning, RandomRuleKind {
    func held(in ref: ReferenceEvaluator) -> [(Position, Anchor)] {
        let chosen = section.map { ref.sections($0).selected }
        return ref.positions(in: chosen).compactMap { p in
            let n = ref.table.sections[p.section].rows.count
            let hit = edge == .start ? p.row < count : p.row >= n - count
            return hit ? (p, edge) : nil
        }
    }

    func isBroken(by move: SimulatedMove, in ref: ReferenceEvaluator) -> Bool {
        ref.shiftsHeldRow(held(in: ref), move)
    }

    static let weight = 1
    static func random(_ g: inout RandomPolicies) -> RowRule.Kind {
        .reserve(edge: g.pick([.start, .end]), count: g.int(1...2), section: g.chance(0.5) ? g.sectionSelector() : nil)
    }
}

@Suite struct ReserveRuleTests {
    @Test func reservedSlotsAreCalledReserved() throws {
        let policy = Policy(name: "t", rules: [RowRule(.reserve(edge: .end, count: 1, section: nil), metadata: RuleMetadata(id: "add"))])
        let bound = try CompiledPolicy(policy).bind(Table(sections: [Section(rowIDs: ["a", "b", "Add"])]))
        #expect(bound.holds(at: Position(section: 0, row: 2)) == ["reserved"])
        let decision = try bound.decide(.row(from: Position(section: 0, row: 0), to: Position(section: 0, row: 2)))
        #expect(decision.kind == .retargeted)
        #expect(decision.target == .row(Position(section: 0, row: 1)))
    }
}
