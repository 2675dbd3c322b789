/// Human-readable lines for decisions, shared by `check`, `explain` and `test`.
public enum DecisionText {
    /// `0.4 → 0.0` or `section 2 → 0`.
    public static func move(_ move: Move) -> String {
        switch move {
        case .row(let from, let to): "\(from) → \(to)"
        case .section(let from, let to): "section \(from) → \(to)"
        }
    }

    /// The decision word, coloured by outcome.
    public static func word(_ kind: DecisionKind, style: TerminalStyle) -> String {
        let padded = kind.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
        switch kind {
        case .allowed: return style.green(padded)
        case .retargeted: return style.yellow(padded)
        case .rejected, .denied: return style.red(padded)
        }
    }

    /// One decision: a headline, then each violated rule with its location and reason.
    public static func lines(_ d: Decision, style: TerminalStyle, moveWidth: Int = 0) -> [String] {
        let m = move(d.move)
        var head = m.padding(toLength: max(moveWidth, m.count), withPad: " ", startingAt: 0) + "  " + word(d.kind, style: style)
        switch d.kind {
        case .allowed: head += "  lands at \(d.target)"
        case .retargeted: head += "  lands at \(style.bold(d.target.description)) instead"
        case .rejected: head += "  stays at \(d.target)"
        case .denied: head += "  cannot be picked up"
        }
        var out = [head]
        for v in d.violations {
            var rule = "    \(style.red("✗")) \(style.bold(v.rule.visible)) (\(v.kind))"
            if let l = v.location { rule += style.dim("  \(l.file.visible):\(l.line):\(l.column)") }
            out.append(rule)
            out.append("      \(v.reason.visible)")
            if let message = v.message { out.append("      " + style.cyan("“\(message.visible)”")) }
        }
        return out
    }

    /// The summary line.
    package static func summary(_ s: DecisionJSON.Summary, style: TerminalStyle) -> String {
        let parts = [
            "\(s.allowed) allowed", "\(s.retargeted) retargeted", "\(s.rejected) rejected",
            "\(s.denied) denied", "\(s.invalid) invalid",
        ]
        return style.bold("summary:") + " " + parts.joined(separator: ", ")
    }
}
