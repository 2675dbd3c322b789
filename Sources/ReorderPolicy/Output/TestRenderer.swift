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
        ], between: { w in
            // Paths that could not be read (exit status 2), as lint's JSON reports them.
            w.raw("  \"diagnostics\": [")
            for (n, d) in report.unreadable.enumerated() {
                w.raw(n == 0 ? "\n    " : ",\n    ")
                DiagnosticRenderer.diagnosticJSON(d, into: &w)
            }
            w.raw(report.unreadable.isEmpty ? "],\n" : "\n  ],\n")
        })
        return w.text
    }

    /// JUnit XML: one testsuite per policy file, one testcase per test (and one `load policy`
    /// testcase in error for a policy that does not load). The root's totals are the sums of
    /// the suites'. Only attributes of the common JUnit schema are written; a test's location
    /// is the first line of its failure or error text.
    public static func junit(_ report: TestReport) -> String {
        struct Suite { var tests = 0, failures = 0, errors = 0, body = "" }
        var suites: [(name: String, suite: Suite)] = []
        for file in report.files {
            let path = file.document.source.path
            let name = file.document.policy?.name ?? path
            var suite = Suite()
            if file.document.hasErrors {
                let body = file.document.diagnostics.filter { $0.severity == .error }
                    .map { "\($0.file):\($0.span.start.line):\($0.span.start.column): error[\($0.code)]: \($0.message)" }.joined(separator: "\n")
                suite.tests += 1
                suite.errors += 1
                suite.body += "    <testcase name=\"load policy\" classname=\"\(attribute(name))\">\n"
                suite.body += "      <error message=\"the policy has errors\" type=\"policy-error\">\(xml(body))</error>\n"
                suite.body += "    </testcase>\n"
            }
            for o in file.outcomes {
                suite.tests += 1
                suite.body += "    <testcase name=\"\(attribute(o.test.name))\" classname=\"\(attribute(name))\""
                if o.passed {
                    suite.body += "/>\n"
                    continue
                }
                suite.body += ">\n"
                let location = "\(path):\(o.test.span.start.line):\(o.test.span.start.column)"
                if !o.errors.isEmpty {
                    suite.errors += 1
                    let body = o.errors.map { "\($0.file):\($0.span.start.line):\($0.span.start.column): error[\($0.code)]: \($0.message)" }
                    suite.body += "      <error message=\"\(attribute(o.errors[0].message))\" type=\"table-error\">\(xml(([location] + body).joined(separator: "\n")))</error>\n"
                } else {
                    suite.failures += 1
                    var body = [location, "expected: " + expected(o.test), "actual:   " + actual(o)] + o.mismatches
                    if let d = o.decision { body += DecisionText.lines(d, style: .plain) }
                    suite.body += "      <failure message=\"\(attribute(o.mismatches.joined(separator: "; ")))\" type=\"mismatch\">\(xml(body.joined(separator: "\n")))</failure>\n"
                }
                suite.body += "    </testcase>\n"
            }
            suites.append((path, suite))
        }
        let tests = suites.reduce(0) { $0 + $1.suite.tests }, failures = suites.reduce(0) { $0 + $1.suite.failures }
        let errors = suites.reduce(0) { $0 + $1.suite.errors } + report.unreadable.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"reorder-policy\" tests=\"\(tests + report.unreadable.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        for (name, suite) in suites {
            out += "  <testsuite name=\"\(attribute(name))\" tests=\"\(suite.tests)\" failures=\"\(suite.failures)\" errors=\"\(suite.errors)\" skipped=\"0\">\n"
            out += suite.body
            out += "  </testsuite>\n"
        }
        for d in report.unreadable {
            // A path that could not be read is a suite with one test in error, not an empty document.
            out += "  <testsuite name=\"\(attribute(d.file))\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n"
            out += "    <testcase name=\"read policy\" classname=\"\(attribute(d.file))\">\n"
            out += "      <error message=\"\(attribute(d.message))\" type=\"\(attribute(d.code.rawValue))\">\(xml("\(d.file):\(d.span.start.line):\(d.span.start.column): error[\(d.code)]: \(d.message)"))</error>\n"
            out += "    </testcase>\n  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// Text for an attribute value: as ``xml(_:)``, with line breaks and tabs as character
    /// references (a raw one would be normalised to a space, or split a name in two).
    static func attribute(_ s: String) -> String {
        var out = ""
        for scalar in xml(s).unicodeScalars {
            switch scalar {
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(scalar)
            }
        }
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
