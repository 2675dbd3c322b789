/// `accept: { section, from, rows }` (SPEC §2.2, §7): a move into a selected section from
/// another section is valid only if the source section is selected by `from` and the moving
/// row by `rows`. Several accept rules on one section all apply.
public struct AcceptRule: Hashable, Sendable {
    /// The guarded sections.
    public var section: SectionSelector
    /// The sections rows may come from (default: every section).
    public var from: SectionSelector
    /// The rows that may come in (default: every row).
    public var rows: RowSelector

    /// Creates the rule.
    public init(section: SectionSelector, from: SectionSelector = .all, rows: RowSelector = .all) {
        self.section = section
        self.from = from
        self.rows = rows
    }
}

extension RowRule.Kind {
    /// A move into a selected section from another is valid only from `from` sections and for `rows`.
    public static func accept(section: SectionSelector, from: SectionSelector, rows: RowSelector) -> Self {
        Self(AcceptRule(section: section, from: from, rows: rows))
    }
}

extension AcceptRule: RowRuleKind {
    package static let keyword = "accept"
    package static let summary = "a move into a selected section from another section is valid only from the sections of 'from' and for the rows of 'rows'"
    package static let argumentSchema = ##"""
        {
          "type": "object", "additionalProperties": false, "required": ["section"],
          "properties": { "section": { "$ref": "#/$defs/sectionSelector" }, "from": { "$ref": "#/$defs/sectionSelector" },
                          "rows": { "$ref": "#/$defs/rowSelector" } }
        }
        """##

    package static func decode<Reader: RuleArgumentReader>(_ argument: Reader.Node, _ reader: inout Reader) -> Self? {
        guard let entries = reader.entries(argument, in: "'accept'", known: ["section", "from", "rows"]) else { return nil }
        guard let sectionEntry = entries.entry("section") else {
            reader.report(.missingKey, "'accept' needs 'section': the sections it guards", at: argument, help: nil)
            return nil
        }
        let section = reader.sectionSelector(sectionEntry.value, "'section'")
        var from: SectionSelector? = .all, rows: RowSelector? = .all
        if let entry = entries.entry("from") { from = reader.sectionSelector(entry.value, "'from'") }
        if let entry = entries.entry("rows") { rows = reader.rowSelector(entry.value, for: "'rows'") }
        guard let section, let from, let rows else { return nil }
        return Self(section: section, from: from, rows: rows)
    }

    package var argumentYAML: String {
        FlowYAML.mapping([("section", section.flowYAML), ("from", from.flowYAML), ("rows", rows.flowYAML)])
    }

    package var mentions: RuleMentions { RuleMentions(sections: [section, from], rows: [rows]) }

    package func compile() throws(PolicyError) -> any CompiledRowRuleKind {
        try rows.validate()
        return Compiled(section: section, from: from, rows: CompiledRowSelector(rows))
    }

    struct Compiled: CompiledRowRuleKind {
        let section: SectionSelector
        let from: SectionSelector
        let rows: CompiledRowSelector

        func bind(_ binder: inout RuleBinder) -> RuleEffects {
            RuleEffects(admission: Admission(guarded: binder.sections(section), from: binder.sections(from), rows: binder.query(rows)))
        }

        @_specialize(where W == WordedReason) @_specialize(where W == JSONWordedReason)
        func word<W: ReasonText>(_ c: RowCheck, into reason: inout W) -> RuleScope {
            guard let a = c.effects.admission else {
                reason = "guards no section"
                return .notApplicable
            }
            if c.t == c.s {
                reason = "the move stays within \(c.sectionName(c.s))"
                return .notApplicable
            }
            guard a.guarded[c.t] else {
                reason = "does not cover \(c.sectionName(c.t))"
                return .notApplicable
            }
            if !a.from[c.s] {
                reason = "\(c.sectionName(c.t)) does not accept rows from \(c.sectionName(c.s))"
            } else if !c.selects(a.rows, c.from) {
                reason = "\(c.sectionName(c.t)) does not accept row \(c.row)"
            } else {
                reason = "\(c.sectionName(c.t)) accepts \(c.row) from \(c.sectionName(c.s))"
            }
            return .applies
        }

        func word(_ c: BlockCheck) -> Reason {
            guard let a = c.effects.admission else { return "" }
            if !a.from[c.s] { return "\(c.sectionName(c.t)) does not accept rows from \(c.sectionName(c.s))" }
            let refused = c.moving.filter { !c.selects(a.rows, $0) }
            return "\(c.sectionName(c.t)) does not accept \(refused.count == 1 ? "row" : "rows") \(c.bound.names(refused))"
        }
    }
}
