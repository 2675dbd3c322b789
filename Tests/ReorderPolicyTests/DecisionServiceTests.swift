import Foundation
import Testing
@testable import ReorderPolicy

/// The server's answers without HTTP: the fast body reader must never change an answer.
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

    /// A random request body in JSON, sometimes mutated into something only the slow path reads.
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
            // SPEC §8.2 section data, which the fast path reads too.
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
        // Mutations that the fast path must hand to the slow one (or get exactly right).
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

    @Test("fast and slow body readers give the same answer on 6,000 random bodies")
    func fastPathChangesNoAnswer() {
        var g = Generator(state: 20261122)
        var fastCheck = 0, fastExplain = 0
        for n in 0..<6_000 {
            let explain = n % 3 == 0
            let body = Array(Self.body(&g, explain: explain).utf8)
            if explain {
                if FastRequestReader.explain(body) != nil { fastExplain += 1 }
                let fast = DecisionService.explain(body: body, policy: Self.policy, policyHash: "h", logging: true, fastPath: true)
                let slow = DecisionService.explain(body: body, policy: Self.policy, policyHash: "h", logging: true, fastPath: false)
                #expect(fast.status == slow.status && fast.body == slow.body, "\(String(decoding: body, as: UTF8.self))")
            } else {
                if FastRequestReader.check(body) != nil { fastCheck += 1 }
                let fast = DecisionService.check(body: body, policy: Self.policy, policyHash: "h", logging: true, fastPath: true)
                let slow = DecisionService.check(body: body, policy: Self.policy, policyHash: "h", logging: true, fastPath: false)
                #expect(fast.status == slow.status && fast.body == slow.body, "\(String(decoding: body, as: UTF8.self))")
                // Logs differ only in their time stamps.
                let strip = { (log: [UInt8]) in String(decoding: log, as: UTF8.self).split(separator: "\n").map { $0.split(separator: "\"time\"")[0] } }
                #expect(strip(fast.log) == strip(slow.log))
            }
        }
        // The fast path is exercised, not bypassed: most unmutated bodies take it.
        #expect(fastCheck > 2_000 && fastExplain > 1_000, "fast: \(fastCheck) check, \(fastExplain) explain")
    }

    @Test("JSON literals: numbers, true, false, null only", arguments: [
        ("0", true), ("-0", true), ("12", true), ("1.5", true), ("-1.5e+3", true), ("1E9", true), ("true", true), ("null", true),
        ("01", false), ("1.", false), (".5", false), ("+1", false), ("1e", false), ("yes", false), ("~", false), ("", false), ("-", false), ("0x1", false),
    ])
    func jsonLiterals(text: String, isLiteral: Bool) {
        #expect(DecisionService.isJSONLiteral(text) == isLiteral)
    }

    @Test("error replies carry the SPEC §9 code and status")
    func errorReplies() {
        for code in DecisionService.ErrorCode.allCases {
            let reply = DecisionService.error(code, "why")
            let json = try? JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: [String: String]]
            #expect(json?["error"]?["code"] == code.rawValue)
            #expect(json?["error"]?["message"] == "why")
            #expect([400, 404, 405, 413].contains(reply.status))
        }
    }
}
