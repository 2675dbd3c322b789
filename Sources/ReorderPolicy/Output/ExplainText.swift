import SpannedYAML
/// `explain` as text: the decision, every rule's verdict (violated rules with a code frame),
/// the valid destinations, and a drawing of the sections involved.
public enum ExplainText {
    /// Rows shown in full up to this many per section; longer sections elide their middle.
    public static let fullSectionLimit = 30
    /// The widest line `explain` writes (code frames cut longer source lines).
    public static let width = 100

    /// Splits `text` into lines of at most `width` characters at spaces (long words are cut).
    static func wrap(_ text: String, width: Int) -> [String] {
        // Linear in the text: words are cut by index, never re-counted or copied again.
        let width = max(20, width)
        var lines: [String] = [], current = "", currentCount = 0
        for piece in text.split(separator: " ", omittingEmptySubsequences: false) {
            let chars = Array(piece)
            var from = 0
            while chars.count - from > width {
                if currentCount > 0 {
                    lines.append(current)
                    current = ""
                    currentCount = 0
                }
                lines.append(String(chars[from..<(from + width)]))
                from += width
            }
            let rest = chars.count - from
            if currentCount == 0 && current.isEmpty {
                current = String(chars[from...])
                currentCount = rest
            } else if currentCount + 1 + rest <= width {
                current += " " + String(chars[from...])
                currentCount += 1 + rest
            } else {
                lines.append(current)
                current = String(chars[from...])
                currentCount = rest
            }
        }
        lines.append(current)
        return lines
    }

    /// The whole `explain` text for one explanation.
    public static func render(_ e: Explanation, bound: BoundPolicy, policySource: SourceFile?, style: TerminalStyle) -> String {
        var out: [String] = []
        let d = e.decision
        let policy = bound.compiled.policy
        out.append(style.bold("policy    ") + policy.name.visible)
        for (n, line) in wrap(describeMove(d.move, bound), width: width - 10).enumerated() {
            out.append((n == 0 ? style.bold("move      ") : "          ") + line)
        }
        var decision = DecisionText.word(d.kind, style: style).trimmingTrailingSpaces()
        switch d.kind {
        case .allowed: decision += " — lands at \(d.target)"
        case .retargeted: decision += " — lands at " + style.bold(d.target.description) + " instead of \(proposed(d.move))"
        case .rejected: decision += " — stays at \(d.target)"
        case .denied: decision += " — cannot be picked up"
        }
        out.append(style.bold("decision  ") + decision)
        out.append("")
        out.append(style.bold("rules"))
        let idWidth = min(24, e.trace.map(\.rule.visible.count).max() ?? 0)
        let kindWidth = e.trace.map(\.kind.count).max() ?? 0
        for t in e.trace {
            let mark: String
            switch t.verdict {
            case .pass: mark = style.green("✓ pass          ")
            case .violated: mark = style.red("✗ violated      ")
            case .notApplicable: mark = style.dim("· not-applicable")
            }
            let rule = t.rule.visible, reason = t.reason.visible
            let id = rule.padding(toLength: max(idWidth, rule.count), withPad: " ", startingAt: 0)
            let kind = t.kind.padding(toLength: kindWidth, withPad: " ", startingAt: 0)
            // Keep every line within the width: the reason wraps under the rule when it is long.
            let head = "  \(mark)  \(style.bold(id))  \(style.dim(kind))  "
            let headWidth = 2 + 16 + 2 + id.count + 2 + kind.count + 2
            let lines = wrap(reason, width: width - headWidth)
            if headWidth + (lines.first?.count ?? 0) <= width && lines.count == 1 {
                out.append(head + reason)
            } else {
                out.append(head.trimmingTrailingSpaces())
                out += wrap(reason, width: width - 6).map { "      " + $0 }
            }
            if t.verdict == .violated, let location = t.location {
                out.append("      " + style.dim("\(location.file.visible):\(location.line):\(location.column)"))
                let span = Span(start: Mark(line: location.line, column: location.column),
                                end: Mark(line: location.line, column: Int.max / 2))
                let frame = CodeFrame.render(policySource, span: ruleSpan(policySource, location), label: t.message?.visible, style: style)
                out += (frame.isEmpty ? CodeFrame.render(policySource, span: span, label: t.message?.visible, style: style) : frame)
                    .map { "      " + $0 }.map { cut($0, style) }
                if let readable = readsAs(t, policy, policySource) {
                    out += wrap("reads as: " + readable.visible, width: width - 8).enumerated()
                        .map { "      " + ($0.offset == 0 ? "" : "  ") + style.dim($0.element) }
                }
            }
        }
        out.append("")
        out.append(style.bold("valid destinations"))
        switch d.move {
        case .row:
            if e.validRows.isEmpty { out.append("  none: the row cannot be picked up") }
            for v in e.validRows {
                let ranges = v.rows.map { $0.lowerBound == $0.upperBound ? "\(v.section).\($0.lowerBound)" : "\(v.section).\($0.lowerBound)–\(v.section).\($0.upperBound)" }
                out.append("  \(bound.sectionLabel(v.section)): " + ranges.joined(separator: ", "))
            }
        case .section:
            if e.validSections.isEmpty { out.append("  none: the section cannot be picked up") }
            for r in e.validSections { out.append("  section indices \(r.lowerBound)–\(r.upperBound)") }
        }
        out.append("")
        out += TableDrawing.draw(e, bound: bound, style: style)
        return out.joined(separator: "\n") + "\n"
    }

