/// One row-rule kind, as one unit (ARCHITECTURE.md, "How to add a rule kind"): how its
/// argument is read and written, how it is checked, what it does when bound to a table (its
/// `RuleEffects`), and how its verdicts are worded. The verdict itself — valid or not —
/// is never written here: it comes from the effects, the same values the fast path is
/// packed from, so deciding and explaining cannot disagree.
package protocol RowRuleKind: Hashable, Sendable {
    /// The keyword in policy files (`pin`, `keep-in-section`, ...).
    static var keyword: String { get }
    /// One sentence for documentation and help: what the rule means.
    static var summary: String { get }
    /// The JSON Schema (2020-12) of the argument, as a JSON value; `#/$defs/...` may name the
    /// shared definitions of ``PolicySchema`` (`sectionSelector`, `rowSelector`, `count`, ...).
    static var argumentSchema: String { get }
    /// Reads the argument of a rule item, reporting every problem through `reader`; nil after a problem.
    static func decode<Reader: RuleArgumentReader>(_ argument: Reader.Node, _ reader: inout Reader) -> Self?
    /// The argument as one line of flow YAML that reads back to an equal value.
    var argumentYAML: String { get }
    /// The selectors the rule mentions, for the analysis (which words and positions matter).
    var mentions: RuleMentions { get }
    /// What the rule means, as a value the analysis reasons about symbolically (a closed enum:
    /// a new kind of meaning makes every analysis `switch` list the place to update).
    var meaning: RuleMeaning { get }
    /// Checks a rule built in code (messages leave out the rule id) and prepares it for binding.
    func compile() throws(PolicyError) -> any CompiledRowRuleKind
}

/// A row rule prepared for binding: what it does on one table, and how it words a verdict.
package protocol CompiledRowRuleKind: Sendable {
    /// The rule's effects on `binder.table`: held rows, limits, gates, admission, order.
    func bind(_ binder: inout RuleBinder) -> RuleEffects
    /// Words the rule's verdict on one row move into `reason` and says whether the rule
    /// applies; `check.broken` says whether it is violated. (Into the caller's buffer, not
    /// returned: a returned reason was copied whole at every call on the way out, issue #26.)
    /// Plain text or JSON string content, as `W` has it: a unit words once and
    /// `@_specialize`s for ``WordedReason`` and ``JSONWordedReason`` (unspecialized, every
    /// piece of the wording is a call through `W`'s witness table).
    func word<W: ReasonText>(_ check: RowCheck, into reason: inout W) -> RuleScope
    /// Words why a block of rows may not land where proposed (only asked when it is violated).
    func word(_ check: BlockCheck) -> Reason
}

extension RowRuleKind {
    /// Reads the argument and wraps it, so the decoder can call a kind it knows only by type.
    package static func decodeKind<Reader: RuleArgumentReader>(_ argument: Reader.Node, _ reader: inout Reader) -> RowRule.Kind? {
        decode(argument, &reader).map(RowRule.Kind.init)
    }
}

/// Every row-rule kind, in the order documentation lists them. The decoder's keyword table,
/// the JSON Schema and the `rule-kind` help are derived from this list; a test checks that
/// LANGUAGE.md documents each keyword.
package enum RuleRegistry {
    package static let rowKinds: [any RowRuleKind.Type] = [
        LockRule.self,
        PinRule.self,
        ReserveRule.self,
        KeepInSectionRule.self,
        AcceptRule.self,
        CapacityRule.self,
        KeepOrderRule.self,
        KeepAmongRule.self,
    ]

    /// The kind with this keyword, if any.
    package static func rowKind(_ keyword: String) -> (any RowRuleKind.Type)? {
        rowKinds.first { $0.keyword == keyword }
    }
}

extension RowRule {
    /// A rule's meaning: one of the kinds in `RuleRegistry` (``LockRule``, ``PinRule``,
    /// ``ReserveRule``, ``KeepInSectionRule``, ``AcceptRule``, ``CapacityRule``). Build one
    /// with the static functions (`.pin(selector, anchor: nil)`); read one with ``argument``
    /// (`rule.kind.argument as? PinRule`).
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        package let unit: any RowRuleKind

        package init(_ unit: some RowRuleKind) { self.unit = unit }

        /// The keyword as written in policy files.
        public var keyword: String { type(of: unit).keyword }

