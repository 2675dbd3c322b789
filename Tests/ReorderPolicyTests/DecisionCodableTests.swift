import Foundation
import Testing
import ReorderPolicy

/// `Decision` encodes to exactly the result object `check --format json` writes (SPEC §5.1).
@Suite struct DecisionCodableTests {
    static let policy = """
        reorder-policy: 1
        name: board
        rules:
          - pin: { first: 1 }
            id: header
            message: The header stays first.
          - capacity: { section: 1, max: 2 }
        section-rules:
          - pin: { first: 1 }
        """

    @Test func encodingMatchesTheCLIsResultObjects() throws {
        let compiled = try PolicyLoader.compile(text: Self.policy, path: "board.yaml")
        let table = Table(sections: [Section(id: "Todo", rowIDs: ["H", "a", "b"]), Section(id: "Doing", rowIDs: ["H2", "c"])])
        let bound = compiled.bind(table)
        let moves: [Move] = [
            .row(from: Position(section: 0, row: 2), to: Position(section: 0, row: 0)),
            .row(from: Position(section: 0, row: 0), to: Position(section: 0, row: 1)),
            .row(from: Position(section: 0, row: 1), to: Position(section: 1, row: 2)),
            .row(from: Position(section: 0, row: 1), to: Position(section: 0, row: 2)),
            .section(from: 1, to: 0),
        ]
        for move in moves {
            let decision = try bound.decide(move)
            var w = JSONWriter()
            DecisionJSON.result(decision, into: &w)
            let cli = try JSONSerialization.jsonObject(with: Data(w.bytes)) as? NSDictionary
            let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(decision)) as? NSDictionary
            #expect(cli != nil && cli == encoded, "\(move): \(w.text)")
            let back = try JSONDecoder().decode(Decision.self, from: JSONEncoder().encode(decision))
            #expect(back.move == decision.move && back.kind == decision.kind && back.target == decision.target)
            #expect(back.violations.map(\.reason) == decision.violations.map(\.reason))
            #expect(back.violations.map(\.location) == decision.violations.map(\.location))
        }
    }
}
