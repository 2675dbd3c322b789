import ReorderEngine

/// One pair of policy files compared by `compare` (SPEC §11), or a policy that is new or gone.
public struct ComparedPolicy: Sendable {
    /// What became of the policy.
    public enum Status: Sendable {
        /// Both versions exist and were compared.
        case compared(PolicyComparison)
        /// Only the new version exists.
        case added
        /// Only the old version exists.
        case removed
    }

    /// The old file as shown (`REV:path` with `--base`), nil when added.
    public var old: String?
    /// The new file, nil when removed.
    public var new: String?
    /// The two compiled policies (for drawing the changes), when compared.
    public var policies: (old: CompiledPolicy, new: CompiledPolicy)?
    /// The answer.
    public var status: Status

    /// Creates an entry.
    public init(old: String?, new: String?, policies: (old: CompiledPolicy, new: CompiledPolicy)?, status: Status) {
        self.old = old
        self.new = new
        self.policies = policies
        self.status = status
    }

    /// True when both exist and decide alike on every table.
    public var equivalent: Bool {
        if case .compared(let c) = status { return c.verdict == .equivalent }
        return false
    }

    /// True when no answer was reached (the work budget ran out).
    public var undecided: Bool {
        if case .compared(let c) = status { return c.verdict == .undecided }
        return false
    }

    var changes: [PolicyComparison.Change] {
        if case .compared(let c) = status { return c.changes }
        return []
    }

    /// The file shown for the pair: the new one, else the old one.
    public var label: String { new ?? old ?? "" }
}

/// The outputs of `compare`: text, JSON (SPEC §11), Markdown (a pull-request comment) and
/// GitHub workflow annotations.
public enum ComparisonReport {
    /// 0 all equivalent, 1 some differ (or were added or removed), 2 when one was undecided.
    public static func exitStatus(_ entries: [ComparedPolicy]) -> Int32 {
        if entries.contains(where: \.undecided) { return 2 }
        return entries.allSatisfy(\.equivalent) ? 0 : 1
    }

    // MARK: JSON

    /// `{ "old", "new", "equivalent", "changes" }` for one pair; with `list`, `{ "comparisons": [...] }`.
    public static func json(_ entries: [ComparedPolicy], list: Bool) -> String {
        var w = JSONWriter()
        if list { w.raw("{\"comparisons\": [") }
        for (n, entry) in entries.enumerated() {
            if n > 0 { w.raw(", ") }
            object(entry, into: &w)
        }
        if list { w.raw("]}") }
        w.raw("\n")
        return w.text
    }

    private static func object(_ entry: ComparedPolicy, into w: inout JSONWriter) {
        w.raw("{\"old\": ")
        DecisionJSON.optionalString(entry.old, into: &w)
        w.raw(", \"new\": ")
        DecisionJSON.optionalString(entry.new, into: &w)
        w.raw(", \"status\": ")
        switch entry.status {
        case .added: w.string("added")
        case .removed: w.string("removed")
        case .compared(let c): w.string(c.verdict.rawValue)
        }
        w.raw(", \"equivalent\": ")
        w.bool(entry.equivalent)
        w.raw(", \"changes\": [")
        for (n, change) in entry.changes.enumerated() {
            if n > 0 { w.raw(", ") }
            w.raw("{\"table\": ")
            TableText.json(change.table, into: &w)
            w.raw(", \"move\": ")
            DecisionJSON.move(change.move, into: &w)
            w.raw(", \"old\": ")
            DecisionJSON.result(change.old, into: &w)
            w.raw(", \"new\": ")
            DecisionJSON.result(change.new, into: &w)
            w.raw("}")
        }
        w.raw("]}")
    }

