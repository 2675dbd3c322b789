/// Where something is in a policy file: 1-based line and column, and, when the decoder knew
/// it, where the item ends, so a renderer frames the item whole without finding its extent in
/// the text again.
public struct SourceLocation: Hashable, Sendable, Comparable {
    /// The file as the user named it.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int
    /// The line of the item's end (nil when only its start is known).
    public var endLine: Int?
    /// The column just past the item's last character, on ``endLine``.
    public var endColumn: Int?

    /// Creates a location.
    public init(file: String, line: Int, column: Int, endLine: Int? = nil, endColumn: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.endLine = endLine
        self.endColumn = endColumn
    }

    /// Two locations are the same place when they start at the same place: the end is what
    /// the decoder happened to know (a location read back from JSON has none).
    public static func == (a: Self, b: Self) -> Bool {
        a.file == b.file && a.line == b.line && a.column == b.column
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(line)
        hasher.combine(column)
    }

    public static func < (a: Self, b: Self) -> Bool {
        (a.file, a.line, a.column) < (b.file, b.line, b.column)
    }
}

/// Which end of its section a pinned row keeps its distance to.
public enum Anchor: String, Hashable, Sendable {
    /// The row keeps its index.
    case start
    /// The row keeps its distance from the end of its section, `n - 1 - index`.
    case end
}

/// What `target(from:proposed:)` does with an invalid proposal.
public enum RetargetMode: String, Hashable, Sendable, CaseIterable {
    /// Move to the nearest valid destination in reading order (SPEC §2.3).
    case nearest
    /// Stay at the source.
    case cancel
    /// Stay in the source section, at the proposed row (SPEC §13.1): the valid row of the own
    /// section nearest to `min(proposed row, n_s - 1)`. Section moves retarget as `nearest`.
    case sourceSection = "source-section"
}

/// What every rule carries besides its meaning: id, message and where it was written.
public struct RuleMetadata: Hashable, Sendable {
    /// The rule's id, unique in its policy (`rule-N` / `section-rule-N` by default).
    public var id: String
    /// The author's explanation, shown with violations.
    public var message: String?
    /// Where the rule's item starts in its file, when it came from one.
    public var location: SourceLocation?

    /// Creates metadata.
    public init(id: String, message: String? = nil, location: SourceLocation? = nil) {
        self.id = id
        self.message = message
        self.location = location
    }
}

/// A rule about moving rows (SPEC §2.2). Its meaning is one of the rule kinds listed in
/// `RuleRegistry` (see ``RowRule/Kind``).
public struct RowRule: Hashable, Sendable {
    /// Id, message and location.
    public var metadata: RuleMetadata
    /// The meaning.
    public var kind: Kind

    /// Creates a rule.
    public init(_ kind: Kind, metadata: RuleMetadata) {
        self.kind = kind
        self.metadata = metadata
    }

    /// The rule kind's keyword as written in policy files.
    public var keyword: String { kind.keyword }
}

/// Which sections a section rule selects: a selector, or the first/last N.
public enum SectionRuleTarget: Hashable, Sendable {
    /// Sections selected by a section selector.
    case sections(SectionSelector)
    /// The first N sections.
    case first(Int)
    /// The last N sections.
    case last(Int)
}

/// A rule about moving whole sections (SPEC §2.5). Its meaning is one of the kinds listed in
/// `SectionRuleRegistry` (see ``SectionRule/Kind``).
public struct SectionRule: Hashable, Sendable {
    /// Id, message and location.
    public var metadata: RuleMetadata
    /// The meaning.
    public var kind: Kind

    /// Creates a rule.
    public init(_ kind: Kind, metadata: RuleMetadata) {
        self.kind = kind
        self.metadata = metadata
    }

    /// The rule kind's keyword as written in policy files.
    public var keyword: String { kind.keyword }

    /// The sections the rule selects.
    public var target: SectionRuleTarget { kind.meaning.target }

    /// True when no move may change the selected sections' anchored index (`pin`).
    public var pins: Bool { kind.meaning.pins }
}

/// A reorder policy: what the YAML file says, as values. Build one in code or load one from a file.
public struct Policy: Hashable, Sendable {
    /// The policy's name.
    public var name: String
    /// What the policy is for.
    public var description: String?
    /// What happens to invalid proposals.
    public var retarget: RetargetMode
    /// Row rules in file order.
    public var rules: [RowRule]
    /// Section rules in file order.
    public var sectionRules: [SectionRule]

    /// Creates a policy.
    public init(
        name: String, description: String? = nil, retarget: RetargetMode = .nearest,
        rules: [RowRule] = [], sectionRules: [SectionRule] = []
    ) {
        self.name = name
        self.description = description
        self.retarget = retarget
        self.rules = rules
        self.sectionRules = sectionRules
    }
}
