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

/// The embedder's batch API: the bytes handed to `flushBytes` plus what `withOutput` holds at
/// the end are one complete `check --format json` document.
@Suite struct EmbeddedBatchTests {
    @Test func flushedAndFinalBytesFormOneDocument() throws {
        let compiled = try PolicyLoader.compile(text: "reorder-policy: 1\nname: t\nrules:\n  - pin: { first: 1 }\n")
        let table = Table(sections: [Section(rowIDs: ["H", "a", "b"])])
        let moves = SourceFile(path: "moves.yaml", text: "- { from: [0, 2], to: [0, 0] }\n- { from: [0, 1], to: [0, 2] }\n")
        var runner = CheckRunner(bound: compiled.bind(table), format: .json)
        let flushed = Flushed()
        let problems = BatchPipeline.run(moves, runner: &runner) { bytes in flushed.append(bytes) }
        #expect(problems.isEmpty)
        _ = runner.finish()
        var all = flushed.bytes
        runner.withOutput { all += $0 }
        let document = try #require(try JSONSerialization.jsonObject(with: Data(all)) as? [String: Any])
        let results = try #require(document["results"] as? [[String: Any]])
        #expect(results.map { $0["decision"] as? String } == ["retargeted", "allowed"])
    }

    final class Flushed: @unchecked Sendable {
        private(set) var bytes: [UInt8] = []
        func append(_ b: UnsafeBufferPointer<UInt8>) { bytes += b }
    }
}

/// The JSON writer's integers (digits written in place) and reasons (escaped in one go).
@Suite struct JSONWriterNumberTests {
    @Test func integersAreWrittenAsSwiftWritesThem() {
        var g = SystemRandomNumberGenerator()
        var values = [0, 1, 9, 10, 11, 99, 100, 101, 999_999, 1_000_000, -1, -9, -10, -100, Int.max, Int.min, Int.max - 1, Int.min + 1]
        for digits in 1...19 {
            let p = (0..<digits - 1).reduce(1) { acc, _ in acc * 10 }
            values += [p, p - 1, p + 1, -p, -(p - 1)]
        }
        values += (0..<2_000).map { _ in Int.random(in: Int.min...Int.max, using: &g) >> Int.random(in: 0...63, using: &g) }
        var w = JSONWriter(capacity: 1)
        var expected = ""
        for v in values {
            w.int(v)
            w.raw(",")
            expected += "\(v),"
        }
        #expect(w.text == expected)
    }

    @Test func aReasonIsOneEscapedString() throws {
        let reason: Reason = "moving \(Reason.Part.quoted("a\"b\\c\n")) to \(Position(section: 0, row: 1))"
        var w = JSONWriter()
        DecisionJSON.reason(reason, into: &w)
        let decoded = try JSONSerialization.jsonObject(with: Data(w.bytes), options: .fragmentsAllowed) as? String
        #expect(decoded == reason.description)
    }
}
