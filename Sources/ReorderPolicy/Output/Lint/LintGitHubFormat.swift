import SpannedYAML

/// `lint --format github`: GitHub workflow commands (annotations on pull requests).
public struct LintGitHubFormat: ReportFormat {
    public let name = "github"
    public init() {}
    public func render(_ report: LintReport, _ context: RenderContext) -> String { DiagnosticRenderer.github(report) }
}

extension DiagnosticRenderer {
    /// GitHub workflow commands: `::error file=…,line=…,col=…,title=…::message`.
    public static func github(_ report: LintReport) -> String {
        var out = ""
        for d in report.diagnostics {
            let command = d.severity == .error ? "error" : "warning"
            var properties = "file=\(escapeProperty(d.file)),line=\(d.span.start.line),col=\(d.span.start.column)"
            // The span's end, as SARIF's endLine/endColumn (the column after the last character).
            if d.span.end > d.span.start {
                properties += ",endLine=\(d.span.end.line),endColumn=\(d.span.end.column)"
            }
            properties += ",title=\(escapeProperty("reorder-policy \(d.code)"))"
            var message = d.message
            if let help = d.help { message += "\nhelp: \(help)" }
            // The evidence, as the text output shows it (the JSON form is in --format json and SARIF).
            for line in d.counterexample?.lines ?? [] { message += "\n" + line }
            out += "::\(command) \(properties)::\(escapeData(message))\n"
        }
        let files = report.documents.count
        // A workflow command like every other line: stream readers take nothing else.
        out += "::notice title=reorder-policy::checked \(files) policy file\(files == 1 ? "" : "s"): \(report.errors) error\(report.errors == 1 ? "" : "s"), \(report.warnings) warning\(report.warnings == 1 ? "" : "s")\n"
        return out
    }

    /// Escapes a workflow command's message. Works on Unicode scalars, not Characters: `"\r\n"`
    /// is one Character, and a split by Character would let it through and start a new command.
    static func escapeData(_ s: String) -> String {
        escape(s, properties: false)
    }

    /// Escapes a workflow command's property value (also `:` and `,`).
    static func escapeProperty(_ s: String) -> String {
        escape(s, properties: true)
    }

    private static func escape(_ s: String, properties: Bool) -> String {
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            switch scalar {
            case "%": out.append(contentsOf: "%25".unicodeScalars)
            case "\r": out.append(contentsOf: "%0D".unicodeScalars)
            case "\n": out.append(contentsOf: "%0A".unicodeScalars)
            case ":" where properties: out.append(contentsOf: "%3A".unicodeScalars)
            case "," where properties: out.append(contentsOf: "%2C".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
