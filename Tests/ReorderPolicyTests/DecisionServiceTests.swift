import Foundation
import Testing
@testable import ReorderPolicy

/// The server's answers without HTTP: the one body reader (JSONDocument) answers as the CLI's
/// libyaml reading does.
@Suite struct DecisionServiceTests {
    static let policy: CompiledPolicy = {
        let text = """
            reorder-policy: 1
            name: mixed
            rules:
              - pin: { first: 1 }
                id: header
              - keep-in-section: { kind: note }
                id: notes-stay
              - capacity: { section: Doing, max: 3 }
                id: wip
              - accept: { section: Done, from: Doing }
                id: done-from-doing
              - lock: { tag: locked }
                id: locked
              - capacity: { section: { kind: bucket }, max: { attribute: wip }, min: { attribute: floor } }
                id: wip-from-data
              - keep-order: { tag: active, not: { kind: pool } }
                id: fixed
            section-rules:
              - pin: { last: 1 }
            """
        return PolicyLoader.load(text: text).compiled()!
    }()

    /// A seeded generator (SplitMix64), so failures reproduce.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let ids = ["a", "b", "Doing", "Done", "", "all", "a b", "yes", "null", "1", "#x", "a:b", "-", "~", "x y z", "[", "{}"]

    /// A random request body in JSON, sometimes mutated (escapes, non-ASCII, broken or non-JSON text).
    static func body(_ g: inout Generator, explain: Bool) -> String {
        func pick<T>(_ xs: [T]) -> T { xs[Int.random(in: 0..<xs.count, using: &g)] }
        func space() -> String { pick(["", " ", "\n", "  ", "\r\n"]) }
        func str(_ s: String) -> String { "\"\(s)\"" }
        func object(_ members: [(String, String)]) -> String {
            "{" + space() + members.shuffled(using: &g).map { str($0.0) + space() + ":" + space() + $0.1 }.joined(separator: "," + space()) + space() + "}"
        }
        var sizes: [Int] = []
        var sections: [String] = []
        for _ in 0..<Int.random(in: 0...4, using: &g) {
            var rows: [String] = []
            for _ in 0..<Int.random(in: 0...4, using: &g) {
                if Bool.random(using: &g) {
                    rows.append(str(pick(ids)))
                } else {
                    var members = [("id", str(pick(ids)))]
                    if Bool.random(using: &g) { members.append(("kind", str(pick(["note", "task", ""])))) }
                    if Bool.random(using: &g) { members.append(("tags", "[" + (0..<Int.random(in: 0...2, using: &g)).map { _ in str(pick(["locked", "x"])) }.joined(separator: ",") + "]")) }
                    rows.append(object(members))
                }
            }
            sizes.append(rows.count)
            var members = [("rows", "[" + space() + rows.joined(separator: "," + space()) + space() + "]")]
            if Bool.random(using: &g) { members.append(("id", str(pick(ids)))) }
            // SPEC §8.2 section data.
            if Bool.random(using: &g) { members.append(("kind", str(pick(["bucket", "pool", ""])))) }
            if Bool.random(using: &g) { members.append(("tags", "[" + (0..<Int.random(in: 0...2, using: &g)).map { _ in str(pick(["active", "x"])) }.joined(separator: ",") + "]")) }
            if Bool.random(using: &g) {
                members.append(("attributes", object((0..<Int.random(in: 0...2, using: &g)).map { n in
                    (pick(["wip", "floor"]) + (n == 1 ? "2" : ""), String(Int.random(in: 0...4, using: &g)))
                })))
            }
            sections.append(object(members))
        }
        let table = object([("sections", "[" + sections.joined(separator: ", ") + "]")])
        func move() -> String {
            let n = max(sizes.count, 1)
            if Int.random(in: 0..<5, using: &g) == 0 {
                return object([("section-from", String(Int.random(in: -1...n, using: &g))), ("section-to", String(Int.random(in: -1...n, using: &g)))])
            }
            func pos() -> String { "[\(Int.random(in: -1...n, using: &g)), \(Int.random(in: -1...5, using: &g))]" }
            return object([("from", pos()), ("to", pos())])
        }
        var text = explain
            ? object([("table", table), ("move", move())])
            : object([("table", table), ("moves", "[" + (0..<Int.random(in: 0...6, using: &g)).map { _ in move() }.joined(separator: ", ") + "]")])
        // Mutations: some keep it JSON, some do not.
        switch Int.random(in: 0..<18, using: &g) {
        case 0: text = text.replacingOccurrences(of: "\"a\"", with: "\"\\u0061\"")
        case 1: text = text.replacingOccurrences(of: "\"b\"", with: "\"é\"")
        case 2: text = text.replacingOccurrences(of: "\"a b\"", with: "\"a\nb\"")
        case 3: text = text.replacingOccurrences(of: "\"1\"", with: "1")
        case 4: text = text.replacingOccurrences(of: "[0, ", with: "[00, ")
        case 5: text = text.replacingOccurrences(of: ", 1]", with: ", 1.5]")
        case 6: text = text.replacingOccurrences(of: "\"rows\"", with: "\"rows\":[],\"rows\"")
        case 7: text = text.replacingOccurrences(of: " ", with: "\t")
        case 8: text = text.replacingOccurrences(of: "\"kind\"", with: "\"kinds\"")
        case 9: text += " {}"
        case 10: text = text.replacingOccurrences(of: "\"id\": \"a\"", with: "\"id\": null")
        case 11: text = text.replacingOccurrences(of: "\"tags\"", with: "\"tags\": [], \"tags\"")
        case 12: text = text.replacingOccurrences(of: "\"wip\"", with: "\"wip\": -1, \"x\"")
        case 13: text = text.replacingOccurrences(of: "\"kind\": \"bucket\"", with: "\"kind\": null")
        case 14: text = text.replacingOccurrences(of: "\"floor\":", with: "\"floor\": \"2\", \"y\":")
        case 15: text = text.replacingOccurrences(of: "\"attributes\":", with: "\"attributes\": 3, \"z\":")
        default: break
        }
        return text
    }

