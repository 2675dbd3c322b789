import SpannedYAML
/// Decodes the `tests` of a policy (SPEC §6).
struct TestDecoder {
    var d: NodeDecoder
    let ruleIDs: Set<String>

    mutating func test(_ node: YAMLNode) -> PolicyTest? {
        let before = d.diagnostics.count
        guard let keys = d.mapping(node, in: "a test", known: ["name", "table", "move", "section-move", "expect"]) else { return nil }
        var name = ""
        if let entry = keys["name"] {
            name = d.text(entry.value, expected: "a string for the test's 'name'") ?? ""
        } else {
            d.error(.missingKey, "missing key 'name' in a test", node)
        }
        var table: PolicyTest.TableSource? = nil
        if let entry = keys["table"] {
            if case .scalar = entry.value.content {
                if let path = d.text(entry.value, expected: "a table mapping or a path") { table = .file(path, entry.value.span) }
            } else {
                var decoder = TableDecoder(d: d)
                table = decoder.table(entry.value).map { .inline($0) }
                d = decoder.d
            }
        } else {
            d.error(.missingKey, "missing key 'table' in a test; expected a table or a path to one", node)
        }
        var move: Move? = nil
        switch (keys["move"], keys["section-move"]) {
        case (let m?, nil):
            if let k = d.mapping(m.value, in: "'move'", known: ["from", "to"]) {
                let from = position(k["from"], "from", m.value), to = position(k["to"], "to", m.value)
                if let from, let to { move = .row(from: from, to: to) }
            }
        case (nil, let m?):
            if let k = d.mapping(m.value, in: "'section-move'", known: ["from", "to"]) {
                let from = k["from"].flatMap { d.integer($0.value, "'from'") }
                let to = k["to"].flatMap { d.integer($0.value, "'to'") }
                if k["from"] == nil { d.error(.missingKey, "missing key 'from' in 'section-move'", m.value) }
                if k["to"] == nil { d.error(.missingKey, "missing key 'to' in 'section-move'", m.value) }
                if let from, let to { move = .section(from: from, to: to) }
            }
        case (let a?, let b?):
            let second = a.key.span.start < b.key.span.start ? b : a
            d.error(.invalidValue, "a test has either 'move' or 'section-move', not both", second.key)
        case (nil, nil):
            d.error(.missingKey, "missing key 'move' (or 'section-move') in a test", node)
        }
        var decision: ExpectedDecision? = nil
        var target: Destination? = nil
        var rules: [String] = []
        if let entry = keys["expect"] {
            if case .scalar = entry.value.content {
                decision = decisionWord(entry.value)
            } else if let k = d.mapping(entry.value, in: "'expect'", known: ["decision", "target", "rules"]) {
                if let e = k["decision"] {
                    decision = decisionWord(e.value)
                } else {
                    d.error(.missingKey, "missing key 'decision' in 'expect'", entry.value)
                }
                if let t = k["target"] {
                    if case .section? = move {
                        target = d.integer(t.value, "'target'").map { .section($0) }
                    } else {
                        target = coordinates(t.value, "'target'").map { .row($0) }
                    }
                }
                if let r = k["rules"] {
                    let items = r.value.sequence ?? [r.value]
                    for item in items {
                        guard let id = d.text(item, expected: "a rule id in 'rules'") else { continue }
                        if ruleIDs.contains(id) {
                            rules.append(id)
                        } else {
                            var message = "unknown rule id '\(id)' in 'expect.rules'"
                            if let guess = NodeDecoder.closest(to: id, in: ruleIDs.sorted()) { message += "; did you mean '\(guess)'?" }
                            d.error(.invalidValue, message, item, help: "rule ids are the 'id' of a rule, or rule-N / section-rule-N by position")
                        }
                    }
                }
            }
        } else {
            d.error(.missingKey, "missing key 'expect' in a test", node)
        }
        guard d.diagnostics.count == before, let table, let move, let decision else { return nil }
        return PolicyTest(name: name, span: node.span, table: table, move: move, decision: decision, target: target, rules: rules)
    }

    private mutating func decisionWord(_ node: YAMLNode) -> ExpectedDecision? {
        guard let text = d.text(node, expected: "a decision") else { return nil }
        guard let word = ExpectedDecision(rawValue: text) else {
            var message = "unknown decision '\(text)'; expected one of allowed, retargeted, rejected, denied, invalid"
            if let guess = NodeDecoder.closest(to: text, in: ExpectedDecision.allCases.map(\.rawValue)) { message += "; did you mean '\(guess)'?" }
            d.error(.invalidValue, message, node)
            return nil
        }
        return word
    }

    private mutating func position(_ entry: DocumentEntry<YAMLNode>?, _ key: String, _ parent: YAMLNode) -> Position? {
        guard let entry else {
            d.error(.missingKey, "missing key '\(key)' in 'move'", parent)
            return nil
        }
        return coordinates(entry.value, "'\(key)'")
    }

    /// `[s, r]`: two plain integers.
    mutating func coordinates(_ node: YAMLNode, _ what: String) -> Position? {
        guard let items = node.sequence, items.count == 2 else {
            // `0.1` or `[0.1]`: the command line's `s.r`, written where a file wants `[s, r]`.
            let dotted = node.scalar ?? (node.sequence?.count == 1 ? node.sequence?.first?.scalar : nil)
            if let dotted, let dot = dotted.firstIndex(of: "."),
               let s = Int(dotted[..<dot]), let r = Int(dotted[dotted.index(after: dot)...]), !node.isInvalid {
                d.error(.typeMismatch, "expected a position [section, row] for \(what), found '\(dotted)'", node,
                        help: "in a file a position is a list of two integers: write [\(s), \(r)] (s.r is the command line's form)")
                return nil
            }
            d.mismatch(node, expected: "a position [section, row] for \(what)")
            return nil
        }
        guard let s = d.integer(items[0], "the section of \(what)"), let r = d.integer(items[1], "the row of \(what)") else { return nil }
        return Position(section: s, row: r)
    }
}
