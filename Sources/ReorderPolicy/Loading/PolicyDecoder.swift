import SpannedYAML
/// Decodes a policy document's node tree into the policy model (SPEC §2, §6), reporting
/// every problem with its code and span and carrying on wherever it can.
struct PolicyDecoder {
    var d: NodeDecoder

    init(file: String) { d = NodeDecoder(file: file) }

    var diagnostics: [Diagnostic] { d.diagnostics }

    static let topKeys = ["reorder-policy", "name", "description", "retarget", "rules", "section-rules", "tests"]
    /// The row-rule keywords, from the registry of rule kinds.
    static let rowKinds = RuleRegistry.rowKinds.map { $0.keyword }
    /// The section-rule keywords, from the registry of section-rule kinds.
    static let sectionKinds = SectionRuleRegistry.kinds.map { $0.keyword }
    /// The keys of a row selector's mapping, from the registry of selector keys.
    static let selectorKeys = RowSelectorRegistry.keys.map { $0.keyword }

    /// The node's whole span, kept to the renderers (`explain`'s and `lint`'s code frames).
    func location(_ node: YAMLNode) -> SourceLocation {
        SourceLocation(file: d.file, line: node.span.start.line, column: node.span.start.column,
                       endLine: node.span.end.line, endColumn: node.span.end.column)
    }

    mutating func decode(_ root: YAMLNode) -> (Policy?, [PolicyTest]) {
        // A table file given where a policy is read (`lint table.yaml`, `--policy table.yaml`):
        // one error that says so, not an unknown key and three missing ones.
        if let entries = root.entries, let sections = entries.first(where: { $0.name == "sections" }),
           !entries.contains(where: { $0.name == "reorder-policy" || $0.name == "rules" }) {
            d.error(.unknownKey, "this looks like a table file, not a policy: it has 'sections' and no 'reorder-policy'", sections.key,
                    help: "lint and test read policy files; give a table to check, explain or diff with --table")
            return (nil, [])
        }
        guard let top = d.mapping(root, in: "a policy", known: Self.topKeys) else { return (nil, []) }
        var ok = true
        if let version = top["reorder-policy"] {
            if let v = d.integer(version.value, "reorder-policy") {
                if v != 1 {
                    d.error(.unsupportedVersion, "unsupported language version \(v); this tool reads version 1", version.value,
                            help: "write 'reorder-policy: 1'")
                    ok = false
                }
            } else { ok = false }
        } else {
            d.error(.missingKey, "missing key 'reorder-policy'; expected the language version, 'reorder-policy: 1'", at: Span(at: root.span.start))
            ok = false
        }
        var name = ""
        if let entry = top["name"] {
            if let text = d.text(entry.value, expected: "a string for 'name'") {
                if text.isEmpty { d.error(.invalidValue, "'name' must not be empty", entry.value) }
                name = text
            }
        } else {
            d.error(.missingKey, "missing key 'name'; expected the policy's name", at: Span(at: root.span.start))
        }
        let description = top["description"].flatMap { d.text($0.value, expected: "a string for 'description'") }
        var retarget = RetargetMode.nearest
        let modes = RetargetMode.allCases.map(\.rawValue)
        let expected = modes.dropLast().map { "'\($0)'" }.joined(separator: ", ") + " or '\(modes.last!)'"
        if let entry = top["retarget"], let text = d.text(entry.value, expected: "\(expected) for 'retarget'") {
            if let mode = RetargetMode(rawValue: text) {
                retarget = mode
            } else {
                var message = "unknown retarget mode '\(text)'; expected \(expected)"
                if let guess = NodeDecoder.closest(to: text, in: modes) { message += "; did you mean '\(guess)'?" }
                d.error(.invalidValue, message, entry.value)
            }
        }
        var rules: [RowRule] = []
        var ids: [(String, Span)] = []
        if let entry = top["rules"] {
            if let items = entry.value.sequence {
                for (n, item) in items.enumerated() {
                    if let rule = rowRule(item, defaultID: "rule-\(n + 1)", ids: &ids) { rules.append(rule) }
                }
            } else {
                d.mismatch(entry.value, expected: "a list of rules for 'rules'")
            }
        } else {
            d.error(.missingKey, "missing key 'rules'; expected a list of rules (it may be empty: 'rules: []')", at: Span(at: root.span.start))
        }
        var sectionRules: [SectionRule] = []
        if let entry = top["section-rules"] {
            if let items = entry.value.sequence {
                for (n, item) in items.enumerated() {
                    if let rule = sectionRule(item, defaultID: "section-rule-\(n + 1)", ids: &ids) { sectionRules.append(rule) }
                }
            } else {
                d.mismatch(entry.value, expected: "a list of section rules for 'section-rules'")
            }
        }
        // Ids are unique across both lists after defaults are applied.
        var seen: [String: Span] = [:]
        for (id, span) in ids {
            if let first = seen[id] {
                d.error(.duplicateRuleID, "rule id '\(id)' is already used by the rule at line \(first.start.line)", at: span,
                        help: "give each rule a unique id; unnamed rules are called rule-N and section-rule-N")
            } else {
                seen[id] = span
            }
        }
        var tests: [PolicyTest] = []
        if let entry = top["tests"] {
            if let items = entry.value.sequence {
                var decoder = TestDecoder(d: d, ruleIDs: Set(ids.map(\.0)))
                tests = items.compactMap { decoder.test($0) }
                d = decoder.d
            } else {
                d.mismatch(entry.value, expected: "a list of tests for 'tests'")
            }
        }
        guard ok else { return (nil, tests) }
        return (Policy(name: name, description: description, retarget: retarget, rules: rules, sectionRules: sectionRules), tests)
    }

