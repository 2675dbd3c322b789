import Testing
import ReorderEngine

extension LockRule: ReferenceMeaning, RandomRuleKind {
    func held(in ref: ReferenceEvaluator) -> [(Position, Anchor)] {
        ref.allPositions().filter { ref.selects(rows, $0).0 }.map { ($0, .start) }
    }

    /// A lock forbids no move of a row it does not hold.
    func isBroken(by move: SimulatedMove, in ref: ReferenceEvaluator) -> Bool { false }

    static let weight = 1
    static func random(_ g: inout RandomPolicies) -> RowRule.Kind { .lock(g.rowSelector()) }
}

@Suite struct LockRuleTests {
    @Test func lockedRowsCannotBePickedUpButMayShift() throws {
        let policy = Policy(name: "t", rules: [RowRule(.lock(RowSelector(position: .first(1))), metadata: RuleMetadata(id: "status"))])
        let bound = try CompiledPolicy(policy).bind(Table(sections: [Section(rowIDs: ["S", "a", "b"])]))
        #expect(!bound.canMove(Position(section: 0, row: 0)))
        #expect(try bound.decide(.row(from: Position(section: 0, row: 2), to: Position(section: 0, row: 0))).kind == .allowed)
        let denied = try bound.decide(.row(from: Position(section: 0, row: 0), to: Position(section: 0, row: 1)))
        #expect(denied.violations.map(\.reason) == ["row \"S\" at 0.0 is locked"])
    }
}
