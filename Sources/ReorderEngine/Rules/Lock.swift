/// `lock: <row selector>` (SPEC §2.2): selected rows cannot be picked up; other rows may
/// still be dropped around them and shift them.
public struct LockRule: Hashable, Sendable {
    /// The locked rows.
    public var rows: RowSelector

    /// Creates the rule.
    public init(_ rows: RowSelector) { self.rows = rows }
}

extension RowRule.Kind {
    /// Selected rows cannot be picked up; other rows may still shift them.
    public static func lock(_ rows: RowSelector) -> Self { Self(LockRule(rows)) }
}

extension LockRule: RowRuleKind {
    package static let keyword = "lock"
    package static let summary = "selected rows cannot be picked up; other rows may still be dropped around them and shift them"
    package static let argumentSchema = ##"{ "$ref": "#/$defs/rowSelector", "description": "Rows that cannot be picked up (other rows may still shift them)." }"##

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
            RuleEffects(held: binder.held(rows, anchor: nil, pins: false, word: "locked"))
        }

        // A lock only stops rows from being picked up (the engine words that, from `held`):
        // no move of a row it lets go of can break it.
        @_specialize(where W == WordedReason) @_specialize(where W == JSONWordedReason)
        func word<W: ReasonText>(_ c: RowCheck, into reason: inout W) -> RuleScope {
            reason = "does not select \(c.row); locked rows may still shift"
            return .notApplicable
        }

        func word(_ c: BlockCheck) -> Reason { "" }
    }
}
