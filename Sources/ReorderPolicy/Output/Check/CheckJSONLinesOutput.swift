import ReorderEngine

/// `check --format jsonl`: one result object per line, in the shape of an item of `results`,
/// then one line `{"policy": …, "summary": {…}}` (with `"errors"` when the moves file failed
/// part-way).
struct CheckJSONLinesOutput: CheckOutput {
    static let name = "jsonl"
    static let help: String? = "a result per line, then a summary line"
    static let singleDocument: CheckRunner.Format.SingleDocument? = nil

    init(style: TerminalStyle) {}

    func inputFailure(policy: String?, errors: [Diagnostic]) -> String? { DecisionJSON.inputFailure(policy: policy, errors: errors, lines: true) }

    private var prefixes = DecisionJSON.PrefixCache()

    func open(policy: String, table: Table, into w: inout JSONWriter) {}

    mutating func result(_ decision: Decision, index: Int, into w: inout JSONWriter) {
        DecisionJSON.result(decision, cache: &prefixes, into: &w)
        w.raw("\n")
    }

    static var writesOutlines: Bool { true }

    mutating func result(_ outline: DecisionOutline, bound: BoundPolicy, at address: UnsafePointer<BoundPolicy>, index: Int, into w: inout JSONWriter) {
        DecisionJSON.result(outline, bound: bound, at: address, cache: &prefixes, into: &w)
        w.raw("\n")
    }

    func result(_ block: BlockResult, index: Int, into w: inout JSONWriter) {
        DecisionJSON.blockResult(block, into: &w)
        w.raw("\n")
    }

    func invalid(given: (inout JSONWriter) -> Void, label: String, error: String, index: Int, into w: inout JSONWriter) {
        DecisionJSON.invalid(given: given, error: error, into: &w)
        w.raw("\n")
    }

    func close(policy: String, summary: DecisionJSON.Summary, results: Int, errors: [Diagnostic], into w: inout JSONWriter) {
        DecisionJSON.summaryLine(policy: policy, summary, errors: errors, into: &w)
    }
}
