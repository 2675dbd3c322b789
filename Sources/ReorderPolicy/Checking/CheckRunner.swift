import SpannedYAML
/// Decides batches of moves and writes `check` output into a byte buffer, in a format that is
/// a `CheckOutput` (Output/Check/: one file per format). The CLI, the server and the
/// benchmarks share it, so what is measured is what users run.
public struct CheckRunner {
    /// The bound policy.
    public let bound: BoundPolicy
    /// Output format.
    public let format: Format
    /// Text styling.
    public let style: TerminalStyle
    /// The output so far.
    package var output: JSONWriter

    /// Calls `body` with the output so far (UTF-8), without copying it.
    public func withOutput<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try output.withBytes(body)
    }
    /// Counts per decision.
    package private(set) var summary = DecisionJSON.Summary()
    private var count = 0
    /// The format's writer.
    private var sink: any CheckOutput
    /// Whether `sink` writes outlines (``CheckOutput/writesOutlines``).
    private let outlines: Bool
    /// When set, every decision is also written here as a ``DecisionEvent`` line.
    package var log: JSONWriter?
    /// The policy's hash for log events (see ``DecisionEvent/hash(_:)``).
    public var policyHash = ""

    /// Creates a runner and writes the output's opening. `outputCapacity` is the room the
    /// output starts with (a caller that knows how many moves come can spare the copies of a
    /// growing buffer).
    public init(bound: BoundPolicy, format: Format, style: TerminalStyle = .plain, outputCapacity: Int = 1 << 16) {
        output = JSONWriter(capacity: outputCapacity)
        self.bound = bound
        self.format = format
        self.style = style
        sink = format.output(style: style)
        outlines = type(of: sink).writesOutlines
        sink.open(policy: bound.compiled.policy.name, table: bound.table, into: &output)
    }

    /// A runner for a piece of a moves file decided apart from `parent` (see ``BatchPipeline``):
    /// same policy, format, style and log settings, nothing written yet. `follows` says
    /// whether results come before the piece's, so that its first one is written as one that
    /// follows another; ``absorb(_:follows:)`` adds its counts to the parent's.
    /// `output` is the (empty) buffer to write into; `bound` the parent's binding or a copy of
    /// it (``BoundPolicy/isolatedCopy()``).
    package init(pieceOf parent: CheckRunner, bound: BoundPolicy, follows: Bool, output: JSONWriter) {
        self.init(bound: bound, format: parent.format, style: parent.style, outputCapacity: 0)
        self.output = output
        self.output.reset()  // the opening is the parent's
        if parent.log != nil { log = JSONWriter(capacity: 1 << 16) }
        policyHash = parent.policyHash
        count = follows ? 1 : 0
    }

    /// How many results were written.
    package var resultCount: Int { count }

    /// Adds the counts of `piece`, made with ``init(pieceOf:bound:follows:output:)`` and
    /// `follows`, whose output the caller wrote after this runner's.
    package mutating func absorb(_ piece: CheckRunner, follows: Bool) {
        summary.add(piece.summary)
        count += piece.count - (follows ? 1 : 0)
    }

    /// Decides one move and writes its result; `given` echoes it when it is invalid.
    package mutating func decide(_ move: Move, given: ((inout JSONWriter) -> Void)? = nil) {
        let bound = self.bound  // a copy, so that `self` can change while its address is lent
        withUnsafePointer(to: bound) { decide(move, bound: bound, at: $0, given: given) }
    }

    /// Decides one move with `bound`, this runner's binding, passed in with its address
    /// (`binding`, where the caller keeps it for the call): read from `self` at each use, the
    /// binding (425 bytes) was copied twice a move to be passed on, as the runner is `inout`,
    /// and once more per worded reason to have an address for the rule's wording (issue #26).
    /// ``decide(eachRequestMove:)`` and ``decide(all:)`` read it once for a whole batch. (A method of
    /// `binding.pointee` copies the binding to be called: the value is passed for them.)
    private mutating func decide(_ move: Move, bound: BoundPolicy, at binding: UnsafePointer<BoundPolicy>, given: ((inout JSONWriter) -> Void)?) {
        do {
            // A format that writes outlines is given one, and no decision is built (issue #26);
            // a decision log needs the decision.
            if outlines && log == nil, case .row(let from, let to) = move {
                let outline = try bound.outline(from: from, to: to)
                summary.add(outline.kind)
                sink.result(outline, bound: bound, at: binding, index: count, into: &output)
            } else {
                let decision = try bound.decide(move)
                summary.add(decision.kind)
                if log != nil { logLine(DecisionEvent(policy: bound.compiled.policy.name, policyHash: policyHash, decision: decision)) }
                sink.result(decision, index: count, into: &output)
            }
        } catch {
            if log != nil {
                logLine(DecisionEvent(policy: bound.compiled.policy.name, policyHash: policyHash, invalid: move, error: error.message))
            }
            invalid(given: given ?? { DecisionJSON.move(move, into: &$0) }, label: DecisionText.move(move), error: error.message)
            return
        }
        count += 1
    }

    /// Writes an `invalid` result.
    package mutating func invalid(given: (inout JSONWriter) -> Void, label: String, error: String) {
        summary.invalid += 1
        sink.invalid(given: given, label: label, error: error, index: count, into: &output)
        count += 1
    }

    /// Decides one item of a moves file.
    public mutating func decide(_ item: MoveItem) {
        let bound = self.bound
        withUnsafePointer(to: bound) { decide(item, bound: bound, at: $0) }
    }

    /// Decides a request's `moves` in order, as ``decide(_:)-(MoveItem)`` decides each item
    /// ``MovesFile/item(_:)`` reads, reading the binding once for all their row moves: a row
    /// move read off the tape (``MovesFile/rowMove(_:)``) is decided as it is, with no
    /// ``MoveItem`` made and destroyed for it (issue #26).
    package mutating func decide(eachRequestMove items: JSONNode.Items) {
        let bound = self.bound
        withUnsafePointer(to: bound) { address in
            for node in items {
                if let move = MovesFile.rowMove(node) {
                    decide(move, bound: bound, at: address, given: nil)
                } else {
                    decide(MovesFile.item(node), bound: bound, at: address)
                }
            }
        }
    }

    /// Decides a batch's items in order, as ``decide(_:)-(MoveItem)`` decides each, reading the
    /// binding once for all their row moves; the batch is left empty (``MovesBatch/forEach(_:)``).
    package mutating func decide(all batch: inout MovesBatch) {
        let bound = self.bound
        withUnsafePointer(to: bound) { address in
            batch.forEach { decide($0, bound: bound, at: address) }
        }
    }

    private mutating func decide(_ item: MoveItem, bound: BoundPolicy, at binding: UnsafePointer<BoundPolicy>) {
        switch item {
        case .move(let move): decide(move, bound: bound, at: binding, given: nil)
        case .offsets(let offsets, let toOffset, let section):
            decide(offsets: offsets, toOffset: toOffset, section: section)
        case .invalid(let node, let error):
            var echo = JSONWriter(capacity: 64)
            DecisionJSON.node(node, into: &echo)
            if log != nil {
                logLine(DecisionEvent(policy: bound.compiled.policy.name, policyHash: policyHash, move: .init(given: echo.text),
                                      decision: "invalid", target: nil, rules: [], error: error))
            }
            // People find a malformed item by its line (text output: `line 3  invalid  …`, then
            // what was given); machines read the echo (`given`).
            invalid(given: { $0.append(echo) }, label: CheckTextOutput.malformedLabel(line: node.span.start.line), error: error)
        }
    }

    /// Decides a SwiftUI-style offset move (rows moved together within `section`).
    public mutating func decide(offsets: [Int], toOffset: Int, section: Int) {
        let echo: (inout JSONWriter) -> Void = { w in
            w.raw("{")
            DecisionJSON.offsetFields(offsets, toOffset: toOffset, section: section, into: &w)
            w.raw("}")
        }
        let label = "\(offsets) → offset \(toOffset) in section \(section)"
        let record = DecisionEvent.MoveRecord(fromOffsets: offsets, toOffset: toOffset, section: section)
        func logEvent(_ decision: String, _ target: [Int]?, _ rules: [String], _ error: String?) {
            guard log != nil else { return }
            logLine(DecisionEvent(policy: bound.compiled.policy.name, policyHash: policyHash, move: record,
                                  decision: decision, target: target, rules: rules, error: error))
        }
        guard Set(offsets).count == offsets.count, section >= 0, section < bound.table.sections.count,
              toOffset >= 0, toOffset <= bound.table.sections[section].rows.count else {
            let sectionExists = section >= 0 && section < bound.table.sections.count
            let error = sectionExists
                ? "offsets \(offsets) to \(toOffset) do not fit section \(section): sources must be distinct rows and the offset a gap in 0...n"
                : "section \(section) does not exist; the table has \(bound.table.sections.count) sections"
            logEvent("invalid", nil, [], error)
            invalid(given: echo, label: label, error: error)
            return
        }
        let move = IndexConvention.move(fromOffsets: offsets, toOffset: toOffset, section: section)
        do {
            let decision = try bound.decide(move)
            summary.add(decision.kind)
            logEvent(decision.kind.rawValue, [decision.target.section, decision.target.row], decision.violations.map(\.rule), nil)
            sink.result(BlockResult(move: move, decision: decision, echo: echo, label: label), index: count, into: &output)
            count += 1
        } catch {
            logEvent("invalid", nil, [], error.message)
            invalid(given: echo, label: label, error: error.message)
        }
    }

    private mutating func logLine(_ event: DecisionEvent) {
        log?.bytes(event.jsonLine)
        log?.raw("\n")
    }

    /// Writes the closing (summary) and returns the exit status. `inputErrors` are the
    /// problems that stopped a moves file part-way: JSON output lists them in `"errors"` and
    /// stays one complete document; the status is then 2.
    public mutating func finish(inputErrors: [Diagnostic] = []) -> Int32 {
        sink.close(policy: bound.compiled.policy.name, summary: summary, results: count, errors: inputErrors, into: &output)
        return inputErrors.isEmpty ? summary.exitStatus : 2
    }
}