    // MARK: - Rules

    /// A selector's keys lined up with the rule kind instead of under it (`- pin:` with
    /// `first: 1` in the same column as `pin`) become keys of the rule item: its unknown-key
    /// errors at or after `from` say to indent them.
    private mutating func hintIndentation(_ item: YAMLNode, kinds: [String], from: Int) {
        let entries = item.mapping ?? []
        guard let kind = entries.first(where: { kinds.contains($0.name) }),
              kind.value.scalar == "" || kind.value.scalar == "~" || kind.value.scalar == "null" else { return }
        let column = kind.key.span.start.column
        for k in from..<d.diagnostics.count where d.diagnostics[k].code == .unknownKey {
            guard let entry = entries.first(where: { $0.key.span.start == d.diagnostics[k].span.start }),
                  Self.selectorKeys.contains(entry.name) || entry.name == "section" || entry.name == "max" || entry.name == "min"
                    || entry.name == "from" || entry.name == "rows" else { continue }
            d.setHelp("'\(entry.name)' is in the same column as '\(kind.name)' (\(column)), so it is a key of the rule; "
                      + "indent it further than '\(kind.name)' to put it under '\(kind.name):'", at: k)
        }
    }

    /// Reads `id` and `message` and finds the single rule-kind key of a rule item.
    private mutating func ruleItem(
        _ item: YAMLNode, kinds: [String], context: String, defaultID: String, ids: inout [(String, Span)]
    ) -> (kind: YAMLEntry, meta: RuleMetadata)? {
        let before = d.diagnostics.count
        guard let keys = d.mapping(item, in: context, known: kinds + ["id", "message"]) else { return nil }
        let unknown = d.diagnostics[before...].contains { $0.code == .unknownKey }
        if unknown { hintIndentation(item, kinds: kinds, from: before) }
        var id = defaultID, idSpan = item.span
        if let entry = keys["id"], let text = d.text(entry.value, expected: "a string for 'id'") {
            if text.isEmpty {
                d.error(.invalidValue, "a rule id must not be empty", entry.value)
            } else {
                id = text
                idSpan = entry.value.span
            }
        }
        ids.append((id, idSpan))
        let message = keys["message"].flatMap { d.text($0.value, expected: "a string for 'message'") }
        let present = (item.mapping ?? []).filter { kinds.contains($0.name) }
        guard present.count == 1 else {
            if present.isEmpty && !unknown {
                d.error(.ruleKind, "\(context) needs exactly one rule kind, found none; expected one of \(kinds.map { "'\($0)'" }.joined(separator: ", "))", item)
            } else if present.count > 1 {
                d.error(.ruleKind, "\(context) needs exactly one rule kind, found \(present.count): \(present.map { "'\($0.name)'" }.joined(separator: ", "))", item,
                        help: "split it into one item per rule kind")
            }
            return nil
        }
        return (present[0], RuleMetadata(id: id, message: message, location: location(item)))
    }

