/// `reserve: { first: N | last: N, section: <section selector> }` (SPEC §2.2, §7): the first
/// (last) N rows of each selected section are reserved slots — exactly a `pin` with anchor
/// `start` (`end`) on them, which explanations call reserved.
public struct ReserveRule: Hashable, Sendable {
    /// `.start` for `first: N`, `.end` for `last: N`.
    public var edge: Anchor
    /// N, at least 1.
    public var count: Int
    /// The sections; nil means every section.
    public var section: SectionSelector?

    /// Creates the rule.
    public init(edge: Anchor, count: Int, section: SectionSelector? = nil) {
        self.edge = edge
        self.count = count
        self.section = section
    }
}

extension RowRule.Kind {
    /// The first (`.start`) or last (`.end`) `count` rows of each selected section are pinned.
    public static func reserve(edge: Anchor, count: Int, section: SectionSelector?) -> Self {
        Self(ReserveRule(edge: edge, count: count, section: section))
    }
}

extension ReserveRule: RowRuleKind {
    package static let keyword = "reserve"
    package static let summary = "the first or last N rows of each selected section are reserved slots: a pin anchored at that end"
    package static let argumentSchema = ##"""
        {
          "type": "object", "additionalProperties": false,
          "oneOf": [ { "required": ["first"] }, { "required": ["last"] } ],
          "properties": { "first": { "$ref": "#/$defs/count" }, "last": { "$ref": "#/$defs/count" },
                          "section": { "$ref": "#/$defs/sectionSelector" } }
        }
        """##

    package static func decode<Reader: RuleArgumentReader>(_ argument: Reader.Node, _ reader: inout Reader) -> Self? {
        guard let entries = reader.entries(argument, in: "'reserve'", known: ["first", "last", "section"]) else { return nil }
        let edges = entries.filter { $0.name == "first" || $0.name == "last" }
        guard let edge = edges.first else {
            reader.report(.missingKey, "'reserve' needs 'first: N' or 'last: N'", at: argument, help: nil)
            return nil
        }
        if edges.count > 1 {
            reader.report(.selectorConflict, "'\(edges[1].name)' cannot be combined with '\(edge.name)' in 'reserve'", at: edges[1].key, help: nil)
            return nil
        }
        var section: SectionSelector? = nil
        var ok = true
        if let entry = entries.entry("section") {
            section = reader.sectionSelector(entry.value, "'section'")
            ok = section != nil
        }
        guard let count = reader.integer(edge.value, "'\(edge.name)'", minimum: 1), ok else { return nil }
        return Self(edge: edge.name == "first" ? .start : .end, count: count, section: section)
    }

    package var argumentYAML: String {
        var entries = [(edge == .start ? "first" : "last", String(count))]
        if let section { entries.append(("section", section.flowYAML)) }
        return FlowYAML.mapping(entries)
    }

    package var mentions: RuleMentions { RuleMentions(sections: section.map { [$0] } ?? []) }

    /// The reserved rows as a row selector: the first or last `count` rows of the sections.
    var rows: RowSelector { RowSelector(section: section, position: edge == .start ? .first(count) : .last(count)) }

    package func compile() throws(PolicyError) -> any CompiledRowRuleKind {
        guard count >= 1 else { throw PolicyError("reserve needs a count of at least 1") }
        return Compiled(rows: CompiledRowSelector(rows), edge: edge)
    }

    struct Compiled: CompiledRowRuleKind {
        let rows: CompiledRowSelector
        let edge: Anchor

        func bind(_ binder: inout RuleBinder) -> RuleEffects {
            RuleEffects(held: binder.held(rows, anchor: edge, pins: true, word: "reserved"))
        }

        @_specialize(where W == WordedReason) @_specialize(where W == JSONWordedReason)
        func word<W: ReasonText>(_ c: RowCheck, into reason: inout W) -> RuleScope { c.heldRowsWording(into: &reason) }
        func word(_ c: BlockCheck) -> Reason { c.heldRowsReason() }
    }
}
