import Foundation
import Testing
@testable import SpannedYAML

/// The request body reader against two independent references: libyaml (the tree every file
/// gets, spans included) and Foundation's JSON reader (what is JSON at all).
@Suite struct JSONDocumentTests {
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

    /// String bodies as written in JSON; libyaml reads every one of them the same way.
    static let strings = [
        "", "a", "a b", "Doing", "null", "1", "true", "#x", "a:b", "- x", "[", "{}", "é", "日本", "😀", "tab\\there",
        "q\\\"uote", "back\\\\slash", "\\u0061", "\\u00e9", "\\u65e5", "line\\nbreak", "\\r\\b\\f", "a/b", "\\u0000",
    ]
    static let numbers = ["0", "-0", "7", "-12", "1.5", "-0.25", "1e3", "2E-2", "-1.5e+10", "123456789012345678901234567890"]

    static func value(_ g: inout Generator, depth: Int, space: () -> String) -> String {
        func pick<T>(_ xs: [T]) -> T { xs[Int.random(in: 0..<xs.count, using: &g)] }
        switch depth >= 4 ? Int.random(in: 2..<6, using: &g) : Int.random(in: 0..<6, using: &g) {
        case 0:
            var keys = Set<String>()
            let members = (0..<Int.random(in: 0...4, using: &g)).compactMap { _ -> String? in
                let key = pick(strings)
                guard keys.insert(key).inserted, !key.contains("\\u") else { return nil }  // no key twice, even spelled two ways
                return "\"\(key)\"" + space() + ":" + space() + value(&g, depth: depth + 1, space: space)
            }
            return "{" + space() + members.joined(separator: space() + "," + space()) + space() + "}"
        case 1:
            let items = (0..<Int.random(in: 0...4, using: &g)).map { _ in value(&g, depth: depth + 1, space: space) }
            return "[" + space() + items.joined(separator: space() + "," + space()) + space() + "]"
        case 2, 3: return "\"\(pick(strings))\""
        case 4: return pick(numbers)
        default: return pick(["true", "false", "null"])
        }
    }

    /// The node without spans, to compare with a tree read from different bytes.
    static func shape(_ node: YAMLNode) -> String {
        switch node.content {
        case .scalar(let text, let style): "\(style)(\(text.debugDescription))"
        case .sequence(let items): "[" + items.map(shape).joined(separator: ",") + "]"
        case .mapping(let entries): "{" + entries.map { shape($0.key) + ":" + shape($0.value) }.joined(separator: ",") + "}"
        case .invalid: "invalid"
        }
    }

    @Test("2,000 random JSON texts on one line give libyaml's tree, spans included")
    func sameTreeAsLibYAML() throws {
        var g = Generator(state: 1125)
        for _ in 0..<2_000 {
            var spaceGen = Generator(state: g.next())
            let text = "{\"v\": " + Self.value(&g, depth: 0) { ["", " ", "  "][Int.random(in: 0..<3, using: &spaceGen)] } + "}"
            let bytes = Array(text.utf8)
            let yaml = YAMLDocument.parse(bytes, file: "t.json")
            guard yaml.diagnostics.isEmpty, let expected = yaml.root else {
                Issue.record("libyaml refused \(text): \(yaml.diagnostics)")
                continue
            }
            let json = try JSONDocument.parse(bytes, file: "t.json").get()
            #expect(json == expected, "\(text)\n\(Self.shape(json))\n\(Self.shape(expected))")
        }
    }