    mutating func rowRule(_ item: YAMLNode, defaultID: String, ids: inout [(String, Span)]) -> RowRule? {
        guard let (entry, meta) = ruleItem(item, kinds: Self.rowKinds, context: "rule", defaultID: defaultID, ids: &ids),
              let kind = RuleRegistry.rowKind(entry.name)
        else { return nil }
        // The rule kind reads its own argument through this decoder (RuleArgumentReader below).
        return kind.decodeKind(entry.value, &self).map { RowRule($0, metadata: meta) }
    }

    mutating func sectionRule(_ item: YAMLNode, defaultID: String, ids: inout [(String, Span)]) -> SectionRule? {
        guard let (entry, meta) = ruleItem(item, kinds: Self.sectionKinds, context: "section rule", defaultID: defaultID, ids: &ids),
              let kind = SectionRuleRegistry.kind(entry.name)
        else { return nil }
        // The rule kind reads its own argument through this decoder (RuleArgumentReader below).
        return kind.decodeKind(entry.value, &self).map { SectionRule($0, metadata: meta) }
    }

    private mutating func anchor(_ node: YAMLNode) -> Anchor? {
        guard let text = d.text(node, expected: "'start' or 'end' for 'anchor'") else { return nil }
        guard let anchor = Anchor(rawValue: text) else {
            d.error(.invalidValue, "unknown anchor '\(text)'; expected 'start' or 'end'", node)
            return nil
        }
        return anchor
    }

    // MARK: - Selectors

    mutating func rowSelector(_ node: YAMLNode, for context: String) -> RowSelector? {
        var unused: Anchor? = nil
        return rowSelector(node, for: context, anchor: &unused, allowAnchor: false)
    }

    /// A row selector (SPEC §2.1, §8.1): `all`, a mapping (with an optional `not`), or a list
    /// of selectors (nested lists read as one list). `anchor` is read only at the top of a
    /// pin's own mapping (SPEC §8.5); inside a list or `not` it is an unknown key.
    mutating func rowSelector(_ node: YAMLNode, for context: String, anchor: inout Anchor?, allowAnchor: Bool = true) -> RowSelector? {
        if case .scalar(let text, let style) = node.content {
            if text == "all" { return .all }
            let found = style.isPlain && text.isEmpty ? "an empty value" : "'\(text)'"
            d.error(.typeMismatch, "expected 'all', a mapping or a list as the row selector of \(context), found \(found)", node,
                    help: "write 'all', a mapping such as '{ first: 1 }' or '{ not: { kind: header } }', or a list of them")
            return nil
        }
        if let items = node.sequence {
            var alternatives: [RowSelector] = []
            var ok = true
            var unused: Anchor? = nil
            for item in items {
                guard let selector = rowSelector(item, for: "an item of \(context)", anchor: &unused, allowAnchor: false) else {
                    ok = false
                    continue
                }
                // Nested lists read as one list (SPEC §8.5), also for the default anchor.
                if let nested = selector.alternatives { alternatives += nested } else { alternatives.append(selector) }
            }
            return ok ? .anyOf(alternatives) : nil
        }
        let known = Self.selectorKeys + (allowAnchor ? ["anchor"] : [])
        guard let keys = d.mapping(node, in: "the row selector of \(context)", known: known) else { return nil }
        var units: [any RowSelectorKey] = []
        var ok = true
        var groups: [String: String] = [:]
        for entry in node.mapping ?? [] {
            guard keys[entry.name] != nil, let key = RowSelectorRegistry.key(entry.name) else { continue }
            if let group = key.exclusiveGroup {
                if let first = groups[group] {
                    let members = RowSelectorRegistry.keys.filter { $0.exclusiveGroup == group }.map { "'\($0.keyword)'" }
                    d.error(.selectorConflict, "'\(entry.name)' cannot be combined with '\(first)' in one selector", entry.key,
                            help: "use at most one of \(Self.words(members)); write a list of selectors to select both")
                    ok = false
                    continue
                }
                groups[group] = entry.name
            }
            let before = d.diagnostics.count
            if let unit = key.decodeKey(entry.value, in: context, &self), d.diagnostics.count == before {
                units.append(unit)
            } else {
                ok = false
            }
        }
        if allowAnchor, let entry = keys["anchor"] {
            anchor = self.anchor(entry.value)
            ok = ok && anchor != nil
        }
        return ok ? RowSelector(keys: units) : nil
    }

