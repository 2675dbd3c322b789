import ReorderEngine

/// `check --format text`: an aligned line (or a few) per result for people, then the summary.
struct CheckTextOutput: CheckOutput {
    static let name = "text"
    static let help: String? = nil
    static let singleDocument: CheckRunner.Format.SingleDocument? = .text

    func inputFailure(policy: String?, errors: [Diagnostic]) -> String? { nil }

    let style: TerminalStyle
    /// The width of the move column: the widest move that fits the table (results are written
    /// as they are decided, so the moves to come are not known).
    private var moveWidth = 12

    init(style: TerminalStyle) { self.style = style }

    mutating func open(policy: String, table: Table, into w: inout JSONWriter) {
        moveWidth = Self.moveWidth(table)
    }

    /// The widest `s.r → s.r` (a row may land at a section's count, in another section) and
    /// `section a → b` of `table`, and at least 12.
    static func moveWidth(_ table: Table) -> Int {
        let sections = String(max(table.sections.count - 1, 0)).count
        let rows = String(table.sections.map(\.rows.count).max() ?? 0).count
        return max(12, 2 * (sections + 1 + rows) + 3, 8 + 2 * sections + 3)
    }

    func result(_ decision: Decision, index: Int, into w: inout JSONWriter) {
        Self.lines(DecisionText.lines(decision, style: style, moveWidth: moveWidth), into: &w)
    }

    func result(_ block: BlockResult, index: Int, into w: inout JSONWriter) {
        let move = block.move, decision = block.decision
        let single = Decision(move: .row(from: move.source, to: move.to), kind: decision.kind,
                              target: .row(decision.target), violations: decision.violations)
        var lines = DecisionText.lines(single, style: style, moveWidth: moveWidth)
        if move.rows.count > 1 {
            // A block names every source row and the rows it lands on: gathering rows 0 and
            // 2 at the top is `0.0, 0.2 → 0.0–0.1`, not a `0.0 → 0.0` that reads as no move.
            let m = move.rows.count
            func span(_ p: Position) -> String { "\(p.section).\(p.row)–\(p.section).\(p.row + m - 1)" }
            let sources = move.rows.map { "\(move.section).\($0)" }.joined(separator: ", ")
            var head = "\(sources) → \(span(move.to))  " + DecisionText.word(decision.kind, style: style)
            switch decision.kind {
            case .allowed: head += "  lands at \(span(decision.target))"
            case .retargeted: head += "  lands at " + style.bold(span(decision.target)) + " instead"
            case .rejected: head += "  stays at \(sources)"
            case .denied: head += "  cannot be picked up"
            }
            lines[0] = head
        }
        lines[0] = block.label + "  " + lines[0]
        Self.lines(lines, into: &w)
    }

    func invalid(given: (inout JSONWriter) -> Void, label: String, error: String, index: Int, into w: inout JSONWriter) {
        let label = label.visible
        let head = label.padding(toLength: max(moveWidth, label.count), withPad: " ", startingAt: 0) + "  "
        var lines = [head + style.red("invalid   ") + "  " + error.visible]
        if label.hasPrefix(Self.malformedPrefix) {
            // A malformed item is named by its line; what it was follows, under the verdict.
            var echo = JSONWriter(capacity: 64)
            given(&echo)
            lines.append(String(repeating: " ", count: head.count) + style.dim("given ") + echo.text.visible)
        }
        Self.lines(lines, into: &w)
    }

    /// The label of a moves item that is not a move: its line in the moves file.
    static func malformedLabel(line: Int) -> String { "\(malformedPrefix)\(line)" }
    private static let malformedPrefix = "line "

    func close(policy: String, summary: DecisionJSON.Summary, results: Int, errors: [Diagnostic], into w: inout JSONWriter) {
        w.bytes(DecisionText.summary(summary, style: style))
        w.raw("\n")
    }

    private static func lines(_ lines: [String], into w: inout JSONWriter) {
        for line in lines {
            w.bytes(line)
            w.raw("\n")
        }
    }
}
