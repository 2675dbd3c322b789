import SpannedYAML

/// `lint --format text`: every finding with its code frame, then a summary line.
public struct LintTextFormat: ReportFormat {
    public let name = "text"
    public init() {}
    public func render(_ report: LintReport, _ context: RenderContext) -> String { DiagnosticRenderer.lintText(report, style: context.style) }
}

extension DiagnosticRenderer {
    /// A lint report as text: every finding with its frame, then a summary line.
    public static func lintText(_ report: LintReport, style: TerminalStyle) -> String {
        var blocks: [String] = []
        for d in report.unreadable { blocks.append(text(d, source: nil, style: style)) }
        for document in report.documents {
            let lines = SourceLines(document.source)
            for d in document.diagnostics.prefix(maxShownPerFile) { blocks.append(text(d, lines: lines, style: style)) }
            if document.diagnostics.count > maxShownPerFile {
                let more = document.diagnostics.count - maxShownPerFile
                blocks.append(style.bold("\(document.source.path):") + " … and \(more) more finding\(more == 1 ? "" : "s") in this file (--format json lists them all)")
            }
        }
        let files = report.documents.count
        let summary = "checked \(files) policy file\(files == 1 ? "" : "s"): "
            + "\(report.errors) error\(report.errors == 1 ? "" : "s"), \(report.warnings) warning\(report.warnings == 1 ? "" : "s")"
            + (report.suppressed.isEmpty ? "" : ", \(report.suppressed.count) suppressed by waivers")
        let tail = report.errors > 0 ? style.red(summary) : (report.warnings > 0 ? style.yellow(summary) : style.green(summary))
        return (blocks + [tail]).joined(separator: "\n\n") + "\n"
    }
}
