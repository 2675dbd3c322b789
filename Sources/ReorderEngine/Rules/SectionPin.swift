/// `pin: { section | first | last, anchor? }` in `section-rules` (SPEC §2.5): the selected
/// sections cannot be picked up, and no section move may change their anchored index.
public struct SectionPinRule: Hashable, Sendable {
    /// The pinned sections.
    public var target: SectionRuleTarget
    /// The end they keep their distance to; nil: `end` for `last`, `start` otherwise.
    public var anchor: Anchor?

    /// Creates the rule.
    public init(_ target: SectionRuleTarget, anchor: Anchor? = nil) {
        self.target = target
        self.anchor = anchor
    }
}

extension SectionPinRule: SectionRuleKind {
    package static let keyword = "pin"
    package static let summary = "selected sections cannot be picked up, and no section move may change their anchored index"
    package static var argumentSchema: String {
        SectionRuleTarget.schema(extra: ##", "anchor": { "$ref": "#/$defs/anchor" }"##)
    }

    package static func decode<Reader: RuleArgumentReader>(_ argument: Reader.Node, _ reader: inout Reader) -> Self? {
        reader.sectionRuleTarget(argument, for: keyword, anchor: true).map { Self($0.target, anchor: $0.anchor) }
    }

    package var argumentYAML: String { "{ \(target.flowYAML)\(anchor.map { ", anchor: \($0.rawValue)" } ?? "") }" }
    package var meaning: SectionRuleMeaning { .hold(target, pins: true, anchor: anchor) }

    package func compile() throws(PolicyError) -> any CompiledSectionRuleKind {
        try target.validate()
        return Compiled(target: target)
    }

    struct Compiled: CompiledSectionRuleKind {
        let target: SectionRuleTarget

        // The number of sections never changes, so either anchor keeps a pinned section where it is.
        func bind(_ table: Table) -> SectionEffects {
            SectionEffects(held: target.selected(in: table), pins: true, word: "pinned")
        }

        func word(_ c: SectionCheck) -> RuleWording {
            guard c.effects.held.contains(true) else { return .notApplicable("selects no section of this table") }
            guard let first = c.shifted.first else { return .applies("no pinned section would shift") }
            var reason: WordedReason = "moving \(c.name(c.from)) to \(c.to) would shift pinned \(c.name(first)) from \(first) to \(first + c.delta)"
            if c.shifted.count > 1 { reason.append(" (and \(c.shifted.count - 1) more)") }
            return .applies(reason)
        }
    }
}
