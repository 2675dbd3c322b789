/// The four outcomes of a proposal (SPEC §2.4).
public enum DecisionKind: String, Hashable, Sendable, CaseIterable {
    /// The proposal is valid.
    case allowed
    /// The proposal is invalid; the target is another valid destination.
    case retargeted
    /// The proposal is invalid; the target is the source.
    case rejected
    /// The row or section cannot be picked up.
    case denied
}

/// Where a move ends up: a row position or a section index.
public enum Destination: Hashable, Sendable, CustomStringConvertible {
    /// A row position.
    case row(Position)
    /// A section index.
    case section(Int)

    public var description: String {
        switch self {
        case .row(let p): p.description
        case .section(let i): "\(i)"
        }
    }
}

/// A rule's identity as violations and traces show it: id, kind, message and location.
/// Shared by every violation of the rule, so a decision copies one reference, not four strings.
public final class RuleReference: Hashable, Sendable {
    /// The rule's id.
    public let id: String
    /// The rule's kind keyword (`pin`, `accept`, ...).
    public let kind: String
    /// The rule's message, if it has one.
    public let message: String?
    /// Where the rule is written.
    public let location: SourceLocation?
    /// The rule's position among all rules of its policy (row rules, then section rules).
    public let ordinal: Int

    /// Creates a reference.
    public init(id: String, kind: String, message: String?, location: SourceLocation?, ordinal: Int = -1) {
        self.id = id
        self.kind = kind
        self.message = message
        self.location = location
        self.ordinal = ordinal
    }

    public static func == (a: RuleReference, b: RuleReference) -> Bool {
        a.id == b.id && a.kind == b.kind && a.message == b.message && a.location == b.location
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(kind)
    }
}

/// One rule broken by a proposal, with the reason in plain words.
public struct Violation: Hashable, Sendable {
    /// The rule.
    public var ruleReference: RuleReference
    /// Why, naming rows by id, as parts.
    public var details: Reason

    /// The rule's id.
    public var rule: String { ruleReference.id }
    /// The rule's kind keyword (`pin`, `accept`, ...).
    public var kind: String { ruleReference.kind }
    /// The rule's message, if it has one.
    public var message: String? { ruleReference.message }
    /// Where the rule is written.
    public var location: SourceLocation? { ruleReference.location }
    /// Why, naming rows by id: `moving "Blue" to 0.0 would shift pinned row "Red" from 0.0 to 0.1`.
    public var reason: String { details.description }

    /// Creates a violation of a shared rule reference.
    public init(_ rule: RuleReference, reason: Reason) {
        ruleReference = rule
        details = reason
    }

    /// Creates a violation.
    public init(rule: String, kind: String, message: String?, location: SourceLocation?, reason: Reason) {
        self.init(RuleReference(id: rule, kind: kind, message: message, location: location), reason: reason)
    }
}

/// The answer to one proposal: outcome, where the item ends up, and which rules the proposal broke.
public struct Decision: Hashable, Sendable {
    /// The proposal.
    public var move: Move
    /// The outcome.
    public var kind: DecisionKind
    /// Where the item ends up: the proposal, the retargeted slot, or the source.
    public var target: Destination
    /// For `denied`, the rules that make the item immovable; otherwise the rules the proposal breaks, in file order.
    ///
    /// Built on each read; ``violationCount`` and ``violation(at:)`` read one without building
    /// the array.
    public var violations: [Violation] {
        get {
            guard hasFirst else { return [] }
            return moreViolations.isEmpty ? [firstViolation] : [firstViolation] + moreViolations
        }
        set {
            if let first = newValue.first { firstViolation = first } else if hasFirst { firstViolation = .placeholder }
            hasFirst = !newValue.isEmpty
            moreViolations = newValue.count > 1 ? Array(newValue.dropFirst()) : []
        }
    }

    // A refused move almost always breaks one rule: that one is kept inline, so deciding and
    // destroying it allocates no array (issue #26: the array was a twelfth of a refused-heavy
    // batch). Not as an optional: Swift 6.3 built a decision holding a `Violation?` twice and
    // copied one into the other (a retain and a release of every reference in it, per
    // decision); with a placeholder in its place when there is none it builds it once.
    // `hasFirst` says whether it is a violation. The placeholder is the deciding policy's own
    // (``CompiledPolicy``'s, one per thread where threads decide at once, like the rules'
    // references), so that no reference count is shared by threads; decisions made by the
    // public initializer share one. Placeholders compare equal, so equal lists compare equal.
    @usableFromInline var hasFirst: Bool
    @usableFromInline var firstViolation: Violation
    @usableFromInline var moreViolations: [Violation]