    /// `'a', 'b' and 'c'`.
    private static func words(_ list: [String]) -> String {
        list.count < 2 ? list.joined() : list.dropLast().joined(separator: ", ") + " and " + list[list.count - 1]
    }

    /// A plain integer or a list of plain integers (`index`).
    mutating func integers(_ node: YAMLNode, _ what: String) -> [Int]? {
        if let items = node.sequence {
            let values = items.map { d.integer($0, "an entry of \(what)") }
            return values.allSatisfy({ $0 != nil }) ? values.map { $0! } : nil  // none is nil on that side
        }
        return d.integer(node, what).map { [$0] }
    }

    /// The keys of a section selector's mapping, from the registry of section keys.
    static let sectionFilterKeys = SectionFilterRegistry.keys.map { $0.keyword }

    /// A section selector (SPEC §2.1, §8.2): an index, an id, `all`, a mapping, or a list of
    /// indices, ids and mappings (a nested list is a type mismatch, SPEC §8.5).
    mutating func sectionSelector(_ node: YAMLNode, _ what: String) -> SectionSelector? {
        if let items = node.sequence {
            var refs: [SectionReference] = []
            var all = false, ok = true
            for item in items {
                if item.sequence != nil {
                    d.mismatch(item, expected: "a section index, a section id or a mapping in the list of \(what) (lists do not nest)")
                    ok = false
                    continue
                }
                switch sectionReference(item, what) {
                case .none: ok = false
                case .some(.none): all = true
                case .some(.some(let ref)): refs.append(ref)
                }
            }
            guard ok else { return nil }
            return all ? .all : .some(refs)
        }
        switch sectionReference(node, what) {
        case .none: return nil
        case .some(.none): return .all
        case .some(.some(let ref)): return .some([ref])
        }
    }

    /// One section reference: nil on error, `.some(nil)` for `all`.
    private mutating func sectionReference(_ node: YAMLNode, _ what: String) -> SectionReference?? {
        if node.mapping != nil {
            return sectionFilter(node, what).map { .some(.matching($0)) }
        }
        guard case .scalar(let text, let style) = node.content, !(style.isPlain && text.isEmpty) else {
            d.mismatch(node, expected: "a section index, a section id, a mapping or a list of them for \(what)")
            return nil
        }
        if text == "all" { return .some(nil) }
        if style.isPlain, NodeDecoder.isIntegerShaped(text) {
            guard let value = NodeDecoder.plainInteger(text) else {
                d.error(.typeMismatch, "expected a section index for \(what), found '\(text)'", node,
                        help: "indices are plain decimal integers; quote the value to use it as a section id")
                return nil
            }
            return .some(.index(value))
        }
        return .some(.id(text))
    }

    /// The mapping form (SPEC §8.2): the keys of ``SectionFilterRegistry``; every key must match.
    private mutating func sectionFilter(_ node: YAMLNode, _ what: String) -> SectionFilter? {
        guard let keys = d.mapping(node, in: "the section selector of \(what)", known: Self.sectionFilterKeys) else { return nil }
        var units: [any SectionFilterKey] = []
        var ok = true
        for entry in node.mapping ?? [] {
            guard keys[entry.name] != nil, let key = SectionFilterRegistry.key(entry.name) else { continue }
            let before = d.diagnostics.count
            if let unit = key.decodeKey(entry.value, in: what, &self), d.diagnostics.count == before {
                units.append(unit)
            } else {
                ok = false
            }
        }
        return ok ? SectionFilter(keys: units) : nil
    }
}

