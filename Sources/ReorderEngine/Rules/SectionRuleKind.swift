/// One section-rule kind, as one unit, the way row rules are (``RowRuleKind``): how its
/// argument is read and written, its JSON Schema, what it means for the analysis, what it
/// does when bound to a table (its ``SectionEffects``), and how its verdicts are worded.
/// Whether a move breaks it is never decided here: that comes from the effects, which the
/// engine's section decisions read, so deciding and explaining cannot disagree.
package protocol SectionRuleKind: Hashable, Sendable {
    /// The keyword in policy files (`lock`, `pin`).
    static var keyword: String { get }
    /// One sentence for documentation and help: what the rule means.
    static var summary: String { get }
    /// The JSON Schema (2020-12) of the argument; `#/$defs/...` may name the shared
    /// definitions of `PolicySchema` (`sectionSelector`, `count`, `anchor`, ...).
    static var argumentSchema: String { get }
    /// Reads the argument of a section-rule item, reporting every problem through `reader`.
    static func decode<Reader: RuleArgumentReader>(_ argument: Reader.Node, _ reader: inout Reader) -> Self?
    /// The argument as one line of flow YAML that reads back to an equal value.
    var argumentYAML: String { get }
    /// What the rule means, for the analysis (a closed enum, as for row rules).
    var meaning: SectionRuleMeaning { get }
    /// Checks a rule built in code (messages leave out the rule id) and prepares it for binding.
    func compile() throws(PolicyError) -> any CompiledSectionRuleKind
}

/// A section rule prepared for binding.
package protocol CompiledSectionRuleKind: Sendable {
    /// The rule's effects on one table.
    func bind(_ table: Table) -> SectionEffects
    /// Words the rule's verdict on moving the (movable) section `check.from` to `check.to`.
    func word(_ check: SectionCheck) -> RuleWording
}

/// What one section rule does on one table.
package struct SectionEffects: Sendable {
    /// Per section, whether the rule holds it: it cannot be picked up.
    package var held: [Bool]
    /// Held sections also keep their index: no move may shift one.
    package var pins: Bool
    /// How a held section is described: "locked", "pinned".
    package var word: String

    package init(held: [Bool], pins: Bool, word: String) {
        self.held = held
        self.pins = pins
        self.word = word
    }
}

/// One section move as a rule words it; `broken` comes from the rule's effects.
package struct SectionCheck {
    /// The section moved and where it was proposed to go.
    package let from: Int, to: Int
    /// The rule's effects on this table.
    package let effects: SectionEffects
    /// Whether the move breaks the rule.
    package let broken: Bool
    /// The held sections the move would shift (ascending) and by how much each moves.
    package let shifted: [Int]
    package let delta: Int
    private let table: Table

    init(from: Int, to: Int, effects: SectionEffects, table: Table) {
        self.from = from
        self.to = to
        self.effects = effects
        self.table = table
        let (lo, hi, delta) = to < from ? (to, from - 1, 1) : (from + 1, to, -1)
        shifted = from == to ? [] : (lo...hi).filter { effects.held[$0] }
        self.delta = delta
        broken = effects.pins && !shifted.isEmpty
    }

    /// `section "id"` or `section N`, for reasons.
    package func name(_ u: Int) -> Reason.Part { .section(u, id: table.sections[u].id) }
}

/// A section rule's meaning in the terms of SPEC §2.5, for the analysis and `compare`:
/// which sections it holds, and whether it pins them (no move may change their anchored
/// index). The analysis switches over this closed enum.
package enum SectionRuleMeaning: Hashable, Sendable {
    /// The target's sections cannot be picked up; with `pins`, no move may shift them.
    case hold(SectionRuleTarget, pins: Bool, anchor: Anchor?)
}

extension SectionRuleMeaning {
    /// The sections the rule selects.
    package var target: SectionRuleTarget {
        switch self {
        case .hold(let t, _, _): t
        }
    }

    /// Whether the rule pins the sections it selects.
    package var pins: Bool {
        switch self {
        case .hold(_, let pins, _): pins
        }
    }
}

/// Every section-rule kind, in the order documentation lists them. The decoder's keyword
/// table and the JSON Schema are derived from this list; a test checks that LANGUAGE.md
/// documents each keyword.
package enum SectionRuleRegistry {
    package static let kinds: [any SectionRuleKind.Type] = [
        SectionLockRule.self,
        SectionPinRule.self,
    ]

    /// The kind with this keyword, if any.
    package static func kind(_ keyword: String) -> (any SectionRuleKind.Type)? {
        kinds.first { $0.keyword == keyword }
    }
}

extension SectionRuleKind {
    /// Reads the argument and wraps it, so the decoder can call a kind it knows only by type.
    package static func decodeKind<Reader: RuleArgumentReader>(_ argument: Reader.Node, _ reader: inout Reader) -> SectionRule.Kind? {
        decode(argument, &reader).map(SectionRule.Kind.init)
    }
}