    /// The JSON document when an input failed (a policy that does not load or compile, an
    /// unreadable file, a bad revision): the pair as given, no changes, and the located
    /// `"errors"` — never an empty standard output.
    public static func inputFailure(old: String?, new: String?, errors: [Diagnostic]) -> String {
        var w = JSONWriter()
        w.raw("{\"old\": ")
        DecisionJSON.optionalString(old, into: &w)
        w.raw(", \"new\": ")
        DecisionJSON.optionalString(new, into: &w)
        w.raw(", \"status\": \"error\", \"equivalent\": false, \"changes\": [], \"errors\": [")
        for (n, d) in errors.enumerated() {
            if n > 0 { w.raw(", ") }
            DiagnosticRenderer.diagnosticJSON(d, into: &w)
        }
        w.raw("]}\n")
        return w.text
    }

    // MARK: Text

    /// Each pair's verdict; each change with its table, the move drawn under each policy, and
    /// the two results with the rules behind them.
    public static func text(_ entries: [ComparedPolicy], style: TerminalStyle) -> String {
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

    // MARK: Markdown

    /// A pull-request comment: a summary table, then each change in a collapsible block.
    public static func markdown(_ entries: [ComparedPolicy]) -> String {
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

    // MARK: GitHub

    /// A `::notice` at the line of each rule behind a change (in the file that has it), or at
    /// the top of the new file when no rule is named (a changed `retarget`, an added policy).
    public static func github(_ entries: [ComparedPolicy]) -> String {
        var out = ""
        for entry in entries {
            guard let file = entry.new ?? entry.old else { continue }
            switch entry.status {
            case .added, .removed:
                let what = entry.new == nil ? "removed" : "added"
                out += "::notice file=\(DiagnosticRenderer.escapeProperty(file)),line=1,col=1,title=\(DiagnosticRenderer.escapeProperty("reorder-policy compare"))::\(DiagnosticRenderer.escapeData("policy \(what)"))\n"
            case .compared(let c):
                for change in c.changes {
                    let what = "\(change.old.kind.rawValue) → \(change.new.kind.rawValue) on \(TableText.flow(change.table, elidingOver: Counterexample.longSection)), move \(DecisionText.move(change.move))"
                    var places: [(String, Int, Int, String)] = []
                    // The new version's rules by id: a rule of the old version that the new one
                    // still has (by id) is annotated where it now is.
                    var newRules: [String: SourceLocation] = [:]
                    if let policy = entry.policies?.new.policy {
                        for meta in policy.rules.map(\.metadata) + policy.sectionRules.map(\.metadata) {
                            if let l = meta.location { newRules[meta.id] = l }
                        }
                    }
                    for (side, d) in [("old", change.old), ("new", change.new)] {
                        for v in d.violations {
                            let where_ = side == "new" ? v.location : newRules[v.rule]
                            if let l = where_ {
                                places.append((l.file, l.line, l.column, "rule '\(v.rule)' (\(v.kind)), \(side == "new" ? "in the new policy" : "as the old policy had it")"))
                            } else {
                                // Only the old version has the rule: its lines are not in the new file.
                                places.append((file, 1, 1, "rule '\(v.rule)' (\(v.kind)) of the old policy, gone from the new one"))
                            }
                        }
                    }
                    if places.isEmpty { places.append((file, 1, 1, "the policy's settings")) }
                    var seen = Set<String>()
                    for (f, line, col, rule) in places where seen.insert("\(f):\(line):\(col)").inserted {
                        let properties = "file=\(DiagnosticRenderer.escapeProperty(f)),line=\(line),col=\(col),title=\(DiagnosticRenderer.escapeProperty("reorder-policy compare: \(change.old.kind.rawValue) → \(change.new.kind.rawValue)"))"
                        out += "::notice \(properties)::\(DiagnosticRenderer.escapeData("\(what); \(rule)"))\n"
                    }
                }
            }
        }
        let differing = entries.filter { !$0.equivalent }.count
        out += "::notice::\(DiagnosticRenderer.escapeData("reorder-policy compare: \(entries.count) compared, \(entries.count - differing) equivalent, \(differing) changed"))\n"
        return out
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
