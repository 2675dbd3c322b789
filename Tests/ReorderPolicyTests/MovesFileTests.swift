import ReorderPolicy
import SpannedYAML
import Testing

/// A moves file's items are decoded by `MovesFile.item` alone: in place from the flat events
/// (`FlatNode`) when the item is one a tree would accept, else from the tree. Both must say
/// the same as decoding the whole file as a tree.
@Suite struct MovesFileTests {
    /// A random move-like item in flow style: known and unknown keys, repeated keys, numbers
    /// plain and quoted, lists of every length, nested mappings, empty values.
    static func item(_ rng: inout some RandomNumberGenerator) -> String {
        let keys = ["from", "to", "section-from", "section-to", "from-offsets", "to-offset", "section", "x", "\"from\"", "[a]"]
        func scalar() -> String {
            ["0", "1", "2", "-1", "12", "\"1\"", "'2'", "a", "", "99999999999999999999", "1.5", "~"].randomElement(using: &rng)!
        }
        func value(_ depth: Int) -> String {
            switch Int.random(in: 0..<6, using: &rng) {
            case 0, 1: return scalar()
            case 2, 3: return "[" + (0..<Int.random(in: 0...3, using: &rng)).map { _ in scalar() }.joined(separator: ", ") + "]"
            case 4 where depth < 2: return "{a: \(value(depth + 1))}"
            default: return "[" + scalar() + ", [" + scalar() + "]]"
            }
        }
        let shapes: [[String]] = [["from", "to"], ["to", "from"], ["section-from", "section-to"], ["section-to", "section-from"],
                                  ["from-offsets", "to-offset", "section"]]
        var chosen = Bool.random(using: &rng) ? shapes.randomElement(using: &rng)! : (0..<Int.random(in: 0...4, using: &rng)).map { _ in keys.randomElement(using: &rng)! }
        if Int.random(in: 0..<8, using: &rng) == 0 { chosen.append(chosen.first ?? "from") }
        let wellFormed = Bool.random(using: &rng)
        let entries = chosen.map { key -> String in
            let v: String
            if wellFormed {
                switch key {
                case "from", "to": v = "[\(Int.random(in: -1...3, using: &rng)), \(Int.random(in: 0...3, using: &rng))]"
                case "from-offsets": v = "[" + (0..<Int.random(in: 1...3, using: &rng)).map { _ in "\(Int.random(in: 0...4, using: &rng))" }.joined(separator: ", ") + "]"
                default: v = "\(Int.random(in: -1...3, using: &rng))"
                }
            } else {
                v = value(0)
            }
            return "\(key): \(v)"
        }
        return Int.random(in: 0..<10, using: &rng) == 0 ? value(0) : "{" + entries.joined(separator: ", ") + "}"
    }

    static func same(_ a: MoveItem, _ b: MoveItem) -> Bool {
        switch (a, b) {
        case (.move(let x), .move(let y)): x == y
        case (.offsets(let f1, let t1, let s1), .offsets(let f2, let t2, let s2)): f1 == f2 && t1 == t2 && s1 == s2
        case (.invalid(let g1, let e1), .invalid(let g2, let e2)): g1 == g2 && e1 == e2
        default: false
        }
    }

    @Test("keys that differ in bytes but are one string (é composed and decomposed) are a repeated key, as in the tree")
    func canonicallyEqualKeysRepeat() {
        let yaml = "- {\u{E9}: 1, e\u{301}: 2}\n"
        var streamed: [MoveItem] = []
        _ = MovesFile.stream(SourceFile(path: "m.yaml", text: yaml)) { streamed.append($0) }
        guard case .invalid(_, let error)? = streamed.first else { Issue.record("\(streamed)"); return }
        #expect(error.hasPrefix("duplicate-key"), "\(error)")
    }

    @Test("items decoded in place equal items decoded from the tree, over 5,000 random items")
    func inPlaceEqualsTree() throws {
        var rng = DecisionServiceTests.Generator(state: 0x5EED_F1A7)
        var inPlace = 0
        for _ in 0..<5_000 {
            let text = Self.item(&rng)
            let yaml = Bool.random(using: &rng) ? "- \(text)\n" : "[\(text)]\n"
            var streamed: [MoveItem] = []
            let errors = MovesFile.stream(SourceFile(path: "m.yaml", text: yaml)) { streamed.append($0) }
            let parsed = YAMLDocument.parse(Array(yaml.utf8), file: "m.yaml", limits: .stream)
            guard let root = parsed.root, let items = root.sequence, items.count == 1 else {
                // Not one item (broken YAML, say): the file is refused as a whole either way.
                #expect(streamed.isEmpty || !errors.isEmpty || !parsed.diagnostics.isEmpty, "\(yaml)")
                continue
            }
            #expect(errors.isEmpty, "\(yaml)")
            try #require(streamed.count == 1, "\(yaml)")
            if parsed.diagnostics.isEmpty {
                inPlace += 1
                let expected = MovesFile.item(items[0])
                #expect(Self.same(streamed[0], expected), "\(yaml): \(streamed[0]) against \(expected)")
            } else {
                // A duplicate key, say: the item is refused with the tree's errors.
                guard case .invalid = streamed[0] else {
                    Issue.record("\(yaml): decided although the tree refused it: \(streamed[0])")
                    continue
                }
            }
        }
        #expect(inPlace > 3_000)
    }

