import ReorderEngine

/// `compare --format markdown`: a pull-request comment (also `--markdown-output`).
public struct CompareMarkdownFormat: ReportFormat {
    public let name = "markdown"
    public init() {}
    public func render(_ report: ComparisonReport, _ context: RenderContext) -> String { Self.markdown(report.entries) }

    /// A pull-request comment: a summary table, then each change in a collapsible block.
    static func markdown(_ entries: [ComparedPolicy]) -> String {
        var out = "## Reorder policy changes\n\n"
        out += "| Policy | Result | Changes |\n|---|---|---|\n"
        for entry in entries {
            let result: String
            switch entry.status {
            case .added: result = "added"
            case .removed: result = "removed"
            case .compared(let c):
                switch c.verdict {
                case .equivalent: result = "equivalent"
                case .undecided: result = "undecided (work budget)"
                case .different: result = "**changes decisions**"
                }
            }
            let kinds = entry.changes.map { "\($0.old.kind.rawValue) → \($0.new.kind.rawValue)" }.joined(separator: ", ")
            out += "| `\(cell(entry.label))` | \(result) | \(kinds.isEmpty ? "—" : kinds) |\n"
        }
        for entry in entries where !entry.changes.isEmpty {
            out += "\n### `\(cell(entry.label))`\n\n"
            for change in entry.changes {
                out += "<details>\n<summary>\(change.old.kind.rawValue) → \(change.new.kind.rawValue): \(html(DecisionText.move(change.move)))</summary>\n\n"
                out += "Table:\n\n```yaml\n\(TableText.flow(change.table))\n```\n\n"
                out += "| | Decision | Target | Rules |\n|---|---|---|---|\n"
                for (label, d) in [("old", change.old), ("new", change.new)] {
                    let rules = d.violations.map { v in "`\(cell(v.rule))` (\(v.kind)\(v.location.map { ", line \($0.line)" } ?? ""))" }.joined(separator: ", ")
                    out += "| \(label) | \(d.kind.rawValue) | \(d.target) | \(rules.isEmpty ? "—" : rules) |\n"
                }
                out += "\n</details>\n\n"
            }
        }
        return out
    }

    private static func cell(_ s: String) -> String {
        s.replacingAll("|", with: "\\|").replacingAll("`", with: "'").replacingAll("\n", with: " ")
    }

    private static func html(_ s: String) -> String {
        s.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
    }

}
