import ReorderEngine

/// One output format of `check`: how a run opens, how each result is written, how it closes.
/// ``CheckRunner`` decides, logs and counts; a format only writes. A new format is one type
/// conforming to this and one case of ``CheckRunner/Format`` (its `output`).
protocol CheckOutput {
    /// Written before the first result.
    mutating func open(policy: String, into w: inout JSONWriter)
    /// A decided move; `index` counts the results written before it.
    mutating func result(_ decision: Decision, index: Int, into w: inout JSONWriter)
    /// A decided block of rows moved together (SwiftUI's offsets form).
    mutating func result(_ block: BlockResult, index: Int, into w: inout JSONWriter)
    /// An item that could not be decided: `given` writes it as it was given (JSON), `label`
    /// names it for people.
    mutating func invalid(given: (inout JSONWriter) -> Void, label: String, error: String, index: Int, into w: inout JSONWriter)
    /// Written after the last result; `errors` stopped the moves file part-way.
    mutating func close(policy: String, summary: DecisionJSON.Summary, results: Int, errors: [Diagnostic], into w: inout JSONWriter)
    /// What goes to standard output when the policy or the table cannot be loaded (the errors
    /// themselves go to standard error as text); nil for nothing.
    func inputFailure(policy: String?, errors: [Diagnostic]) -> String?
    /// What `explain` and `diff`, which write one document, write when given this format; nil
    /// when they refuse it (a format for batches only).
    static var singleDocument: CheckRunner.Format.SingleDocument? { get }
}

/// A decided offset move, with what every format needs to write it.
struct BlockResult {
    /// The engine's move (a block of rows in one section).
    var move: MultiRowMove
    /// Its decision.
    var decision: MultiRowDecision
    /// Writes the item as given (`{from-offsets, to-offset, section}`).
    var echo: (inout JSONWriter) -> Void
    /// The item for people: `[0, 2] → offset 4 in section 1`.
    var label: String
}

extension CheckRunner {
    /// Output format; each case's writer is its `CheckOutput` (`output(style:)`).
    public enum Format: String, Sendable, CaseIterable {
        /// Aligned text for people.
        case text
        /// One JSON document (SPEC §5.1).
        case json
        /// JSON Lines for streaming consumers: one result object per line, in the shape of an
        /// item of `results`, then one line `{"policy": …, "summary": {…}}` (with `"errors"`
        /// when the moves file failed part-way).
        case jsonl
    }
}

extension CheckRunner.Format {
    /// The format's writer. With the cases above, the registry of `check`'s output formats:
    /// everything else about a format (its input-failure document, what `explain` and `diff`
    /// make of it) is asked of its writer, so a new format is its writer's file and these two
    /// lines.
    func output(style: TerminalStyle) -> any CheckOutput {
        switch self {
        case .text: CheckTextOutput(style: style)
        case .json: CheckJSONOutput()
        case .jsonl: CheckJSONLinesOutput()
        }
    }

    /// The one-document forms `explain` and `diff` write.
    package enum SingleDocument: Sendable { case text, json }

    /// What `explain` and `diff` write for this format; nil when they refuse it.
    package var singleDocument: SingleDocument? { type(of: output(style: .plain)).singleDocument }

    /// What goes to standard output when the policy or the table cannot be loaded; nil for nothing.
    package func inputFailure(policy: String?, errors: [Diagnostic]) -> String? {
        output(style: .plain).inputFailure(policy: policy, errors: errors)
    }
}
