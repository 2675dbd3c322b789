import ReorderEngine

/// `compare --format github`: workflow annotations at the rules behind each change.
public struct CompareGitHubFormat: ReportFormat {
    public let name = "github"
    public init() {}
    public func render(_ report: ComparisonReport, _ context: RenderContext) -> String { Self.github(report.entries) }

    /// A `::notice` at the line of each rule behind a change (in the file that has it), or at
    /// the top of the new file when no rule is named (a changed `retarget`, an added policy).
    static func github(_ entries: [ComparedPolicy]) -> String {
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
