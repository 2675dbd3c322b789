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

    /// A plain escaper, byte by byte, for the writer's escaping to be checked against.
    static func plainEscaped(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for b in bytes {
            switch b {
            case 34: out += [92, 34]
            case 92: out += [92, 92]
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0..<0x20: out += Array(String(format: "\\u%04x", Int(b)).utf8)
            default: out.append(b)
            }
        }
        return out
    }

    @Test("strings are escaped as a plain escaper writes them, across the 4 KiB chunks and at every offset")
    func stringsAreEscaped() throws {
        func plain(_ s: String) -> String { String(decoding: [34] + Self.plainEscaped(Array(s.utf8)) + [34], as: UTF8.self) }
        var g = SystemRandomNumberGenerator()
        // Every byte that needs an escape, bytes either side of them (0x1F/0x20, 0x21/0x23,
        // 0x5B/0x5D, DEL, a lone high byte's neighbours in UTF-8), and runs of them in one word.
        let pieces = ["a", "bc", "\"", "\\", "\n", "\r", "\t", "\u{01}", "\u{1F}", "\u{00}", " ", "!", "#", "[", "]", "\u{7F}", "\u{80}",
                      "é", "→", "😀", "plain text ", "0123456789abcdef", "\"\"\"\"\"\"\"\"\"", "\u{0B}\u{0C}\u{1E}"]
        for round in 0..<2_000 {
            let length = round < 1_900 ? Int.random(in: 0...64, using: &g) : Int.random(in: 4_000...9_000, using: &g)
            let s = (0..<length).map { _ in pieces.randomElement(using: &g)! }.joined()
            var w = JSONWriter(capacity: Int.random(in: 1...64, using: &g))
            w.raw("x")
            w.string(s)
            #expect(w.text == "x" + plain(s))
            let decoded = try JSONSerialization.jsonObject(with: Data(w.bytes.dropFirst()), options: .fragmentsAllowed) as? String
            #expect(decoded == s)
        }
    }

    @Test("every byte is escaped as a plain escaper escapes it, at every offset of texts up to 24 bytes, with a second escape anywhere after it")
    func everyByteAtEveryOffset() {
        var failures = 0
        for length in 1...24 {
            for offset in 0..<length {
                for byte in 0...255 {
                    for second in [nil, 0, 34, 92, 0x1F] as [UInt8?] {
                        var text = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                        text[offset] = UInt8(byte)
                        if let second, offset + 1 < length { text[(offset + 1 + byte) % (length - offset - 1) + offset + 1] = second }
                        var w = JSONWriter(capacity: 1)
                        w.raw("<")
                        text.withUnsafeBufferPointer { w.escaped($0) }
                        w.raw(">")
                        if w.bytes != Array("<".utf8) + Self.plainEscaped(text) + Array(">".utf8) { failures += 1 }
                    }
                }
            }
        }
        #expect(failures == 0)
    }

    @Test("the worst case for the escaper's room: texts of control characters (six bytes each) up to 4 KiB and past it, a plain byte or none after them, every store checked (debug builds) against the buffer's real room")
    func escapesFillTheirRoom() {
        // The escaper stores whole words that may overhang what it wrote; debug builds (the
        // tests') assert that every store stays within the room it reserved.
        for length in Array(1...40) + [4_095, 4_096, 4_097, 8_200] {
            for tail in [nil, UInt8(ascii: "x"), UInt8(ascii: "\"")] as [UInt8?] {
                let text = [UInt8](repeating: 0x01, count: length) + (tail.map { [$0] } ?? [])
                var w = JSONWriter(capacity: 1)
                text.withUnsafeBufferPointer { w.escaped($0) }
                #expect(w.bytes == Self.plainEscaped(text))
            }
        }
    }

    @Test func pairsAreWrittenAsSwiftWritesThem() {
        var g = SystemRandomNumberGenerator()
        let edges = [0, 9, 10, -1, -10, Int.max, Int.min]
        var w = JSONWriter(capacity: 1)
        var expected = ""
        for n in 0..<3_000 {
            let a = n < 49 ? edges[n % 7] : Int.random(in: Int.min...Int.max, using: &g) >> Int.random(in: 0...63, using: &g)
            let b = n < 49 ? edges[n / 7] : Int.random(in: -1_000...1_000, using: &g)
            w.pair(a, b)
            expected += "[\(a), \(b)]"
        }
        #expect(w.text == expected)
    }

    @Test("sealed bytes are the writer's bytes, and what the writer writes next does not reach them")
    func sealedBytesStayPut() {
        var w = JSONWriter(capacity: 1)
        var expected: [UInt8] = []
        for n in 0..<5_000 {  // past several growths of the buffer
            w.int(n)
            w.raw(",")
            expected += Array("\(n),".utf8)
        }
        let sealed = w.sealed()
        #expect(sealed.bytes == expected)
        #expect(w.count == 0)
        w.raw("after")
        #expect(w.text == "after")
        #expect(sealed.withBytes { Array($0) } == expected)
    }

    @Test("a reply's body reads the same through body and withBody, decided or refused, and can be replaced")
    func replyBodyInPlace() throws {
        let policy = try #require(PolicyLoader.load(text: "reorder-policy: 1\nname: p\nrules:\n  - pin: { first: 1 }\n").compiled())
        let body = Array(#"{"table": {"sections": [{"id": "s", "rows": ["a", "b", "c"]}]}, "moves": [{"from": [0, 2], "to": [0, 0]}, {"from": [0, 1], "to": [0, 2]}]}"#.utf8)
        var decided = DecisionService.check(body: body, policy: policy, policyHash: "h", logging: false)
        let text = String(decoding: decided.body, as: UTF8.self)
        #expect(decided.error == nil && text.contains("\"retargeted\"") && text.contains("\"allowed\""))
        #expect(decided.withBody { Array($0) } == decided.body)
        let refused = DecisionService.check(body: Array("[]".utf8), policy: policy, policyHash: "h", logging: false)
        #expect(refused.error == .badRequest && refused.withBody { Array($0) } == refused.body && !refused.body.isEmpty)
        decided.body = Array("{}".utf8)
        #expect(decided.body == Array("{}".utf8) && decided.withBody { Array($0) } == Array("{}".utf8))
    }

    @Test func aReasonIsOneEscapedString() throws {
        let reason: Reason = "moving \(Reason.Part.quoted("a\"b\\c\n")) to \(Position(section: 0, row: 1))"
        var w = JSONWriter()
        DecisionJSON.reason(reason, into: &w)
        let decoded = try JSONSerialization.jsonObject(with: Data(w.bytes), options: .fragmentsAllowed) as? String
        #expect(decoded == reason.description)
    }
}
