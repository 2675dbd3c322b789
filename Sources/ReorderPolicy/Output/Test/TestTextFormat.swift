/// `test --format text`: each file's tests with marks, failures with expected and actual, then a summary.
public struct TestTextFormat: ReportFormat {
    public let name = "text"
    public init() {}
    public func render(_ report: TestReport, _ context: RenderContext) -> String { TestRenderer.text(report, style: context.style) }
}

extension TestRenderer {
    /// Each file's tests with marks, failures with expected vs actual and the decision, then `N passed, N failed`.
    public static func text(_ report: TestReport, style: TerminalStyle) -> String {
        var out: [String] = []
        for d in report.unreadable { out.append(DiagnosticRenderer.text(d, source: nil, style: style)) }
        for file in report.files {
            let name = file.document.policy?.name ?? "policy with errors"
            out.append(style.bold(file.document.source.path.visible) + style.dim("  (\(name.visible))"))
            if file.document.hasErrors {
                for d in file.document.diagnostics where d.severity == .error {
                    out.append(DiagnosticRenderer.text(d, source: file.document.source, style: style).indented(4))
                }
                out.append("    " + style.red("✗ the policy has errors; its tests were not run"))
            }
            for outcome in file.outcomes {
                let where_ = "\(file.document.source.path.visible):\(outcome.test.span.start.line):\(outcome.test.span.start.column)"
                if outcome.passed {
                    out.append("  \(style.green("✓")) \(outcome.test.name.visible)")
                    continue
                }
                out.append("  \(style.red("✗")) \(style.bold(outcome.test.name.visible))  \(style.dim(where_))")
                for d in outcome.errors {
                    out.append(DiagnosticRenderer.text(d, source: d.file == file.document.source.path ? file.document.source : nil, style: style).indented(6))
                }
                if outcome.errors.isEmpty {
                    out.append("      expected: " + expected(outcome.test))
                    out.append("      actual:   " + actual(outcome))
                    for m in outcome.mismatches { out.append("      " + style.red("≠ ") + m) }
                    if let decision = outcome.decision {
                        out += DecisionText.lines(decision, style: style).map { "      " + $0 }
                    } else if let reason = outcome.invalidReason {
                        out.append("      invalid: \(reason.visible)")
                    }
                }
            }
        }
        let summary = "\(report.passed) passed, \(report.failed) failed"
        out.append("")
        out.append(report.failed > 0 || !report.unreadable.isEmpty ? style.red(summary) : style.green(summary))
        return out.joined(separator: "\n") + "\n"
    }

    static func expected(_ t: PolicyTest) -> String {
        var s = t.decision.rawValue
        if let target = t.target { s += " → \(target)" }
        if !t.rules.isEmpty { s += ", violating \(t.rules.joined(separator: ", ").visible)" }
        return s
    }

    static func actual(_ o: TestOutcome) -> String {
        guard let d = o.decision else { return o.actualWord }
        var s = "\(d.kind.rawValue) → \(d.target)"
        if !d.violations.isEmpty { s += ", violating \(d.violations.map(\.rule).joined(separator: ", ").visible)" }
        return s
    }
}