    @Test("JSON texts over several lines with tabs and CR LF give libyaml's tree, and marks on the right lines")
    func multiLineTexts() throws {
        var g = Generator(state: 2511)
        for _ in 0..<1_000 {
            var spaceGen = Generator(state: g.next())
            let text = "{\"v\": " + Self.value(&g, depth: 0) { ["", " ", "\n", "\t", "\r\n  "][Int.random(in: 0..<5, using: &spaceGen)] } + "}"
            let json = try JSONDocument.parse(Array(text.utf8), file: "t.json").get()
            // libyaml reads JSON's line breaks and tabs in flow collections only as spaces.
            let flat = text.replacingOccurrences(of: "\r\n", with: "  ").replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " ")
            let yaml = YAMLDocument.parse(Array(flat.utf8), file: "t.json")
            let expected = try #require(yaml.root)
            #expect(Self.shape(json) == Self.shape(expected), "\(text)")
            // Each node starts on the line and column its first byte is on.
            // Split on LF scalars: as Characters, CR LF is one.
            let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            var stack = [json]
            while let node = stack.popLast() {
                let line = lines[node.span.start.line - 1]
                let at = line.dropFirst(node.span.start.column - 1).first
                let first: Unicode.Scalar? = switch node.content {
                case .scalar(_, .doubleQuoted): "\""
                case .sequence: "["
                case .mapping: "{"
                default: nil
                }
                if let first { #expect(at == first, "\(text) at \(node.span.start)") }
                if case .sequence(let items) = node.content { stack += items }
                if case .mapping(let entries) = node.content { stack += entries.flatMap { [$0.key, $0.value] } }
            }
        }
    }

