import ReorderEngine

/// `check --format json`: one document (SPEC §5.1), `{"policy", "results": [...], "summary"}`.
struct CheckJSONOutput: CheckOutput {
    static let name = "json"
    static let help: String? = nil
    static let singleDocument: CheckRunner.Format.SingleDocument? = .json

    init(style: TerminalStyle) {}

    func inputFailure(policy: String?, errors: [Diagnostic]) -> String? { DecisionJSON.inputFailure(policy: policy, errors: errors, lines: false) }

    private var prefixes = DecisionJSON.PrefixCache()

    func open(policy: String, table: Table, into w: inout JSONWriter) {
        DecisionJSON.open(policy: policy, into: &w)
    }

    mutating func result(_ decision: Decision, index: Int, into w: inout JSONWriter) {
        DecisionJSON.separator(index, into: &w)
        DecisionJSON.result(decision, cache: &prefixes, into: &w)
    }

    static var writesOutlines: Bool { true }

    mutating func result(_ outline: DecisionOutline, bound: BoundPolicy, at address: UnsafePointer<BoundPolicy>, index: Int, into w: inout JSONWriter) {
        DecisionJSON.separator(index, into: &w)
        DecisionJSON.result(outline, bound: bound, at: address, cache: &prefixes, into: &w)
    }

    func result(_ block: BlockResult, index: Int, into w: inout JSONWriter) {
        DecisionJSON.separator(index, into: &w)
        DecisionJSON.blockResult(block, into: &w)
    }

    func invalid(given: (inout JSONWriter) -> Void, label: String, error: String, index: Int, into w: inout JSONWriter) {
        DecisionJSON.separator(index, into: &w)
        DecisionJSON.invalid(given: given, error: error, into: &w)
    }

    func close(policy: String, summary: DecisionJSON.Summary, results: Int, errors: [Diagnostic], into w: inout JSONWriter) {
        DecisionJSON.close(summary, empty: results == 0, errors: errors, into: &w)
    }
}
