/// `keep-in-section: <row selector>` (SPEC §2.2): a selected moving row may only be dropped
/// in its own section.
public struct KeepInSectionRule: Hashable, Sendable {
    /// The rows that stay in their section.
    public var rows: RowSelector

    /// Creates the rule.
    public init(_ rows: RowSelector) { self.rows = rows }
}

extension RowRule.Kind {
    /// Selected rows may only be dropped in their own section.
    public static func keepInSection(_ rows: RowSelector) -> Self { Self(KeepInSectionRule(rows)) }
}

extension KeepInSectionRule: RowRuleKind {
    package static let keyword = "keep-in-section"
    package static let summary = "a selected moving row may only be dropped in its own section"
    package static let argumentSchema = ##"{ "$ref": "#/$defs/rowSelector", "description": "Rows that may only be dropped in their own section." }"##

    package static func decode<Reader: RuleArgumentReader>(_ argument: Reader.Node, _ reader: inout Reader) -> Self? {
        reader.rowSelector(argument, for: keyword).map(Self.init)
    }

    package var argumentYAML: String { rows.flowYAML }
    package var mentions: RuleMentions { RuleMentions(rows: [rows]) }

    package func compile() throws(PolicyError) -> any CompiledRowRuleKind {
        try rows.validate()
        return Compiled(rows: CompiledRowSelector(rows))
    }

    struct Compiled: CompiledRowRuleKind {
        let rows: CompiledRowSelector

        func bind(_ binder: inout RuleBinder) -> RuleEffects {
            RuleEffects(staying: binder.query(rows))
        }

        @_specialize(where W == WordedReason) @_specialize(where W == JSONWordedReason)
        func word<W: ReasonText>(_ c: RowCheck, into reason: inout W) -> RuleScope {
            guard let q = c.effects.staying, c.selects(q, c.from) else {
                reason = "does not select \(c.row)"
                return .notApplicable
            }
            if c.t == c.s {
                reason = "\(c.row) stays in \(c.sectionName(c.s))"
            } else {
                reason = "moving \(c.row) to \(c.to) would take it out of its \(c.sectionName(c.s))"
            }
            return .applies
        }

        func word(_ c: BlockCheck) -> Reason {
            guard let q = c.effects.staying else { return "" }
            let kept = c.moving.filter { c.selects(q, $0) }
            return "moving \(c.bound.names(kept)) to \(c.landing) would take \(kept.count == 1 ? "it" : "them") out of \(c.sectionName(c.s))"
        }
    }
}