    /// A rule whose first line does not show its argument (`- pin:` alone, or `- id: x` with the
    /// rule kind below) as one line of flow YAML, so a list or `not` selector spread over lines
    /// reads at a glance; nil when the first line already shows the argument.
    static func readsAs(_ t: TraceEntry, _ policy: Policy, _ source: SourceFile?) -> String? {
        guard let location = t.location, let line = source?.line(location.line),
              let rule = policy.rules.first(where: { $0.metadata.id == t.rule }) else { return nil }
        let rest = String(line.unicodeScalars.dropFirst(max(0, location.column - 1)))
        // The first line shows the argument when it has `keyword:` followed by something other
        // than a comment (`- pin:` alone, or `- id: x` with the rule kind on a later line, does not).
        guard let key = rest.firstRange(of: rule.keyword + ":") else { return rule.kind.description }
        let after = rest[key.upperBound...].drop { $0 == " " }
        return after.isEmpty || after.hasPrefix("#") ? rule.kind.description : nil
    }

    /// A line cut to the width (only plain text is cut; styled lines are left whole).
    static func cut(_ line: String, _ style: TerminalStyle) -> String {
        guard !style.enabled, line.count > width else { return line }
        return String(line.prefix(width - 1)) + "…"
    }

    /// A rule item's span, as the decoder kept it. `CodeFrame` underlines a span over several
    /// lines to the end of its first (block rules continue on indented lines). A location
    /// without an end (built in code, or read back from JSON) is framed from its start to the
    /// end of its line.
    static func ruleSpan(_ source: SourceFile?, _ l: SourceLocation) -> Span {
        let start = Mark(line: l.line, column: l.column)
        if let endLine = l.endLine, let endColumn = l.endColumn {
            return Span(start: start, end: Mark(line: endLine, column: endColumn))
        }
        guard let source, let line = source.line(l.line) else { return Span(at: start) }
        let trimmed = line.unicodeScalars.reversed().drop { $0 == " " }.count
        return Span(start: start, end: Mark(line: l.line, column: max(l.column + 1, trimmed + 1)))
    }

    static func proposed(_ move: Move) -> String {
        switch move {
        case .row(_, let to): "\(to)"
        case .section(_, let to): "\(to)"
        }
    }

    static func describeMove(_ move: Move, _ bound: BoundPolicy) -> String {
        switch move {
        case .row(let from, let to):
            let id = bound.table.row(at: from).map { "\"\($0.id.visible)\"" } ?? "?"
            let within = from.section == to.section ? "within \(bound.sectionLabel(from.section))"
                : "from \(bound.sectionLabel(from.section)) to \(bound.sectionLabel(to.section))"
            return "\(from) → \(to)   (\(id), \(within))"
        case .section(let from, let to):
            return "section \(from) → \(to)   (\(bound.sectionLabel(from)))"
        }
    }
}

extension BoundPolicy {
    /// `section 1 ("Doing")` or `section 1`.
    public func sectionLabel(_ u: Int) -> String {
        guard u >= 0, u < table.sections.count else { return "section \(u)" }
        return table.sections[u].id.map { "section \(u) (\"\($0.visible)\")" } ?? "section \(u)"
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
