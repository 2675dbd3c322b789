import Testing
import ReorderEngine

extension AcceptRule: ReferenceMeaning, RandomRuleKind {
    func isBroken(by move: SimulatedMove, in ref: ReferenceEvaluator) -> Bool {
        guard move.crossesSections, ref.sections(section).selected.contains(move.t) else { return false }
        return !ref.sections(from).selected.contains(move.s) || move.moving.contains { !ref.selects(rows, $0).0 }
    }

    static let weight = 2
    static func random(_ g: inout RandomPolicies) -> RowRule.Kind {
        .accept(section: g.sectionSelector(), from: g.chance(0.5) ? g.sectionSelector() : .all, rows: g.chance(0.5) ? g.rowSelector() : .all)
    }
}

@Suite struct AcceptRuleTests {
    @Test func onlyListedSourcesMayEnter() throws {
        let policy = Policy(name: "t", rules: [
            RowRule(.accept(section: .id("Done"), from: .id("Doing"), rows: .all), metadata: RuleMetadata(id: "flow")),
        ])
        let table = Table(sections: [Section(id: "Todo", rowIDs: ["a"]), Section(id: "Doing", rowIDs: ["b"]), Section(id: "Done", rowIDs: [])])
        let bound = try CompiledPolicy(policy).bind(table)
        #expect(bound.isValid(from: Position(section: 1, row: 0), to: Position(section: 2, row: 0)))
        let refused = try bound.decide(.row(from: Position(section: 0, row: 0), to: Position(section: 2, row: 0)))
        #expect(refused.violations.map(\.reason) == ["section 2 (\"Done\") does not accept rows from section 0 (\"Todo\")"])
    }
}
