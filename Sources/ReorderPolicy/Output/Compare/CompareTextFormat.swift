import ReorderEngine

/// `compare --format text`: each pair's verdict, and each change drawn under both policies.
public struct CompareTextFormat: ReportFormat {
    public let name = "text"
    public init() {}
    public func render(_ report: ComparisonReport, _ context: RenderContext) -> String { Self.text(report.entries, style: context.style) }

    /// Each pair's verdict; each change with its table, the move drawn under each policy, and
    /// the two results with the rules behind them.
    static func text(_ entries: [ComparedPolicy], style: TerminalStyle) -> String {
        var out: [String] = []
        for entry in entries {
            let name = style.bold(entry.label.visible)
            switch entry.status {
            case .added: out.append("\(name): \(style.yellow("added")) (no old version)")
            case .removed: out.append("\(name): \(style.yellow("removed")) (no new version)")
            case .compared(let c):
                let against = style.dim("  (\(entry.old?.visible ?? "") → \(entry.new?.visible ?? ""))")
                switch c.verdict {
                case .equivalent:
                    out.append("\(name): \(style.green("equivalent")): the same decision and target for every move on every table" + against)
                case .undecided:
                    out.append("\(name): \(style.red("undecided")): the comparison ran out of its work budget; no claim either way" + against)
                case .different:
                    out.append("\(name): \(style.yellow("changes decisions")) (\(c.changes.count) kind\(c.changes.count == 1 ? "" : "s") of change)" + against)
                    for change in c.changes { out += changeLines(change, entry.policies, style: style) }
                }
            }
        }
        let differing = entries.filter { !$0.equivalent }.count
        out.append(style.bold("summary:") + " \(entries.count) compared, \(entries.count - differing) equivalent, \(differing) changed")
        return out.joined(separator: "\n") + "\n"
    }

    private static func changeLines(_ change: PolicyComparison.Change, _ policies: (old: CompiledPolicy, new: CompiledPolicy)?, style: TerminalStyle) -> [String] {
        var out = [""]
        out.append("  " + style.bold("\(change.old.kind.rawValue) → \(change.new.kind.rawValue)") + ":  " + DecisionText.move(change.move))
        out.append("  table: " + TableText.flow(change.table, elidingOver: Counterexample.longSection).visible)
        for (label, decision, policy) in [("old", change.old, policies?.old), ("new", change.new, policies?.new)] {
            out.append("  " + style.bold(label) + "  " + (DecisionText.lines(decision, style: style).first ?? ""))
            for line in DecisionText.lines(decision, style: style).dropFirst() { out.append("     " + line) }
            if let policy {
                let bound = policy.bind(change.table)
                if let e = try? bound.explain(change.move) {
                    out += TableDrawing.draw(e, bound: bound, style: style).map { "     " + $0 }
                }
            }
        }
        return out
    }

}
