import ReorderEngine

/// One output format of `check`: how a run opens, how each result is written, how it closes.
/// ``CheckRunner`` decides, logs and counts; a format only writes. A new format is one type
/// conforming to this and its line in `CheckRunner.Format.outputs`.
protocol CheckOutput: SendableMetatype {
    /// The `--format` value.
    static var name: String { get }
    /// What `check --help` says of it beside its name; nil for nothing.
    static var help: String? { get }
    /// A writer for one run; `style` colours text for a terminal.
    init(style: TerminalStyle)
    /// Written before the first result; `table` is the table the moves are decided on.
    mutating func open(policy: String, table: Table, into w: inout JSONWriter)
    /// A decided move; `index` counts the results written before it.
    mutating func result(_ decision: Decision, index: Int, into w: inout JSONWriter)
    /// Whether ``result(_:bound:at:index:into:)`` writes a row move's outline as it would write
    /// its decision: then ``CheckRunner`` gives it outlines, and no decision is built.
    static var writesOutlines: Bool { get }
    /// A decided row move as an outline on `bound` (only when ``writesOutlines``), which the
    /// caller keeps (a copy of) at `address` for the call (``BoundPolicy/withJSONReason(_:of:at:_:)``).
    mutating func result(_ outline: DecisionOutline, bound: BoundPolicy, at address: UnsafePointer<BoundPolicy>, index: Int, into w: inout JSONWriter)
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
    /// An output format of `check`, named by its `--format` value. Everything about a format
    /// is asked of its writer, listed in `outputs`.
    public struct Format: Sendable, Hashable, CustomStringConvertible {
        /// The `--format` value.
        public let name: String

        /// The registry of `check`'s output formats, in the order `--help` lists them: a new
        /// format is its writer's file and a line here.
        static let outputs: [any CheckOutput.Type] = [
            CheckTextOutput.self,
            CheckJSONOutput.self,
            CheckJSONLinesOutput.self,
        ]

        /// Every format, in registry order.
        public static var all: [Format] { outputs.map { Format(uncheckedName: $0.name) } }

        /// Aligned text for people.
        public static let text = Format(uncheckedName: CheckTextOutput.name)
        /// One JSON document (SPEC §5.1).
        public static let json = Format(uncheckedName: CheckJSONOutput.name)

        /// The format named `name`; nil for a name no writer has.
        public init?(name: String) {
            guard Self.outputs.contains(where: { $0.name == name }) else { return nil }
            self.name = name
        }

        private init(uncheckedName name: String) { self.name = name }

        public var description: String { name }

        /// What `check --help` says of the formats beside their names: `(jsonl: …)`, or "".
        public static var help: String {
            let notes = outputs.compactMap { o in o.help.map { "\(o.name): \($0)" } }
            return notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
        }

        /// The format's writer type; every `Format` is made from a registry entry.
        private var type: any CheckOutput.Type {
            // `init(name:)` and the static formats only ever take a registered name.
            Self.outputs.first { $0.name == name }!
        }

        /// A writer for one run.
        func output(style: TerminalStyle) -> any CheckOutput { type.init(style: style) }

        /// The one-document forms `explain` and `diff` write.
        package enum SingleDocument: Sendable { case text, json }

        /// What `explain` and `diff` write for this format; nil when they refuse it.
        package var singleDocument: SingleDocument? { type.singleDocument }

        /// What goes to standard output when the policy or the table cannot be loaded; nil for nothing.
        package func inputFailure(policy: String?, errors: [Diagnostic]) -> String? {
            output(style: .plain).inputFailure(policy: policy, errors: errors)
        }
    }
}

extension CheckOutput {
    static var writesOutlines: Bool { false }

    mutating func result(_ outline: DecisionOutline, bound: BoundPolicy, at address: UnsafePointer<BoundPolicy>, index: Int, into w: inout JSONWriter) {
        // Not called unless `writesOutlines`; correct all the same: the outline's decision
        // (an outline is made only of a move that fits the table, so deciding it again does).
        do {
            result(try bound.decide(outline.move), index: index, into: &w)
        } catch {
            preconditionFailure("an outlined move that does not fit its table: \(error)")
        }
    }
}
