import Testing
import ReorderEngine

extension KeepInSectionRule: ReferenceMeaning, RandomRuleKind {
    func isBroken(by move: SimulatedMove, in ref: ReferenceEvaluator) -> Bool {
        move.crossesSections && move.moving.contains { ref.selects(rows, $0).0 }
    }

    static let weight = 2
    static func random(_ g: inout RandomPolicies) -> RowRule.Kind { .keepInSection(g.rowSelector()) }
}

@Suite struct KeepInSectionRuleTests {
    @Test func selectedRowsStayInTheirSection() throws {
        let policy = Policy(name: "t", rules: [RowRule(.keepInSection(RowSelector(kinds: ["item"])), metadata: RuleMetadata(id: "own"))])
        let table = Table(sections: [Section(rows: [Row(id: "a", kind: "item"), Row(id: "b")]), Section(rowIDs: ["x"])])
        let bound = try CompiledPolicy(policy).bind(table)
        #expect(!bound.isValid(from: Position(section: 0, row: 0), to: Position(section: 1, row: 0)))
        #expect(bound.isValid(from: Position(section: 0, row: 1), to: Position(section: 1, row: 0)))
    }
}
