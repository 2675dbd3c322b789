/// `keep-order: <section selector>` (SPEC §8.4, §8.5): a row move within a selected section
/// is invalid unless the row stays where it is. Moves into and out of the section are not
/// affected, nor is `canMove`, nor are section moves (SortableJS's `sort: false`).
public struct KeepOrderRule: Hashable, Sendable {
    /// The sections whose order is fixed.
    public var section: SectionSelector

    /// Creates the rule.
    public init(_ section: SectionSelector) { self.section = section }
}

extension RowRule.Kind {
    /// Rows of the selected sections keep their order; rows may still leave and enter.
    public static func keepOrder(_ section: SectionSelector) -> Self { Self(KeepOrderRule(section)) }
}

extension KeepOrderRule: RowRuleKind {
    package static let keyword = "keep-order"
    package static let summary = "a row move within a selected section is invalid unless the row stays where it is; moves into and out of it are not affected"
    package static let argumentSchema = ##"{ "$ref": "#/$defs/sectionSelector", "description": "Sections whose rows keep their order (rows may still leave and enter)." }"##

    package static func decode<Reader: RuleArgumentReader>(_ argument: Reader.Node, _ reader: inout Reader) -> Self? {
        reader.sectionSelector(argument, "'keep-order'").map(Self.init)
    }

    package var argumentYAML: String { section.flowYAML }
    package var mentions: RuleMentions { RuleMentions(sections: [section]) }

    package func compile() throws(PolicyError) -> any CompiledRowRuleKind { Compiled(section: section) }

    struct Compiled: CompiledRowRuleKind {
        let section: SectionSelector

        func bind(_ binder: inout RuleBinder) -> RuleEffects {
            RuleEffects(fixedOrder: binder.sections(section))
        }

        @_specialize(where W == WordedReason) @_specialize(where W == JSONWordedReason)
        func word<W: ReasonText>(_ c: RowCheck, into reason: inout W) -> RuleScope {
            guard let fixed = c.effects.fixedOrder, fixed[c.s] else {
                reason = "does not select \(c.sectionName(c.s))"
                return .notApplicable
            }
            if c.t != c.s {
                reason = "the move leaves \(c.sectionName(c.s)); only moves within it are fixed"
                return .notApplicable
            }
            if c.j == c.i {
                reason = "\(c.row) stays at \(c.from)"
            } else {
                reason = "moving \(c.row) to \(c.to) would change the order of \(c.sectionName(c.s)), which is fixed"
            }
            return .applies
        }

        func word(_ c: BlockCheck) -> Reason {
            "moving \(c.label) to \(c.landing) would change the order of \(c.sectionName(c.s)), which is fixed"
        }
    }
}