    /// A random JSON item, mostly near `{"from": [s, r], "to": [t, q]}`: keys in either order,
    /// escaped, missing, extra or unknown; numbers negative, large, fractional or quoted; lists
    /// of other lengths or nested; other values and whole items that are not objects.
    static func jsonItem(_ rng: inout some RandomNumberGenerator) -> String {
        func number() -> String {
            ["0", "3", "-1", "12", "999999999", "1000000000", "-999999999", "99999999999999999999", "1.5", "2e1", "\"1\"", "null", "[1]", "{}"]
                .randomElement(using: &rng)!
        }
        func small() -> String { Int.random(in: 0..<4, using: &rng) == 0 ? number() : "\(Int.random(in: -2...120, using: &rng))" }
        func list() -> String {
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: return "[" + (0..<Int.random(in: 0...3, using: &rng)).map { _ in small() }.joined(separator: ", ") + "]"
            case 1: return number()
            default: return "[\(small()), \(small())]"
            }
        }
        let names = ["\"from\"", "\"to\"", "\"fr\\u006fm\"", "\"t\\u006f\"", "\"section-from\"", "\"section-to\"", "\"x\"", "\"From\"", "\"tO\"", "\"fram\"", "\"ta\"", "\"fromm\""]
        var keys = Int.random(in: 0..<3, using: &rng) == 0
            ? (0..<Int.random(in: 0...3, using: &rng)).map { _ in names.randomElement(using: &rng)! }
            : (Bool.random(using: &rng) ? ["\"from\"", "\"to\""] : ["\"to\"", "\"from\""])
        if Int.random(in: 0..<10, using: &rng) == 0 { keys.append(names.randomElement(using: &rng)!) }
        if Int.random(in: 0..<20, using: &rng) == 0 { return number() }
        return "{" + keys.map { "\($0): \(list())" }.joined(separator: Bool.random(using: &rng) ? ", " : ",") + "}"
    }

    @Test("a JSON item read off the tape decodes as through its entries and as its YAML tree, over 6,000 random items")
    func jsonFastPathEqualsTree() throws {
        var rng = DecisionServiceTests.Generator(state: 0x7A9E_0B0D)
        var fast = 0
        for _ in 0..<6_000 {
            let text = "[" + Self.jsonItem(&rng) + "]"
            guard case .success(let document) = JSONDocument.read(Array(text.utf8), file: "m.json") else {
                // A repeated key: the whole body is refused, before any item is decoded.
                guard case .failure = JSONDocument.parse(Array(text.utf8), file: "m.json") else {
                    Issue.record("\(text): parsed but not read")
                    continue
                }
                continue
            }
            guard case .success(let tree) = JSONDocument.parse(Array(text.utf8), file: "m.json"), let treeItems = tree.sequence else {
                Issue.record("\(text): read but not parsed")
                continue
            }
            let expected = MovesFile.item(treeItems[0])
            document.withRoot { root in
                let item = root.sequence![root.sequence!.startIndex]  // a list of one item: built above
                if item.rowMoveNumbers != nil { fast += 1 }
                let got = MovesFile.item(item)
                #expect(Self.same(got, expected), "\(text): \(got) against \(expected)")
            }
        }
        #expect(fast > 700 && fast < 3_000, "\(fast) items read off the tape")  // about a sixth: both read ways are exercised
    }
}

/// `check --moves` reads items into flat batches on one thread and decodes and decides them on
/// another (`BatchPipeline`): over several batches, with items decoded in place and items that
/// went through a tree (anchors, tags, repeated keys) side by side, its output must be what
/// deciding each item read alone gives.
@Suite struct BatchPipelineTests {
    @Test("a file of 2,600 random items, across three batches, decides as its items read one at a time")
    func batchesDecideAsItemsAlone() throws {
        var rng = DecisionServiceTests.Generator(state: 0xBA7C_4E5)
        let compiled = try PolicyLoader.compile(text: "reorder-policy: 1\nname: t\nrules:\n  - pin: { first: 1 }\n  - keep-in-section: { tag: home }\n")
        let table = Table(sections: (0..<4).map { s in Section(id: "S\(s)", rows: (0..<5).map { Row(id: "r\(s)-\($0)", tags: $0 % 2 == 0 ? ["home"] : []) }) })
        var lines: [String] = []
        while lines.count < 2_600 {
            var text = MovesFileTests.item(&rng)
            switch Int.random(in: 0..<40, using: &rng) {
            case 0: text = "&a" + String(lines.count) + " " + text  // an anchor: refused with its error
            case 1: text = "!t " + text                              // a tag
            default: break
            }
            // Only items that leave the file readable (each is tried alone first).
            var alone: [MoveItem] = []
            let errors = MovesFile.stream(SourceFile(path: "m.yaml", text: "- \(text)\n")) { alone.append($0) }
            if errors.isEmpty && alone.count == 1 { lines.append(text) }
        }
        let file = lines.map { "- \($0)\n" }.joined()

        var pipelined = CheckRunner(bound: compiled.bind(table), format: .json)
        let flushed = EmbeddedBatchTests.Flushed()
        let problems = BatchPipeline.run(SourceFile(path: "m.yaml", text: file), runner: &pipelined) { flushed.append($0) }
        #expect(problems.isEmpty)
        _ = pipelined.finish()
        var got = flushed.bytes
        pipelined.withOutput { got += $0 }

        // Each item alone, on its own line of an otherwise empty file (so errors name the same line).
        var reference = CheckRunner(bound: compiled.bind(table), format: .json)
        for (n, text) in lines.enumerated() {
            let alone = String(repeating: "\n", count: n) + "- \(text)\n"
            _ = MovesFile.stream(SourceFile(path: "m.yaml", text: alone)) { reference.decide($0) }
        }
        _ = reference.finish()
        var expected: [UInt8] = []
        reference.withOutput { expected += $0 }
        #expect(got == expected)
        let text = String(decoding: got, as: UTF8.self)
        // The mix this test is for: decided items, invalid ones, and ones refused for an anchor.
        #expect(text.contains("\"retargeted\"") && text.contains("\"invalid\"") && text.contains("yaml-alias"))
    }
}
