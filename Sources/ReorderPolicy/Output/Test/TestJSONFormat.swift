/// `test --format json`: files, tests and a summary as one JSON document.
public struct TestJSONFormat: ReportFormat {
    public let name = "json"
    public let isJSONDocument = true
    public init() {}
    public func render(_ report: TestReport, _ context: RenderContext) -> String { TestRenderer.json(report) }
}

extension TestRenderer {
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
}
