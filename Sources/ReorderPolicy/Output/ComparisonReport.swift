import ReorderEngine

/// One pair of policy files compared by `compare` (SPEC §11), or a policy that is new or gone.
public struct ComparedPolicy: Sendable {
    /// What became of the policy.
    public enum Status: Sendable {
        /// Both versions exist and were compared.
        case compared(PolicyComparison)
        /// Only the new version exists.
        case added
        /// Only the old version exists.
        case removed
    }

    /// The old file as shown (`REV:path` with `--base`), nil when added.
    public var old: String?
    /// The new file, nil when removed.
    public var new: String?
    /// The two compiled policies (for drawing the changes), when compared.
    public var policies: (old: CompiledPolicy, new: CompiledPolicy)?
    /// The answer.
    public var status: Status

    /// Creates an entry.
    public init(old: String?, new: String?, policies: (old: CompiledPolicy, new: CompiledPolicy)?, status: Status) {
        self.old = old
        self.new = new
        self.policies = policies
        self.status = status
    }

    /// True when both exist and decide alike on every table.
    public var equivalent: Bool {
        if case .compared(let c) = status { return c.verdict == .equivalent }
        return false
    }

    /// True when no answer was reached (the work budget ran out).
    public var undecided: Bool {
        if case .compared(let c) = status { return c.verdict == .undecided }
        return false
    }

    var changes: [PolicyComparison.Change] {
        if case .compared(let c) = status { return c.changes }
        return []
    }

    /// The file shown for the pair: the new one, else the old one.
    public var label: String { new ?? old ?? "" }
}

/// What `compare` reports: the pairs compared, and whether they came as a list (`--base`).
/// Its output formats are one file each in `Output/Compare/` and one line in ``formats``:
/// text, JSON (SPEC §11), Markdown (a pull-request comment) and GitHub workflow annotations.
public struct ComparisonReport: FormattedReport, Sendable {
    /// The pairs, in the order compared.
    public var entries: [ComparedPolicy]
    /// True with `--base`: the JSON is `{ "comparisons": [...] }`, not one pair's object.
    public var list: Bool

    /// Creates a report.
    public init(entries: [ComparedPolicy], list: Bool) {
        self.entries = entries
        self.list = list
    }

    public static let formats: [any ReportFormat<ComparisonReport>] = [
        CompareTextFormat(), CompareJSONFormat(), CompareMarkdownFormat(), CompareGitHubFormat(),
    ]

    /// 0 all equivalent, 1 some differ (or were added or removed), 2 when one was undecided.
    public static func exitStatus(_ entries: [ComparedPolicy]) -> Int32 {
        if entries.contains(where: \.undecided) { return 2 }
        return entries.allSatisfy(\.equivalent) ? 0 : 1
    }

    /// The JSON document when an input failed (a policy that does not load or compile, an
    /// unreadable file, a bad revision): the pair as given, no changes, and the located
    /// `"errors"` — never an empty standard output.
    public static func inputFailure(old: String?, new: String?, errors: [Diagnostic]) -> String {
        var w = JSONWriter()
        w.raw("{\"old\": ")
        DecisionJSON.optionalString(old, into: &w)
        w.raw(", \"new\": ")
        DecisionJSON.optionalString(new, into: &w)
        w.raw(", \"status\": \"error\", \"equivalent\": false, \"changes\": [], \"errors\": [")
        for (n, d) in errors.enumerated() {
            if n > 0 { w.raw(", ") }
            DiagnosticRenderer.diagnosticJSON(d, into: &w)
        }
        w.raw("]}\n")
        return w.text
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