    /// How many rules the proposal breaks (or hold the item, for `denied`).
    @inlinable public var violationCount: Int {
        hasFirst ? 1 + moreViolations.count : 0
    }

    /// The `n`th violation, `0 ..< violationCount`, without building ``violations``.
    @inlinable public func violation(at n: Int) -> Violation {
        precondition(n < violationCount, "violation \(n) of \(violationCount)")
        return n == 0 ? firstViolation : moreViolations[n - 1]
    }

    /// Creates a decision.
    public init(move: Move, kind: DecisionKind, target: Destination, violations: [Violation]) {
        self.init(move: move, kind: kind, target: target, violations: violations, placeholder: .placeholder)
    }

    /// Creates a decision whose placeholder for no first violation is `placeholder`.
    init(move: Move, kind: DecisionKind, target: Destination, violations: [Violation], placeholder: Violation) {
        self.move = move
        self.kind = kind
        self.target = target
        hasFirst = !violations.isEmpty
        firstViolation = violations.first ?? placeholder
        moreViolations = violations.count > 1 ? Array(violations.dropFirst()) : []
    }

    /// Creates a decision from its first violation, if any, and the rest (empty when there is
    /// no first one).
    @inline(__always)
    init(move: Move, kind: DecisionKind, target: Destination, first: Violation?, more: [Violation], placeholder: Violation) {
        assert(first != nil || more.isEmpty, "violations after no first one")
        self.move = move
        self.kind = kind
        self.target = target
        hasFirst = first != nil
        firstViolation = first ?? placeholder
        moreViolations = more
    }
}

extension Violation {
    /// What a decision keeps in place of a first violation when there is none (see
    /// ``Decision``): rule and reason empty. Each compiled policy has its own.
    static func makePlaceholder() -> Violation {
        Violation(RuleReference(id: "", kind: "", message: nil, location: nil), reason: "")
    }

    /// The placeholder of decisions made by ``Decision/init(move:kind:target:violations:)``.
    @usableFromInline static let placeholder = makePlaceholder()
}

/// One rule's verdict on a proposal.
public enum RuleVerdict: String, Hashable, Sendable {
    /// The rule applies and holds.
    case pass
    /// The rule applies and is broken.
    case violated
    /// The rule has nothing to say about this move.
    case notApplicable = "not-applicable"
}

/// One line of an explanation: a rule and what it says about the move.
public struct TraceEntry: Hashable, Sendable {
    /// The rule's id.
    public var rule: String
    /// The rule's kind keyword.
    public var kind: String
    /// The rule's message.
    public var message: String?
    /// Where the rule is written.
    public var location: SourceLocation?
    /// Whether the rule concerns this move at all.
    public var applies: Bool
    /// The verdict.
    public var verdict: RuleVerdict
    /// What the rule found, as parts.
    public var details: Reason

    /// What the rule found, in plain words.
    public var reason: String { details.description }

    /// Creates an entry.
    public init(rule: String, kind: String, message: String?, location: SourceLocation?, applies: Bool, verdict: RuleVerdict, reason: Reason) {
        self.rule = rule
        self.kind = kind
        self.message = message
        self.location = location
        self.applies = applies
        self.verdict = verdict
        self.details = reason
    }
}

/// The valid destination rows in one section, as inclusive ranges.
public struct ValidRows: Hashable, Sendable {
    /// The section.
    public var section: Int
    /// Inclusive ranges of destination row indices.
    public var rows: [ClosedRange<Int>]

    /// Creates an entry.
    public init(section: Int, rows: [ClosedRange<Int>]) {
        self.section = section
        self.rows = rows
    }
}

/// Everything `explain` shows: the decision, every rule's verdict, and every valid destination.
public struct Explanation: Hashable, Sendable {
    /// The decision.
    public var decision: Decision
    /// Every rule in file order with its verdict.
    public var trace: [TraceEntry]
    /// Valid destinations for a row move (empty for a denied row).
    public var validRows: [ValidRows]
    /// Valid destination indices for a section move (empty for a denied section).
    public var validSections: [ClosedRange<Int>]

    /// Creates an explanation.
    public init(decision: Decision, trace: [TraceEntry], validRows: [ValidRows], validSections: [ClosedRange<Int>]) {
        self.decision = decision
        self.trace = trace
        self.validRows = validRows
        self.validSections = validSections
    }
}
