import SpannedYAML
/// Decides batches of moves and writes `check` output, text or JSON, into a byte buffer.
/// The CLI and the benchmarks share it, so what is measured is what users run.
public struct CheckRunner {
    /// Output format.
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

    /// The bound policy.
    public let bound: BoundPolicy
    /// Output format.
    public let format: Format
    /// Text styling.
    public let style: TerminalStyle
    /// The output so far.
    package var output = JSONWriter(capacity: 1 << 16)

    /// Calls `body` with the output so far (UTF-8), without copying it.
    public func withOutput<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try output.withBytes(body)
    }
    /// Counts per decision.
    package private(set) var summary = DecisionJSON.Summary()
    private var count = 0
    private var prefixes = DecisionJSON.PrefixCache()
    /// When set, every decision is also written here as a ``DecisionEvent`` line.
    package var log: JSONWriter?
    /// The policy's hash for log events (see ``DecisionEvent/hash(_:)``).
    public var policyHash = ""

    /// Creates a runner and writes the output's opening.
    public init(bound: BoundPolicy, format: Format, style: TerminalStyle = .plain) {
        self.bound = bound
        self.format = format
        self.style = style
        if format == .json { DecisionJSON.open(policy: bound.compiled.policy.name, into: &output) }
    }

    /// Before a result: the list separator in a JSON document, nothing in JSON Lines.
    @inline(__always)
    private mutating func beginResult() {
        if format == .json { DecisionJSON.separator(count, into: &output) }
    }

    /// After a result: a line break in JSON Lines.
    @inline(__always)
    private mutating func endResult() {
        if format == .jsonl { output.raw("\n") }
    }

    /// Decides one move and writes its result; `given` echoes it when it is invalid.
    package mutating func decide(_ move: Move, given: ((inout JSONWriter) -> Void)? = nil) {
        do {
            let decision = try bound.decide(move)
            summary.add(decision.kind)
            if log != nil { logLine(DecisionEvent(policy: bound.compiled.policy.name, policyHash: policyHash, decision: decision)) }
            switch format {
            case .json, .jsonl:
                beginResult()
                DecisionJSON.result(decision, cache: &prefixes, into: &output)
                endResult()
            case .text:
                text(DecisionText.lines(decision, style: style, moveWidth: 12))
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
        switch format {
        case .json, .jsonl:
            beginResult()
            DecisionJSON.invalid(given: given, error: error, into: &output)
            endResult()
        case .text:
            let label = label.visible
            text([label.padding(toLength: max(12, label.count), withPad: " ", startingAt: 0) + "  " + style.red("invalid   ") + "  " + error.visible])
        }
        count += 1
    }

    /// Decides one item of a moves file.
    public mutating func decide(_ item: MoveItem) {
        switch item {
        case .move(let move): decide(move)
        case .offsets(let offsets, let toOffset, let section):
            decide(offsets: offsets, toOffset: toOffset, section: section)
        case .invalid(let node, let error):
            var echo = JSONWriter(capacity: 64)
            DecisionJSON.node(node, into: &echo)
            if log != nil {
                logLine(DecisionEvent(policy: bound.compiled.policy.name, policyHash: policyHash, move: .init(given: echo.text),
                                      decision: "invalid", target: nil, rules: [], error: error))
            }
            invalid(given: { $0.append(echo) }, label: echo.text, error: error)
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
            switch format {
            case .json, .jsonl:
                beginResult()
                output.raw("{\"move\": ")
                echo(&output)
                output.raw(", \"decision\": \"")
                output.raw(decision.kind.staticName)
                output.raw("\", \"target\": ")
                output.pair(decision.target.section, decision.target.row)
                output.raw(", \"violations\": [")
                for (n, v) in decision.violations.enumerated() {
                    if n > 0 { output.raw(", ") }
                    DecisionJSON.violationPrefix(v).withUnsafeBufferPointer { output.append(buffer: $0) }
                    DecisionJSON.reason(v.details, into: &output)
                    output.raw("}")
                }
                output.raw("]}")
                endResult()
            case .text:
                let single = Decision(move: .row(from: move.source, to: move.to), kind: decision.kind,
                                      target: .row(decision.target), violations: decision.violations)
                var lines = DecisionText.lines(single, style: style, moveWidth: 12)
                if move.rows.count > 1 {
                    // A block names every source row and the rows it lands on: gathering rows 0 and
                    // 2 at the top is `0.0, 0.2 → 0.0–0.1`, not a `0.0 → 0.0` that reads as no move.
                    let m = move.rows.count
                    func block(_ p: Position) -> String { "\(p.section).\(p.row)–\(p.section).\(p.row + m - 1)" }
                    let sources = move.rows.map { "\(move.section).\($0)" }.joined(separator: ", ")
                    var head = "\(sources) → \(block(move.to))  " + DecisionText.word(decision.kind, style: style)
                    switch decision.kind {
                    case .allowed: head += "  lands at \(block(decision.target))"
                    case .retargeted: head += "  lands at " + style.bold(block(decision.target)) + " instead"
                    case .rejected: head += "  stays at \(sources)"
                    case .denied: head += "  cannot be picked up"
                    }
                    lines[0] = head
                }
                lines[0] = label + "  " + lines[0]
                text(lines)
            }
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

    private mutating func text(_ lines: [String]) {
        for line in lines {
            output.bytes(line)
            output.raw("\n")
        }
    }

    /// Writes the closing (summary) and returns the exit status. `inputErrors` are the
    /// problems that stopped a moves file part-way: JSON output lists them in `"errors"` and
    /// stays one complete document; the status is then 2.
    public mutating func finish(inputErrors: [Diagnostic] = []) -> Int32 {
        switch format {
        case .json: DecisionJSON.close(summary, empty: count == 0, errors: inputErrors, into: &output)
        case .jsonl: DecisionJSON.summaryLine(policy: bound.compiled.policy.name, summary, errors: inputErrors, into: &output)
        case .text:
            output.bytes(DecisionText.summary(summary, style: style))
            output.raw("\n")
        }
        return inputErrors.isEmpty ? summary.exitStatus : 2
    }
}