/// How rule kinds read their arguments from the node tree, with this decoder's diagnostics.
extension PolicyDecoder: RuleArgumentReader {
    typealias Node = YAMLNode

    mutating func entries(_ node: YAMLNode, in context: String, known: [String]) -> [RuleArgumentEntry<YAMLNode>]? {
        guard d.mapping(node, in: context, known: known) != nil, let all = node.mapping else { return nil }
        return all.filter { known.contains($0.name) }.map { RuleArgumentEntry(name: $0.name, key: $0.key, value: $0.value) }
    }

    mutating func integer(_ node: YAMLNode, _ what: String, minimum: Int?) -> Int? {
        d.integer(node, what, minimum: minimum)
    }

    mutating func capacityBound(_ node: YAMLNode, _ what: String) -> CapacityBound? {
        guard node.mapping != nil else { return d.integer(node, what, minimum: 0).map(CapacityBound.value) }
        guard let keys = d.mapping(node, in: "the bound \(what)", known: ["attribute"]) else { return nil }
        guard let entry = keys["attribute"] else {
            if node.mapping?.isEmpty ?? true {
                d.error(.missingKey, "\(what) needs 'attribute': the name of the section attribute that bounds it", node,
                        help: "write '{ attribute: wip }', or a plain integer")
            }
            return nil
        }
        guard let name = d.text(entry.value, expected: "an attribute name for 'attribute'") else { return nil }
        if name.isEmpty {
            d.error(.invalidValue, "an attribute name must not be empty", entry.value)
            return nil
        }
        return .attribute(name)
    }

    mutating func strings(_ node: YAMLNode, _ what: String) -> [String]? {
        d.strings(node, what)
    }

    func scalarWord(_ node: YAMLNode) -> String? { node.scalar }

    mutating func pinSelector(_ node: YAMLNode, for context: String) -> (RowSelector, Anchor?)? {
        var anchor: Anchor? = nil
        return rowSelector(node, for: context, anchor: &anchor).map { ($0, anchor) }
    }

    mutating func sectionRuleTarget(_ node: YAMLNode, for keyword: String, anchor allowsAnchor: Bool) -> (target: SectionRuleTarget, anchor: Anchor?)? {
        let known = ["section", "first", "last"] + (allowsAnchor ? ["anchor"] : [])
        let before = d.diagnostics.count
        guard let keys = d.mapping(node, in: "'\(keyword)' of a section rule", known: known) else { return nil }
        let anchor = allowsAnchor ? keys["anchor"].flatMap { self.anchor($0.value) } : nil
        let given = (node.mapping ?? []).filter { SectionTargetKey(rawValue: $0.name) != nil }
        guard let first = given.first else {
            // After an unknown key (`lock: { kind: x }`) that key is the mistake to show.
            if !d.diagnostics[before...].contains(where: { $0.code == .unknownKey }) {
                d.error(.missingKey, "section rule '\(keyword)' needs one of 'section', 'first' or 'last'", node,
                        help: "to select sections by kind or tag, write '\(keyword): { section: { kind: x } }'")
            }
            return nil
        }
        if given.count > 1 {
            d.error(.selectorConflict, "'\(given[1].name)' cannot be combined with '\(first.name)'; give exactly one of 'section', 'first' or 'last'", given[1].key)
            return nil
        }
        let target: SectionRuleTarget?
        switch SectionTargetKey(rawValue: first.name) {
        case .section?: target = sectionSelector(first.value, "'section'").map { .sections($0) }
        case .first?: target = d.integer(first.value, "'first'", minimum: 1).map { .first($0) }
        case .last?: target = d.integer(first.value, "'last'", minimum: 1).map { .last($0) }
        case nil: target = nil  // `given` holds only these keys
        }
        return target.map { ($0, anchor) }
    }

    mutating func report(_ problem: RuleArgumentProblem, _ message: String, at node: YAMLNode, help: String?) {
        let code: DiagnosticCode = switch problem {
        case .missingKey: .missingKey
        case .selectorConflict: .selectorConflict
        case .invalidValue: .invalidValue
        }
        d.error(code, message, node, help: help)
    }
}

/// The keys that say which sections a section rule selects (exactly one is given).
private enum SectionTargetKey: String {
    case section, first, last
}
