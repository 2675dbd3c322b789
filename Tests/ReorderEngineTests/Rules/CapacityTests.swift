import Testing
import ReorderEngine

extension CapacityRule: ReferenceMeaning, RandomRuleKind {
    func isBroken(by move: SimulatedMove, in ref: ReferenceEvaluator) -> Bool {
        guard move.crossesSections else { return false }
        let chosen = ref.sections(section).selected, m = move.moving.count
        // SPEC §8.3: `max` reads the destination's attribute, `min` the source's; none: unbounded.
        func value(_ bound: CapacityBound?, _ u: Int) -> Int? {
            switch bound {
            case .value(let n)?: return n
            case .attribute(let name)?: return ref.table.sections[u].attributes[name]
            case nil: return nil
            }
        }
        if let max = value(max, move.t), chosen.contains(move.t), move.oldCounts[move.t] + m > max { return true }
        if let min = value(min, move.s), chosen.contains(move.s), move.oldCounts[move.s] - m < min { return true }
        return false
    }

    static let weight = 2
    static func random(_ g: inout RandomPolicies) -> RowRule.Kind {
        func bound(_ range: ClosedRange<Int>) -> CapacityBound {
            g.chance(0.4) ? .attribute(g.pick(g.attributeNames + ["absent"])) : .value(g.int(range))
        }
        let max = g.chance(0.6) ? bound(0...6) : nil
        let min = max == nil || g.chance(0.4) ? bound(0...4) : nil
        return .capacity(section: g.sectionSelector(), max: max, min: min)
    }
}

@Suite struct CapacityRuleTests {
    @Test func theReasonNamesTheBoundThatWasHit() throws {
        let policy = Policy(name: "t", rules: [RowRule(.capacity(section: .index(1), max: 1, min: nil), metadata: RuleMetadata(id: "wip"))])
        let bound = try CompiledPolicy(policy).bind(Table(sections: [Section(rowIDs: ["a"]), Section(rowIDs: ["x"])]))
        let decision = try bound.decide(.row(from: Position(section: 0, row: 0), to: Position(section: 1, row: 0)))
        #expect(decision.violations.map(\.reason) == ["moving \"a\" to 1.0 would put 2 rows in section 1, more than its max of 1"])
    }
}
