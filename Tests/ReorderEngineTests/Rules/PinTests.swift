import Testing
import ReorderEngine

extension PinRule: ReferenceMeaning, RandomRuleKind {
    func held(in ref: ReferenceEvaluator) -> [(Position, Anchor)] {
        ref.allPositions().compactMap { p in
            let (hit, fromEnd) = ref.selects(rows, p)
            return hit ? (p, anchor ?? (fromEnd ? .end : .start)) : nil
        }
    }

    func isBroken(by move: SimulatedMove, in ref: ReferenceEvaluator) -> Bool {
        ref.shiftsHeldRow(held(in: ref), move)
    }

    static let weight = 2
    static func random(_ g: inout RandomPolicies) -> RowRule.Kind {
        let rows = g.rowSelector()
        // An anchor goes with a mapping only (SPEC §8.5).
        return .pin(rows, anchor: rows.alternatives == nil && g.chance(0.3) ? g.pick([Anchor.start, .end]) : nil)
    }
}

@Suite struct PinRuleTests {
    @Test func aMoveThatShiftsAPinnedRowNamesIt() throws {
        let policy = Policy(name: "t", rules: [RowRule(.pin(RowSelector(ids: ["Red"]), anchor: nil), metadata: RuleMetadata(id: "red"))])
        let bound = try CompiledPolicy(policy).bind(Table(sections: [Section(rowIDs: ["Red", "Blue"])]))
        let decision = try bound.decide(.row(from: Position(section: 0, row: 1), to: Position(section: 0, row: 0)))
        #expect(decision.violations.map(\.reason) == ["moving \"Blue\" to 0.0 would shift pinned row \"Red\" from 0.0 to 0.1"])
    }
}