    @Test("escapes: surrogate pairs join, lone surrogates and unknown escapes are refused")
    func escapes() throws {
        let joined = try JSONDocument.parse(Array(#"["\ud83d\ude00", "\u00E9\/"]"#.utf8), file: "t").get()
        #expect(joined.sequence?.map(\.scalar) == ["😀", "é/"])
        for bad in [#"["\ud83d"]"#, #"["\ud83dx"]"#, #"["\ude00"]"#, #"["\ud83d\u0041"]"#, #"["\x41"]"#, #"["\u12G4"]"#, #"["\u12"]"#] {
            let result = JSONDocument.parse(Array(bad.utf8), file: "t")
            guard case .failure(let d) = result else {
                Issue.record("accepted \(bad)")
                continue
            }
            // At the backslash.
            #expect(d.code == .yamlSyntax && d.span.start.line == 1 && d.span.start.column == 3, "\(bad): \(d)")
        }
    }

    /// One broken body and where its problem is reported.
    @Test(arguments: [
        ("", DiagnosticCode.yamlSyntax, 1, 1),
        ("{", .yamlSyntax, 1, 2),
        ("{\"a\": 1,}", .yamlSyntax, 1, 9),
        ("{\"a\" 1}", .yamlSyntax, 1, 6),
        ("{a: 1}", .yamlSyntax, 1, 2),
        ("{'a': 1}", .yamlSyntax, 1, 2),
        ("[1, 2]]", .yamlSyntax, 1, 7),
        ("[01]", .yamlSyntax, 1, 2),
        ("[1.]", .yamlSyntax, 1, 4),
        ("[+1]", .yamlSyntax, 1, 2),
        // Numbers as list items are read without `value` (the batch path): the same places.
        ("[1x]", .yamlSyntax, 1, 3),
        ("[10, 2x]", .yamlSyntax, 1, 7),
        ("[1e]", .yamlSyntax, 1, 4),
        ("[1.5e]", .yamlSyntax, 1, 6),
        ("[-]", .yamlSyntax, 1, 3),
        ("{\"a\": 1x}", .yamlSyntax, 1, 8),
        ("[truex]", .yamlSyntax, 1, 6),
        ("[yes]", .yamlSyntax, 1, 2),
        ("[\"a\tb\"]", .yamlSyntax, 1, 4),
        ("[\"a\nb\"]", .yamlSyntax, 1, 4),
        ("[\"ab", .yamlSyntax, 1, 2),
        ("{\"a\": 1,\n \"b\": 2,\n \"a\": 3}", .duplicateKey, 3, 2),
        ("[1] [2]", .yamlSyntax, 1, 5),
        ("# comment\n[1]", .yamlSyntax, 1, 1),
        ("[é]", .yamlSyntax, 1, 2),
    ])
    func brokenBodyIsLocated(text: String, code: DiagnosticCode, line: Int, column: Int) {
        brokenBody(text, code: code, line: line, column: column)
    }

    /// Objects of 16 keys or more check repeats with a set of names, not by walking the tape:
    /// a late key spelled with an escape (`"k\u0033"` is `"k3"`) after object and list values
    /// is still the same key, reported where it repeats, with the line of the first.
    @Test func repeatedKeyInALargeObject() throws {
        let entries = (0..<17).map { k in "\"k\(k)\": " + (k % 2 == 0 ? "{\"x\": [1, {\"y\": 2}]}" : "[1, [2]]") }
        let text = "{" + entries.joined(separator: ", ") + ",\n \"k\\u0033\": 2}"
        brokenBody(text, code: .duplicateKey, line: 2, column: 2)
        guard case .failure(let d) = JSONDocument.parse(Array(text.utf8), file: "t") else { return }
        #expect(d.message == "duplicate key 'k3' (first at line 1)", "\(d.message)")
        // The same object without the repeat is read, every key once.
        let fine = "{" + entries.joined(separator: ", ") + ",\n \"k\\u0041\": 2}"
        let tree = try JSONDocument.parse(Array(fine.utf8), file: "t").get()
        #expect(tree.mapping?.map(\.name) == (0..<17).map { "k\($0)" } + ["kA"])
    }

    private func brokenBody(_ text: String, code: DiagnosticCode, line: Int, column: Int) {
        guard case .failure(let d) = JSONDocument.parse(Array(text.utf8), file: "t") else {
            Issue.record("accepted \(text.debugDescription)")
            return
        }
        #expect(d.code == code && d.span.start.line == line && d.span.start.column == column, "\(text.debugDescription): \(d)")
        #expect(d.file == "t" && !d.message.isEmpty)
    }

    @Test("invalid UTF-8, deep nesting and a byte order mark")
    func hostileBytes() throws {
        for bad: [UInt8] in [[0x5B, 0x22, 0xFF, 0x22, 0x5D], [0x5B, 0x22, 0xC3, 0x22, 0x5D], [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], [0x5B, 0xC3, 0xA9, 0x5D]] {
            guard case .failure(let d) = JSONDocument.parse(bad, file: "t") else {
                Issue.record("accepted \(bad)")
                continue
            }
            #expect(d.code == .yamlSyntax)
        }
        let deep = Array((String(repeating: "[", count: 65) + String(repeating: "]", count: 65)).utf8)
        guard case .failure(let d) = JSONDocument.parse(deep, file: "t") else {
            Issue.record("accepted 65 levels")
            return
        }
        #expect(d.code == .tooDeep && d.span.start.column == 65)
        let ok = Array((String(repeating: "[", count: 64) + String(repeating: "]", count: 64)).utf8)
        _ = try JSONDocument.parse(ok, file: "t").get()
        // A million levels cost no stack: reading stops at the limit.
        let huge = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect((try? JSONDocument.parse(huge, file: "t").get()) == nil)
        let bom = try JSONDocument.parse([0xEF, 0xBB, 0xBF] + Array("[\"é\", 1]".utf8), file: "t").get()
        #expect(bom.sequence?.map(\.scalar) == ["é", "1"])
    }

    /// The string scanner reads eight bytes at a time: put each kind of special byte at every
    /// place of strings up to 24 bytes long, with the string last in the body (so the window
    /// runs past the end) and followed by more, and compare with Foundation.
    @Test("special bytes at every place of a string, against Foundation")
    func specialBytesAtEveryPlace() throws {
        let specials: [[UInt8]] = [Array("\\\"".utf8), Array("\\\\".utf8), Array("\\n".utf8), Array("\\u00e9".utf8),
                                   [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80], [0x7F], [0x01], [0x1F], [0x0A], [0xFF], [0xC3]]
        for length in 0...24 {
            for place in 0...length {
                for special in specials {
                    var inner = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    inner.insert(contentsOf: special, at: place)
                    for (prefix, suffix) in [("[\"", "\"]"), ("\"", "\""), ("{\"k\": \"", "\", \"m\": [1, 2, 3, 4, 5, 6, 7, 8]}")] {
                        let bytes = Array(prefix.utf8) + inner + Array(suffix.utf8)
                        let foundation = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
                        let ours = try? JSONDocument.parse(bytes, file: "t").get()
                        #expect((ours != nil) == (foundation != nil), "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
                        let text: String? = switch foundation {
                        case let s as String: s
                        case let a as [Any]: a.first as? String
                        case let o as [String: Any]: o["k"] as? String
                        default: nil
                        }
                        let read = ours.flatMap { $0.scalar ?? $0.sequence?.first?.scalar ?? $0.mapping?.first?.value.scalar }
                        #expect(read == text, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
                    }
                }
            }
        }
    }

    /// A list that is most often a position, `[a, b]`, and otherwise one near it: other
    /// spacing (line breaks too), numbers the quick read must leave to the general one
    /// (leading zeros, fractions, ten digits, a letter after the digits), other lengths,
    /// missing or stray separators.
    static func nearPair(_ g: inout Generator) -> String {
        func pick<T>(_ xs: [T]) -> T { xs[Int.random(in: 0..<xs.count, using: &g)] }
        let space = ["", "", " ", "  ", "\t", "\n", "\r\n", "\r"]
        let numbers = ["0", "-0", "7", "-12", "83", "123456789", "-999999999", "999999999", "1234567890", "-1234567890",
                       "00", "01", "-01", "-", "-x", "7x", "1.5", "1e3", "2E-2", "\"7\"", "[1, 2]", "true", "{}"]
        let quiet = Int.random(in: 0..<3, using: &g) > 0  // most lists are plain positions
        let count = quiet ? 2 : pick([0, 1, 2, 2, 3])
        var text = "[" + (quiet ? pick(["", " "]) : pick(space))
        for n in 0..<count {
            if n > 0 { text += (quiet ? "" : pick(space)) + (quiet ? "," : pick([",", ",", ",", "", ",,"])) + (quiet ? pick(["", " "]) : pick(space)) }
            text += quiet ? pick(Array(numbers.prefix(8))) : pick(numbers)
        }
        return text + (quiet ? "" : pick(space)) + (quiet ? "]" : pick(["]", "]", "]", "", "]x", "}", "] ]"]))
    }

    /// A moves item that is most often `{"from": [a, b], "to": [c, d]}` (either order), and
    /// otherwise one near it with one defect: other keys or a key twice, one entry or three,
    /// line breaks or tabs, a missing colon, separator or brace.
    static func nearMove(_ g: inout Generator) -> String {
        func pick<T>(_ xs: [T]) -> T { xs[Int.random(in: 0..<xs.count, using: &g)] }
        let defect = Int.random(in: 0..<10, using: &g)  // 0..<5: none
        let keys = defect == 5
            ? pick([["from", "from"], ["to", "to"], ["from"], ["to"], [], ["from", "to", "from"], ["from", "section"],
                    ["fro", "to"], ["from ", "to"], ["t\\u006f", "from"], ["from", "tó"]])
            : pick([["from", "to"], ["to", "from"]])
        let space = defect == 6 ? ["", " ", "\t", "\n", "\r\n", "\r"] : ["", " "]
        let colon = defect == 7 ? pick([":", "", "::"]) : ":"
        let separator = defect == 8 ? pick([",", "", ",,", " ,\n"]) : pick([",", ", "])
        let close = defect == 9 ? pick(["}", "", "]", "}x", "} }"]) : "}"
        let entries = keys.map { "\"\($0)\"" + pick(space) + colon + pick(space) + nearPair(&g) + pick(space) }
        return "{" + pick(space) + entries.joined(separator: separator) + close
    }

    /// Every token of a document, keys included, in reading order: kind, bytes, subtree end,
    /// count or kept value, and flags. Both readers must write the same tape.
    static func tokens(_ node: JSONNode) -> [String] {
        let t = node.token
        let own = "\(t.kind) \(t.start) \(t.end) \(t.next) \(t.count32) \(t.small) \(t.escaped) \(t.nonASCII)"
        if let items = node.sequence { return [own] + items.flatMap(tokens) }
        if let entries = node.entries { return [own] + entries.flatMap { tokens($0.key) + tokens($0.value) } }
        return [own]
    }

    @Test("positions and moves read at once give the general reader's tape, tokens and problems, on 30,000 texts")
    func positionsReadAtOnce() throws {
        var g = Generator(state: 2026)
        var quick = 0, moves = 0, failed = 0, duplicates = 0
        for _ in 0..<30_000 {
            let (a, b, c) = (Self.nearPair(&g), Self.nearPair(&g), Self.nearPair(&g))
            let text = switch Int.random(in: 0..<6, using: &g) {
            case 0: "{\"from\": \(a), \"from\": \(b)}"  // a key twice, found past a pair
            case 1: "{\"from\": \(a), \"to\":\(b)}"
            case 2: "{\"moves\": [{\"from\": \(a), \"to\": \(b)}], \"v\": [\(c)]}"
            default: "{\"moves\": [" + (0..<Int.random(in: 1...3, using: &g)).map { _ in Self.nearMove(&g) }.joined(separator: ", ") + "]}"
            }
            var bytes = Array(text.utf8)
            // Some texts cut short, so that a key or a position meets the end of the body.
            if Int.random(in: 0..<8, using: &g) == 0 { bytes.removeLast(Int.random(in: 1...12, using: &g)) }
            let depth = Int.random(in: 0..<5, using: &g) == 0 ? Int.random(in: 0...4, using: &g) : 64
            var counts = (pairs: 0, moves: 0), none = (pairs: 0, moves: 0)
            let atOnce = JSONDocument.read(bytes, file: "p.json", maxDepth: depth, atOnce: true, readAtOnce: &counts)
            let general = JSONDocument.read(bytes, file: "p.json", maxDepth: depth, atOnce: false, readAtOnce: &none)
            #expect(none == (0, 0))
            quick += counts.pairs
            moves += counts.moves
            switch (atOnce, general) {
            case (.success(let x), .success(let y)):
                #expect(x.withRoot(Self.tokens) == y.withRoot(Self.tokens), "\(text)")
                #expect(x.withRoot(\.tree) == y.withRoot(\.tree), "\(text)")
            case (.failure(let x), .failure(let y)):
                #expect(x == y, "\(text)")
                failed += 1
                if x.code == .duplicateKey { duplicates += 1 }
            default:
                Issue.record("\(text): read at once \(atOnce), generally \(general)")
            }
        }
        #expect(quick > 10_000 && moves > 5_000 && failed > 2_000 && duplicates > 500,
                "\(quick) positions and \(moves) moves read at once, \(failed) refused, \(duplicates) of them for a key twice")

        // A move given up after its first position: that position is read again by the
        // general path, and counted once.
        var counts = (pairs: 0, moves: 0)
        let given = Array("{\"moves\": [{\"from\": [1, 2], \"to\": [3,\n4]}, {\"to\": [5, 6], \"from\": [7, 8]}]}".utf8)
        _ = try JSONDocument.read(given, file: "p.json", maxDepth: 64, atOnce: true, readAtOnce: &counts).get()
        #expect(counts == (3, 1))
    }

    @Test("randomly broken texts: accepted exactly when Foundation's JSON reader accepts them (keys once each)")
    func validityMatchesFoundation() {
        var g = Generator(state: 77)
        let inserts: [UInt8] = Array("{}[]\",:\\ 0-1.eE+tnx\t\n\u{7F}".utf8) + [0xC3, 0xA9, 0xFF, 0x01]
        var accepted = 0, refused = 0
        for _ in 0..<4_000 {
            var spaceGen = Generator(state: g.next())
            var bytes = Array(("{\"v\": " + Self.value(&g, depth: 0) { ["", " ", "\n"][Int.random(in: 0..<3, using: &spaceGen)] } + "}").utf8)
            for _ in 0..<Int.random(in: 1...2, using: &g) {
                let k = Int.random(in: 0..<bytes.count, using: &g)
                switch Int.random(in: 0..<3, using: &g) {
                case 0: bytes.remove(at: k)
                case 1: bytes.insert(inserts[Int.random(in: 0..<inserts.count, using: &g)], at: k)
                default: bytes[k] = inserts[Int.random(in: 0..<inserts.count, using: &g)]
                }
                if bytes.isEmpty { bytes = [0x20] }
            }
            // Where Foundation departs from RFC 8259 the text is left out: it takes a trailing
            // comma, and refuses a number past a Double (RFC 8259 §6 lets a reader limit range;
            // this one keeps numbers as written).
            let squeezed = String(decoding: bytes.filter { ![0x20, 0x0A, 0x09, 0x0D].contains($0) }, as: UTF8.self)
            if squeezed.contains(",}") || squeezed.contains(",]") || squeezed.contains(/[eE][+-]?[0-9]{3}/) { continue }
            let foundation = (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
            switch JSONDocument.parse(bytes, file: "t") {
            case .success:
                #expect(foundation, "accepted \(String(decoding: bytes, as: UTF8.self).debugDescription)")
                accepted += 1
            case .failure(let d):
                // Foundation takes a key twice (the last wins); SPEC §4 does not.
                #expect(!foundation || d.code == .duplicateKey, "refused \(String(decoding: bytes, as: UTF8.self).debugDescription): \(d.message)")
                refused += 1
            }
        }
        #expect(accepted > 300 && refused > 2_000, "accepted \(accepted), refused \(refused)")
    }
}

/// Known keys are handed out as strings made once (`KnownKeys`); every key must still read as
/// its own text, the known ones and those one byte away from them.
@Suite struct KnownKeyTests {
    static let known = ["to", "id", "from", "rows", "kind", "tags", "move", "moves", "table", "section", "sections",
                        "to-offset", "table-ref", "section-to", "attributes", "section-from", "from-offsets"]

    /// Each known key, and variants of it: a byte changed at each place, one cut, one added.
    static var keys: [String] {
        var all = known + ["", "t", "x", "é", "tö", "fromm", "frxm", "Rows", "section-fro", "from-offsetz", "a\\u0062"]
        for k in known {
            let b = Array(k.utf8)
            for i in b.indices {
                var c = b
                c[i] = c[i] == UInt8(ascii: "z") ? UInt8(ascii: "y") : UInt8(ascii: "z")
                all.append(String(decoding: c, as: UTF8.self))
            }
            all.append(String(k.dropLast()))
            all.append(k + "s")
        }
        var seen = Set<String>()
        return all.filter { seen.insert($0).inserted }  // an object may hold a key once
    }

    @Test("every key of a JSON object reads as its text, known or not")
    func jsonKeysReadAsWritten() throws {
        let keys = Self.keys
        let body = "{" + keys.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ", ") + "}"
        let document = try JSONDocument.read(Array(body.utf8), file: "k.json").get()
        let names = document.withRoot { root in (root.entries.map { Array($0) } ?? []).map(\.name) }
        // JSON's escape `\u0062` is the letter b: the name is the text the escape stands for.
        #expect(names == keys.map { $0 == "a\\u0062" ? "ab" : $0 })
    }

    @Test("the known-key table answers exactly the known keys")
    func tableAnswersKnownKeysOnly() {
        for key in Self.keys {
            let bytes = Array(key.utf8)
            let got = bytes.withUnsafeBufferPointer { KnownKeys.string($0) }
            #expect(got == (Self.known.contains(key) ? key : nil), "\(key)")
        }
    }
}

/// An integer of up to nine digits keeps its value on the reader's tape (issue #26); every
/// number must still read as the plain-scalar rule reads its text (SPEC §4: `-?[0-9]+` that
/// fits an `Int`, else not an integer), at the nine- and ten-digit edges and past `Int`.
@Suite struct TapeIntegerTests {
    @Test("every JSON number's integer is the one its text gives")
    func integersOnTheTapeReadAsTheirText() throws {
        var texts = ["0", "-0", "7", "-7", "10", "99", "100", "123456789", "-123456789", "999999999", "-999999999",
                     "1000000000", "-1000000000", "2147483647", "2147483648", "-2147483648", "-2147483649",
                     "4294967295", "4294967296", "9223372036854775807", "9223372036854775808",
                     "-9223372036854775808", "-9223372036854775809", "99999999999999999999", "1.5", "-0.0",
                     "1e3", "1E+2", "12e-1", "0.000"]
        var g = JSONDocumentTests.Generator(state: 26)
        for _ in 0..<2_000 {
            let digits = Int.random(in: 1...20, using: &g)
            var t = String(Int.random(in: 1...9, using: &g))
            for _ in 1..<digits { t += String(Int.random(in: 0...9, using: &g)) }
            texts.append(Bool.random(using: &g) ? "-" + t : t)
        }
        let body = "[" + texts.joined(separator: ", ") + "]"
        let document = try JSONDocument.read(Array(body.utf8), file: "n.json").get()
        let got = document.withRoot { root in root.sequence.map { $0.map(\.plainInteger) } ?? [] }
        #expect(got == texts.map { YAMLNode.plainInteger($0.utf8) })
        #expect(got.count == texts.count)
        #expect(got[9] == 999_999_999 && got[10] == -999_999_999 && got[11] == 1_000_000_000 && got[1] == 0)
    }
}

/// A key twice in one object (SPEC §4) means the same text twice, compared as Swift compares
/// strings (canonical equivalence), in a JSON body as in a YAML file and in small objects as in
/// large ones: `é` written precomposed and `é` written as `e` and a combining accent are one
/// key. Plain ASCII keys are the same only byte for byte.
@Suite struct RepeatedKeyTests {
    static func body(_ keys: [String], filler: Int) -> [UInt8] {
        let entries = (0..<filler).map { "\"k\($0)\": \($0)" } + keys.enumerated().map { "\"\($1)\": \($0)" }
        return Array(("{" + entries.joined(separator: ", ") + "}").utf8)
    }

