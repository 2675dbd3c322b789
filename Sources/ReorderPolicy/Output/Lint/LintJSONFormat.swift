import SpannedYAML

/// `lint --format json`: SPEC §5.2's document.
public struct LintJSONFormat: ReportFormat {
    public let name = "json"
    public let isJSONDocument = true
    public init() {}
    public func render(_ report: LintReport, _ context: RenderContext) -> String { DiagnosticRenderer.lintJSON(report) }
}

extension DiagnosticRenderer {
    /// SPEC §5.2: `{ "diagnostics": [...], "summary": {...} }`.
    public static func lintJSON(_ report: LintReport) -> String {
        var w = JSONWriter()
        w.raw("{\n  \"diagnostics\": [")
        for (n, d) in report.diagnostics.enumerated() {
            w.raw(n == 0 ? "\n    " : ",\n    ")
            diagnosticJSON(d, into: &w)
        }
        if !report.suppressed.isEmpty {
            // Acknowledged findings, apart from the counted ones, each with its waiver's reason.
            w.raw(report.diagnostics.isEmpty ? "],\n  \"suppressed\": [" : "\n  ],\n  \"suppressed\": [")
            for (n, s) in report.suppressed.enumerated() {
                w.raw(n == 0 ? "\n    " : ",\n    ")
                w.raw("{ \"justification\": ")
                w.string(s.justification)
                w.raw(", \"diagnostic\": ")
                diagnosticJSON(s.diagnostic, into: &w)
                w.raw(" }")
            }
        }
        w.closeList(empty: report.diagnostics.isEmpty && report.suppressed.isEmpty, summary: [
            "files": report.documents.count, "errors": report.errors, "warnings": report.warnings,
        ])
        return w.text
    }
}
