/// `lock: { section | first | last }` in `section-rules` (SPEC §2.5): the selected sections
/// cannot be picked up; other section moves may still shift them.
public struct SectionLockRule: Hashable, Sendable {
    /// The locked sections.
    public var target: SectionRuleTarget

    /// Creates the rule.
    public init(_ target: SectionRuleTarget) { self.target = target }
}

extension SectionLockRule: SectionRuleKind {
    package static let keyword = "lock"
    package static let summary = "selected sections cannot be picked up; other section moves may still shift them"
    package static var argumentSchema: String { SectionRuleTarget.schema() }

    package static func decode<Reader: RuleArgumentReader>(_ argument: Reader.Node, _ reader: inout Reader) -> Self? {
        reader.sectionRuleTarget(argument, for: keyword, anchor: false).map { Self($0.target) }
    }

    package var argumentYAML: String { "{ \(target.flowYAML) }" }
    package var meaning: SectionRuleMeaning { .hold(target, pins: false, anchor: nil) }

    package func compile() throws(PolicyError) -> any CompiledSectionRuleKind {
        try target.validate()
        return Compiled(target: target)
    }

    struct Compiled: CompiledSectionRuleKind {
        let target: SectionRuleTarget

        func bind(_ table: Table) -> SectionEffects {
            SectionEffects(held: target.selected(in: table), pins: false, word: "locked")
        }

        // Only asked for a section that can be picked up, which no lock selects.
        func word(_ c: SectionCheck) -> RuleWording {
            .notApplicable("does not select \(c.name(c.from)); locked sections may still shift")
        }
    }
}
