/// Renders `test` results as text, JSON and JUnit XML.
public enum TestRenderer {
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

    /// Files, tests (status, expected, actual result, mismatches, errors) and a summary.
    public static func json(_ report: TestReport) -> String {
        var w = JSONWriter()
        w.raw("{\n  \"files\": [")
        for (n, file) in report.files.enumerated() {
            w.raw(n == 0 ? "\n    " : ",\n    ")
            w.raw("{\"file\": ")
            w.string(file.document.source.path)
            w.raw(", \"policy\": ")
            DecisionJSON.optionalString(file.document.policy?.name, into: &w)
            w.raw(", \"errors\": [")
            for (m, d) in file.document.diagnostics.filter({ $0.severity == .error }).enumerated() {
                if m > 0 { w.raw(", ") }
                DiagnosticRenderer.diagnosticJSON(d, into: &w)
            }
            w.raw("], \"tests\": [")
            for (m, o) in file.outcomes.enumerated() {
                w.raw(m == 0 ? "\n      " : ",\n      ")
                w.raw("{\"name\": ")
                w.string(o.test.name)
                w.raw(", \"location\": ")
                DecisionJSON.location(SourceLocation(file: file.document.source.path, line: o.test.span.start.line, column: o.test.span.start.column), into: &w)
                w.raw(", \"status\": ")
                w.string(o.passed ? "pass" : (o.errors.isEmpty ? "fail" : "error"))
                w.raw(", \"expected\": {\"decision\": ")
                w.string(o.test.decision.rawValue)
                if let target = o.test.target {
                    w.raw(", \"target\": ")
                    DecisionJSON.destination(target, into: &w)
                }
                w.raw(", \"rules\": [")
                for (k, r) in o.test.rules.enumerated() {
                    if k > 0 { w.raw(", ") }
                    w.string(r)
                }
                w.raw("]}, \"actual\": ")
                if let d = o.decision {
                    DecisionJSON.result(d, into: &w)
                } else if let reason = o.invalidReason {
                    DecisionJSON.invalid(given: { DecisionJSON.move(o.test.move, into: &$0) }, error: reason, into: &w)
                } else {
                    w.raw("null")
                }
                w.raw(", \"mismatches\": [")
                for (k, mismatch) in o.mismatches.enumerated() {
                    if k > 0 { w.raw(", ") }
                    w.string(mismatch)
                }
                w.raw("], \"errors\": [")
                for (k, d) in o.errors.enumerated() {
                    if k > 0 { w.raw(", ") }
                    DiagnosticRenderer.diagnosticJSON(d, into: &w)
                }
                w.raw("]}")
            }
            w.raw(file.outcomes.isEmpty ? "]}" : "\n    ]}")
        }
        w.closeList(empty: report.files.isEmpty, summary: [
            "files": report.files.count, "tests": report.total, "passed": report.passed, "failed": report.failed,
        ])
        return w.text
    }

    /// JUnit XML: one testsuite per policy file, one testcase per test.
    public static func junit(_ report: TestReport) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"reorder-policy\" tests=\"\(report.total)\" failures=\"\(report.failed)\" errors=\"0\">\n"
        for file in report.files {
            let path = file.document.source.path
            let name = file.document.policy?.name ?? path
            let failures = file.outcomes.filter { !$0.passed && $0.errors.isEmpty }.count
            let errors = file.outcomes.filter { !$0.errors.isEmpty }.count + (file.document.hasErrors ? 1 : 0)
            let tests = file.outcomes.count + (file.document.hasErrors ? 1 : 0)
            out += "  <testsuite name=\"\(xml(path))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\">\n"
            if file.document.hasErrors {
                let body = file.document.diagnostics.filter { $0.severity == .error }
                    .map { "\($0.file):\($0.span.start.line):\($0.span.start.column): error[\($0.code)]: \($0.message)" }.joined(separator: "\n")
                out += "    <testcase name=\"load policy\" classname=\"\(xml(name))\" file=\"\(xml(path))\">\n"
                out += "      <error message=\"the policy has errors\" type=\"policy-error\">\(xml(body))</error>\n"
                out += "    </testcase>\n"
            }
            for o in file.outcomes {
                out += "    <testcase name=\"\(xml(o.test.name))\" classname=\"\(xml(name))\" file=\"\(xml(path))\" line=\"\(o.test.span.start.line)\""
                if o.passed {
                    out += "/>\n"
                    continue
                }
                out += ">\n"
                let location = "\(path):\(o.test.span.start.line):\(o.test.span.start.column)"
                if !o.errors.isEmpty {
                    let body = o.errors.map { "\($0.file):\($0.span.start.line):\($0.span.start.column): error[\($0.code)]: \($0.message)" }
                    out += "      <error message=\"\(xml(o.errors[0].message))\" type=\"table-error\">\(xml(([location] + body).joined(separator: "\n")))</error>\n"
                } else {
                    var body = [location, "expected: " + expected(o.test), "actual:   " + actual(o)] + o.mismatches
                    if let d = o.decision { body += DecisionText.lines(d, style: .plain) }
                    out += "      <failure message=\"\(xml(o.mismatches.joined(separator: "; ")))\" type=\"mismatch\">\(xml(body.joined(separator: "\n")))</failure>\n"
                }
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    static func xml(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n", "\t", "\r": out.unicodeScalars.append(scalar)
            default:
                // XML 1.0 forbids most control characters even as references.
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { out += "\u{FFFD}" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}

extension String {
    func indented(_ n: Int) -> String {
        let pad = String(repeating: " ", count: n)
        return split(separator: "\n", omittingEmptySubsequences: false).map { pad + $0 }.joined(separator: "\n")
    }
}