    @Test("JSON and YAML agree on which keys repeat, with 0 and 20 other keys before them")
    func jsonAgreesWithYAML() {
        let cases: [([String], Bool)] = [
            (["\u{E9}", "e\u{301}"], true),      // precomposed and decomposed
            (["e\u{301}", "\u{E9}"], true),
            (["\u{E9}", "\\u00e9"], true),        // the second written as an escape
            (["\u{E9}", "e"], false),
            (["ab", "a\\u0062"], true),
            (["ab", "ba"], false),
            (["to", "from"], false),
            (["from", "from"], true),
        ]
        for filler in [0, 20] {
            for (keys, repeated) in cases {
                let bytes = Self.body(keys, filler: filler)
                let json = JSONDocument.read(bytes, file: "k.json")
                let jsonRepeats: Bool
                if case .failure(let d) = json { jsonRepeats = d.code == .duplicateKey } else { jsonRepeats = false }
                let yaml = YAMLDocument.parse(bytes, file: "k.json")
                let yamlRepeats = yaml.diagnostics.contains { $0.code == .duplicateKey }
                #expect(jsonRepeats == repeated, "JSON, \(keys), \(filler) other keys")
                #expect(yamlRepeats == repeated, "YAML, \(keys), \(filler) other keys")
            }
        }
    }
}