    /// 6,000 random bodies (a third of them for `explain`), the same in every test.
    static func randomBodies() -> [(body: [UInt8], explain: Bool)] {
        var g = Generator(state: 20261122)
        return (0..<6_000).map { n in (Array(body(&g, explain: n % 3 == 0).utf8), n % 3 == 0) }
    }

    static func reply(_ body: [UInt8], explain: Bool, logging: Bool) -> DecisionService.Reply {
        explain
            ? DecisionService.explain(body: body, policy: policy, policyHash: "h", logging: logging)
            : DecisionService.check(body: body, policy: policy, policyHash: "h", logging: logging)
    }

    /// What the CLI would answer for a body: read with libyaml (as table and moves files are)
    /// and decoded by the same decoders, or nil when libyaml finds a problem. JSON allows
    /// line breaks and tabs where YAML's flow style does not, so they are turned into spaces
    /// first (outside strings; byte offsets stay).
    static func libyamlReply(_ body: [UInt8], explain: Bool) -> DecisionService.Reply? {
        var flat = body, inString = false, escaped = false
        for k in flat.indices {
            let b = flat[k]
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == 0x09 || b == 0x0A || b == 0x0D {
                flat[k] = 0x20
            }
        }
        let parsed = YAMLDocument.parse(flat, file: "<request>", limits: YAMLLimits(maxBytes: Int.max))
        guard parsed.diagnostics.isEmpty, let entries = parsed.root?.mapping else { return nil }
        var fields: [String: YAMLNode] = [:]
        for entry in entries { fields[entry.name] = entry.value }
        guard fields.count == 2, let tableNode = fields["table"], let table = try? DecisionService.decodeTable(tableNode) else { return nil }
        if explain {
            guard let node = fields["move"], let move = try? DecisionService.explainMove(node) else { return nil }
            var summary = DecisionJSON.Summary()
            let w = DecisionJSON.explainDocument(policy.bind(table), move, summary: &summary)
            return .decided(w.bytes, summary: summary)
        }
        guard let items = fields["moves"]?.sequence else { return nil }
        var runner = CheckRunner(bound: policy.bind(table), format: .json)
        for item in items { runner.decide(MovesFile.item(item)) }
        _ = runner.finish()
        return .decided(runner.output.bytes, summary: runner.summary)
    }