        /// The rule's argument as its own type (``PinRule``, ``CapacityRule``, ...).
        public var argument: any Hashable & Sendable { unit }

        /// `keyword: argument`, as flow YAML.
        public var description: String { "\(keyword): \(unit.argumentYAML)" }

        public static func == (a: Kind, b: Kind) -> Bool { AnyHashable(a.unit) == AnyHashable(b.unit) }

        public func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(unit)) }
    }
}

/// The selectors a rule mentions: the analysis draws its table words and positions from them.
package struct RuleMentions: Sendable {
    package var sections: [SectionSelector] = []
    package var rows: [RowSelector] = []
    /// Section attributes the rule reads (`capacity`'s `{ attribute: NAME }` bounds).
    package var attributes: [String] = []

    package init(sections: [SectionSelector] = [], rows: [RowSelector] = [], attributes: [String] = []) {
        self.sections = sections
        self.rows = rows
        self.attributes = attributes
    }
}

/// Whether a rule has something to say about a move (its reason says what).
package enum RuleScope: Sendable {
    /// The rule has nothing to say about this move.
    case notApplicable
    /// The rule looked at this move: its reason says why it passes, or (when broken) why not.
    case applies
}

/// How a section rule words its verdict on one section move (row rules word into their
/// caller's ``ReasonText`` and return a ``RuleScope``). Whether it is violated is not the
/// rule's to say (it comes from the effects); the rule says whether it applies and why.
package enum RuleWording: Sendable {
    /// The rule has nothing to say about this move.
    case notApplicable(WordedReason)
    /// The rule looked at this move: why it passes, or (when broken) why not.
    case applies(WordedReason)
}

/// Reads rule arguments from a policy file without the rule units knowing YAML: the policy
/// loader implements it over its node tree, reporting problems with code, file and span.
package protocol RuleArgumentReader {
    associatedtype Node
    /// A mapping's known entries in file order (unknown keys are reported with a did-you-mean);
    /// nil, reported as a type mismatch, when `node` is not a mapping.
    mutating func entries(_ node: Node, in context: String, known: [String]) -> [RuleArgumentEntry<Node>]?
    /// A plain decimal integer, at least `minimum`.
    mutating func integer(_ node: Node, _ what: String, minimum: Int?) -> Int?
    /// A `capacity` bound: a plain integer >= 0, or `{ attribute: NAME }` (SPEC §8.3).
    mutating func capacityBound(_ node: Node, _ what: String) -> CapacityBound?
    /// A string or a list of strings (a selector's `id`, `kind`, `tag`).
    mutating func strings(_ node: Node, _ what: String) -> [String]?
    /// A plain integer or a list of plain integers (a selector's `index`).
    mutating func integers(_ node: Node, _ what: String) -> [Int]?
    /// A section selector (SPEC §2.1, §8.2).
    mutating func sectionSelector(_ node: Node, _ what: String) -> SectionSelector?
    /// A row selector (SPEC §2.1, §8.1).
    mutating func rowSelector(_ node: Node, for context: String) -> RowSelector?
    /// The text of a scalar node, reporting nothing (nil for a mapping or a list).
    func scalarWord(_ node: Node) -> String?
    /// A row selector that may carry `anchor` (pin's argument).
    mutating func pinSelector(_ node: Node, for context: String) -> (RowSelector, Anchor?)?
    /// A section rule's argument: exactly one of `section`, `first`, `last`, and `anchor`
    /// when `anchor` is true (section `pin`).
    mutating func sectionRuleTarget(_ node: Node, for keyword: String, anchor: Bool) -> (target: SectionRuleTarget, anchor: Anchor?)?
    /// Reports a problem at `node`.
    mutating func report(_ problem: RuleArgumentProblem, _ message: String, at node: Node, help: String?)
}

/// One entry of an argument mapping.
package struct RuleArgumentEntry<Node> {
    package let name: String
    package let key: Node
    package let value: Node

    package init(name: String, key: Node, value: Node) {
        self.name = name
        self.key = key
        self.value = value
    }
}

extension Array {
    /// The entry named `name`, if present.
    package func entry<Node>(_ name: String) -> Element? where Element == RuleArgumentEntry<Node> {
        first { $0.name == name }
    }
}

/// The problems a rule unit reports itself (type mismatches and unknown keys come from the reader).
package enum RuleArgumentProblem: Sendable {
    case missingKey
    case selectorConflict
    case invalidValue
}
