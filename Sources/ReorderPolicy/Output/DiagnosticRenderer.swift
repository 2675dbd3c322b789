import SpannedYAML
/// Turns diagnostics into text (with code frames), JSON (SPEC §5.2), SARIF 2.1.0 and
/// GitHub workflow annotations. The one place diagnostics become output.
public enum DiagnosticRenderer {
    /// One diagnostic as text: `file:line:col: error[code]: message`, a code frame, and help.
    public static func text(_ d: Diagnostic, source: SourceFile?, style: TerminalStyle) -> String {
        text(d, lines: source.map(SourceLines.init), style: style)
    }

    /// At most this many findings of one file are shown as text (JSON, SARIF and GitHub
    /// output carry them all): a file with 20,000 mistakes gets a readable, bounded report.
    public static let maxShownPerFile = 50

    /// One diagnostic as text, from an indexed source.
    public static func text(_ d: Diagnostic, lines source: SourceLines?, style: TerminalStyle) -> String {
        let severity = d.severity == .error ? style.red("error[\(d.code)]") : style.yellow("warning[\(d.code)]")
        var lines = [style.bold("\(d.file.visible):\(d.span.start.line):\(d.span.start.column):") + " \(severity): " + style.bold(d.message.visible)]
        lines += CodeFrame.render(source, span: d.span, style: style)
        let width = String(d.span.start.line).count
        let pad = String(repeating: " ", count: width)
        for note in d.notes { lines.append(style.blue("\(pad) =") + " note: \(note.visible)") }
        if let help = d.help { lines.append(style.blue("\(pad) =") + " " + style.cyan("help:") + " \(help.visible)") }
        return lines.joined(separator: "\n")
    }

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
        let tail = report.errors > 0 ? style.red(summary) : (report.warnings > 0 ? style.yellow(summary) : style.green(summary))
        return (blocks + [tail]).joined(separator: "\n\n") + "\n"
    }

    /// SPEC §5.2: `{ "diagnostics": [...], "summary": {...} }`.
    public static func lintJSON(_ report: LintReport) -> String {
        var w = JSONWriter()
        w.raw("{\n  \"diagnostics\": [")
        for (n, d) in report.diagnostics.enumerated() {
            w.raw(n == 0 ? "\n    " : ",\n    ")
            diagnosticJSON(d, into: &w)
        }
        w.closeList(empty: report.diagnostics.isEmpty, summary: [
            "files": report.documents.count, "errors": report.errors, "warnings": report.warnings,
        ])
        return w.text
    }

    /// One diagnostic as a JSON object (file, line, column, end, severity, code, message, help).
    package static func diagnosticJSON(_ d: Diagnostic, into w: inout JSONWriter) {
        w.raw("{ ")
        w.key("file", first: true)
        w.string(d.file)
        w.key("line")
        w.int(d.span.start.line)
        w.key("column")
        w.int(d.span.start.column)
        w.key("end_line")
        w.int(d.span.end.line)
        w.key("end_column")
        w.int(d.span.end.column)
        w.key("severity")
        w.string(d.severity.rawValue)
        w.key("code")
        w.string(d.code.rawValue)
        w.key("message")
        w.string(d.message)
        if let help = d.help {
            w.key("help")
            w.string(help)
        }
        w.raw(" }")
    }

    /// GitHub workflow commands: `::error file=…,line=…,col=…,title=…::message`.
    public static func github(_ report: LintReport) -> String {
        var out = ""
        for d in report.diagnostics {
            let command = d.severity == .error ? "error" : "warning"
            var properties = "file=\(escapeProperty(d.file)),line=\(d.span.start.line),col=\(d.span.start.column)"
            if d.span.end.line == d.span.start.line && d.span.end.column > d.span.start.column {
                properties += ",endColumn=\(d.span.end.column)"
            }
            properties += ",title=\(escapeProperty("reorder-policy \(d.code)"))"
            var message = d.message
            if let help = d.help { message += "\nhelp: \(help)" }
            out += "::\(command) \(properties)::\(escapeData(message))\n"
        }
        let files = report.documents.count
        out += "checked \(files) policy file\(files == 1 ? "" : "s"): \(report.errors) error\(report.errors == 1 ? "" : "s"), \(report.warnings) warning\(report.warnings == 1 ? "" : "s")\n"
        return out
    }

    static func escapeData(_ s: String) -> String {
        s.replacingAll("%", "%25").replacingAll("\r", "%0D").replacingAll("\n", "%0A")
    }

    static func escapeProperty(_ s: String) -> String {
        escapeData(s).replacingAll(":", "%3A").replacingAll(",", "%2C")
    }

    /// SARIF 2.1.0: one run, every code used listed as a rule, results with physical locations.
    public static func sarif(_ report: LintReport, toolVersion: String) -> String {
        let codes = Array(Set(report.diagnostics.map(\.code))).sorted()
        var w = JSONWriter()
        w.raw("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n")
        w.raw("      \"tool\": { \"driver\": { \"name\": \"reorder-policy\", \"version\": ")
        w.string(toolVersion)
        w.raw(", \"rules\": [")
        for (n, code) in codes.enumerated() {
            w.raw(n == 0 ? "\n        " : ",\n        ")
            w.raw("{ \"id\": ")
            w.string(code.rawValue)
            w.raw(", \"shortDescription\": { \"text\": ")
            w.string(DiagnosticCatalog.summary(code))
            w.raw(" } }")
        }
        w.raw(codes.isEmpty ? "] } },\n" : "\n      ] } },\n")
        w.raw("      \"results\": [")
        for (n, d) in report.diagnostics.enumerated() {
            w.raw(n == 0 ? "\n        " : ",\n        ")
            w.raw("{ \"ruleId\": ")
            w.string(d.code.rawValue)
            w.raw(", \"ruleIndex\": ")
            w.int(codes.firstIndex(of: d.code)!)
            w.raw(", \"level\": ")
            w.string(d.severity == .error ? "error" : "warning")
            w.raw(", \"message\": { \"text\": ")
            w.string(d.help.map { "\(d.message)\nhelp: \($0)" } ?? d.message)
            w.raw(" }, \"locations\": [ { \"physicalLocation\": { \"artifactLocation\": { \"uri\": ")
            w.string(d.file)
            w.raw(" }, \"region\": { \"startLine\": ")
            w.int(d.span.start.line)
            w.raw(", \"startColumn\": ")
            w.int(d.span.start.column)
            if d.span.end > d.span.start {
                w.raw(", \"endLine\": ")
                w.int(d.span.end.line)
                w.raw(", \"endColumn\": ")
                w.int(d.span.end.column)
            }
            w.raw(" } } } ] }")
        }
        w.raw(report.diagnostics.isEmpty ? "]\n" : "\n      ]\n")
        w.raw("    }\n  ]\n}\n")
        return w.text
    }
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