    @Test("the body reader answers as libyaml's reading does, and refuses exactly what is not JSON, on 6,000 random bodies")
    func bodyReaderMatchesLibYAML() {
        var compared = 0, refused = 0
        for (body, explain) in Self.randomBodies() {
            let reply = Self.reply(body, explain: explain, logging: false)
            let text = String(decoding: reply.body, as: UTF8.self)
            let isJSON = (try? JSONSerialization.jsonObject(with: Data(body))) != nil
            let oracle = Self.libyamlReply(body, explain: explain)
            if !isJSON {
                // Foundation's JSON reader refuses it: so must the server, before decoding anything.
                #expect(reply.error == .badRequest && text.contains("not valid JSON"), "\(String(decoding: body, as: UTF8.self))")
                refused += 1
            } else if let oracle {
                #expect(reply.error == oracle.error && reply.body == oracle.body, "\(String(decoding: body, as: UTF8.self))")
                compared += 1
            } else {
                // JSON that libyaml reads with a problem (a key twice) or that decodes to a 400.
                #expect(reply.error == .badRequest, "\(String(decoding: body, as: UTF8.self))")
            }
        }
        #expect(compared > 3_000 && refused > 200, "compared \(compared), refused \(refused)")
    }

    @Test("an invalid move is echoed as given: JSON's literals and numbers stay values, strings stay strings")
    func invalidMovesEchoAsGiven() throws {
        let given = [#"{"from": [0, null], "to": [0, 1e2]}"#, #"{"from": [0, 0.5], "to": [false, -0]}"#,
                     #"{"from": "1.0", "to": [0, 99999999999999999999]}"#, #"{"from": [0, true], "to": [0, "null"]}"#,
                     #"{"from": [0, -1.5E+3], "to": [0, 1]}"#]
        let body = #"{"table": {"sections": [{"rows": ["a", "b"]}]}, "moves": [\#(given.joined(separator: ", "))]}"#
        let reply = Self.reply(Array(body.utf8), explain: false, logging: false)
        let results = try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])["results"] as? [[String: Any]]
        #expect(results?.count == given.count)
        for (result, move) in zip(results ?? [], given) {
            #expect(result["decision"] as? String == "invalid")
            let sent = try JSONSerialization.jsonObject(with: Data(move.utf8)) as? NSDictionary
            #expect((result["move"] as? NSDictionary) == sent, "\(move) → \(result["move"] ?? "nothing")")
        }
    }

    @Test("the echo's test of a JSON literal or number agrees with Foundation's JSON reader")
    func jsonLiteralsAsFoundationReadsThem() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789-+.eE".utf8) + Array("truefalsn x".utf8)
        var texts = ["true", "false", "null", "0", "-0", "01", "1.", ".5", "1e", "1e+", "-", "1.5e-3", "1E2", "Null", "~", "0x10", "1e400", "-1e-400"]
        for _ in 0..<3_000 { texts.append(String(decoding: (0..<Int.random(in: 1...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)) }
        for text in texts {
            // One value with nothing around it: no space (Foundation skips it) in the text.
            let foundation = !text.contains(" ") && (try? JSONSerialization.jsonObject(with: Data("[\(text)]".utf8))) != nil
            #expect(DecisionJSON.isJSONLiteral(text) == foundation, "\(text)")
        }
    }

    @Test("a decided body's memory is handed over whole when nothing else holds it: the bytes written, and the reply left empty")
    func writtenBodyIsHandedOver() throws {
        var g = Generator(state: 0x7A4E)
        var taken = 0, shared = 0
        for n in 0..<200 {
            let body = Array(Self.body(&g, explain: false).utf8)
            var reply = Self.reply(body, explain: false, logging: false)
            let before = reply.body
            if n % 4 == 0, reply.error == nil {
                // A copy shares the body: nothing is taken, and both still read it.
                let copy = reply
                #expect(reply.takeWrittenBody() == nil)
                #expect(reply.body == before && copy.body == before)
                shared += 1
                continue
            }
            if let (allocation, count) = reply.takeWrittenBody() {
                #expect(count <= allocation.count)
                #expect(Array(UnsafeRawBufferPointer(rebasing: allocation[..<count])) == before)
                #expect(reply.body.isEmpty)
                #expect(reply.takeWrittenBody() == nil)
                allocation.deallocate()
                taken += 1
            } else {
                #expect(reply.error != nil, "a decided body that was not handed over")
            }
        }
        #expect(taken > 50 && shared > 10, "\(taken) bodies taken, \(shared) shared")
    }

    @Test("error replies carry the SPEC §9 code")
    func errorReplies() {
        for code in DecisionService.ErrorCode.allCases {
            let reply = DecisionService.error(code, "why")
            let json = try? JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: [String: String]]
            #expect(json?["error"]?["code"] == code.rawValue)
            #expect(json?["error"]?["message"] == "why")
            #expect(reply.error == code)
        }
    }
}
