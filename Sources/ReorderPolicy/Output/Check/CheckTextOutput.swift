import ReorderEngine

/// `check --format text`: an aligned line (or a few) per result for people, then the summary.
struct CheckTextOutput: CheckOutput {
    static let name = "text"
    static let help: String? = nil
    static let singleDocument: CheckRunner.Format.SingleDocument? = .text

    func inputFailure(policy: String?, errors: [Diagnostic]) -> String? { nil }

    let style: TerminalStyle

    func open(policy: String, into w: inout JSONWriter) {}

    func result(_ decision: Decision, index: Int, into w: inout JSONWriter) {
        Self.lines(DecisionText.lines(decision, style: style, moveWidth: 12), into: &w)
    }

    func result(_ block: BlockResult, index: Int, into w: inout JSONWriter) {
        let move = block.move, decision = block.decision
        let single = Decision(move: .row(from: move.source, to: move.to), kind: decision.kind,
                              target: .row(decision.target), violations: decision.violations)
        var lines = DecisionText.lines(single, style: style, moveWidth: 12)
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
        Self.lines([label.padding(toLength: max(12, label.count), withPad: " ", startingAt: 0) + "  " + style.red("invalid   ") + "  " + error.visible], into: &w)
    }

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
