import SpannedYAML
/// The decision a policy test expects; `invalid` is allowed for out-of-range moves.
public enum ExpectedDecision: String, Sendable, Hashable, CaseIterable {
    case allowed, retargeted, rejected, denied, invalid
}

/// One item of a policy's `tests` (SPEC §6).
public struct PolicyTest: Sendable, Hashable {
    /// Where the test's table comes from.
    public enum TableSource: Sendable, Hashable {
        /// Written inline.
        case inline(Table)
        /// A path relative to the policy file, with the location of the path in the policy.
        case file(String, Span)
    }

    /// The test's name.
    public var name: String
    /// Where the test item starts.
    public var span: Span
    /// The table to run on.
    public var table: TableSource
    /// The move, not yet checked against the table.
    public var move: Move
    /// The expected decision.
    public var decision: ExpectedDecision
    /// The expected target, if given.
    public var target: Destination?
    /// Rule ids that must all be among the violations.
    public var rules: [String]
}