extension SectionRule {
    /// A section rule's meaning: one of the kinds in `SectionRuleRegistry` (``SectionLockRule``,
    /// ``SectionPinRule``). Build one with the static functions (`.pin(.first(1), anchor: nil)`);
    /// read one with ``argument`` (`rule.kind.argument as? SectionPinRule`).
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        package let unit: any SectionRuleKind

        package init(_ unit: some SectionRuleKind) { self.unit = unit }

        /// The keyword as written in policy files.
        public var keyword: String { type(of: unit).keyword }

        /// The rule's argument as its own type (``SectionLockRule``, ``SectionPinRule``).
        public var argument: any Hashable & Sendable { unit }

        /// `keyword: argument`, as flow YAML.
        public var description: String { "\(keyword): \(unit.argumentYAML)" }

        public static func == (a: Kind, b: Kind) -> Bool { AnyHashable(a.unit) == AnyHashable(b.unit) }

        public func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(unit)) }
    }
}

// MARK: - What section-rule kinds share: which sections they select

extension SectionRuleTarget {
    /// The target as the keys of a flow mapping, without braces (`section: [0]`, `first: 2`).
    package var flowYAML: String {
        switch self {
        case .sections(let s): "section: \(s.flowYAML)"
        case .first(let n): "first: \(n)"
        case .last(let n): "last: \(n)"
        }
    }

    /// Checks a target built in code.
    package func validate() throws(PolicyError) {
        switch self {
        case .first(let n), .last(let n):
            guard n >= 1 else { throw PolicyError("counts must be at least 1") }
        case .sections: break
        }
    }

    /// Whether the target selects the section at `site` (its data, its index among `count`).
    package func selects(_ site: SectionSite) -> Bool {
        switch self {
        case .sections(let selector): site.selected(by: selector)
        case .first(let n): site.index < n
        case .last(let n): site.index >= site.count - n
        }
    }

    /// What a section move does to the sections the target selects (``SectionMoveEffect``).
    package var moveEffect: SectionMoveEffect {
        guard case .sections(let selector) = self else { return .stays }
        var reads = SectionReads()
        reads.add(selector)
        guard reads.data else { return .stays }
        return reads.indices.isEmpty ? .moves : .changes(indices: reads.indices)
    }

    /// Per section of `table`, whether the target selects it.
    package func selected(in table: Table) -> [Bool] {
        let count = table.sections.count
        switch self {
        case .sections(let selector): return selector.selected(in: table)
        case .first(let n): return (0..<count).map { $0 < n }
        case .last(let n): return (0..<count).map { $0 >= count - n }
        }
    }

    /// The JSON Schema of a target's keys, for a kind's `argumentSchema` (`extra`: more properties).
    package static func schema(extra: String = "") -> String {
        #"""
        { "type": "object", "additionalProperties": false, "oneOf": [ { "required": ["section"] }, { "required": ["first"] }, { "required": ["last"] } ], "properties": { "section": { "$ref": "#/$defs/sectionSelector" }, "first": { "$ref": "#/$defs/count" }, "last": { "$ref": "#/$defs/count" }\#(extra) } }
        """#
    }
}

extension SectionRule.Kind {
    /// Selected sections cannot be moved.
    public static func lock(_ target: SectionRuleTarget) -> Self { Self(SectionLockRule(target)) }
    /// Selected sections cannot be moved, and no move may change their anchored index.
    public static func pin(_ target: SectionRuleTarget, anchor: Anchor?) -> Self { Self(SectionPinRule(target, anchor: anchor)) }

    /// The rule's meaning, for the analysis.
    package var meaning: SectionRuleMeaning { unit.meaning }
}

/// What moving one section does to the sections a section rule's target selects. A section
/// move changes no section's data and no section count, only the indices of the sections
/// between its two places.
package enum SectionMoveEffect: Sendable {
    /// The target reads indices alone (`first`, `last`, `index`), or nothing: the same
    /// indices stay selected.
    case stays
    /// The target reads a section's data alone (id, kind, tags): a section keeps its
    /// selection wherever it goes.
    case moves
    /// The target reads both. Its selection is a function of a section's data and of whether
    /// its index is each of the listed `indices` (negative: from the end), so a section that
    /// is at none of them before and after keeps its selection: only those now or before at
    /// a listed index are evaluated again.
    case changes(indices: [Int])

    /// Whether the same indices stay selected.
    package var stays: Bool {
        if case .stays = self { true } else { false }
    }
}

/// Whether a section selector compares a section's index, its data, or both.
private struct SectionReads: SectionWordSink {
    var indices: [Int] = [], data = false

    mutating func add(_ selector: SectionSelector) {
        guard case .some(let references) = selector else { return }
        for reference in references {
            switch reference {
            case .index(let i): indices.append(i)
            case .id: data = true
            case .matching(let filter): filter.words(into: &self)
            }
        }
    }

    mutating func sectionWords(_ attribute: SectionAttribute, _ list: [String]) { data = true }
    mutating func sectionIndices(_ list: [Int]) { indices += list }
    mutating func sectionSelector(_ selector: SectionSelector) { add(selector) }
}
