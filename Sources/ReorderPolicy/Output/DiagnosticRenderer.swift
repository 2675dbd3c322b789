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
        for note in d.notes + (d.counterexample?.lines ?? []) { lines.append(style.blue("\(pad) =") + " note: \(note.visible)") }
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
            + (report.suppressed.isEmpty ? "" : ", \(report.suppressed.count) suppressed by waivers")
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

    /// One diagnostic as a JSON object (file, line, column, end, severity, code, message, help).
    package static func diagnosticJSON(_ d: Diagnostic, into w: inout JSONWriter) {
        w.raw("{ ")
        w.key("file", first: true)
        w.string(d.file)
        w.key("line")
        w.int(d.span.start.line)
        w.key("column")
        w.int(d.span.start.column)
        w.key("end-line")
        w.int(d.span.end.line)
        w.key("end-column")
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
        if let counterexample = d.counterexample {
            w.key("counterexample")
            w.bytes(counterexample.json)
        }
        w.raw(" }")
    }

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

    /// SARIF 2.1.0: one run, every code used listed as a rule, results with physical locations.
    public static func sarif(_ report: LintReport, toolVersion: String) -> String {
        // Suppressed findings are results too, marked as suppressed in source (SARIF §3.35):
        // code scanning shows them as dismissed, with the waiver's reason.
        let results = report.diagnostics.map { ($0, nil as String?) } + report.suppressed.map { ($0.diagnostic, $0.justification as String?) }
        let codes = Array(Set(results.map(\.0.code))).sorted()
        let fingerprints = Self.fingerprints(report, results.map(\.0))
        var w = JSONWriter()
        w.raw("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n")
        w.raw("      \"tool\": { \"driver\": { \"name\": \"reorder-policy\", \"version\": ")
        w.string(toolVersion)
        w.raw(", \"rules\": [")
        for (n, code) in codes.enumerated() {
            w.raw(n == 0 ? "\n        " : ",\n        ")
            w.raw("{ \"id\": ")
            w.string(code.rawValue)
            w.raw(", \"name\": ")
            w.string(code.rawValue)
            w.raw(", \"shortDescription\": { \"text\": ")
            w.string(DiagnosticCatalog.summary(code))
            w.raw(" }, \"fullDescription\": { \"text\": ")
            w.string(DiagnosticCatalog.summary(code) + " " + DiagnosticCatalog.help(code))
            w.raw(" }, \"help\": { \"text\": ")
            w.string(DiagnosticCatalog.help(code))
            w.raw(" }, \"defaultConfiguration\": { \"level\": ")
            w.string(results.first { $0.0.code == code }?.0.severity == .warning ? "warning" : "error")
            w.raw(" } }")
        }
        w.raw(codes.isEmpty ? "] } },\n" : "\n      ] } },\n")
        w.raw("      \"results\": [")
        for (n, (d, justification)) in results.enumerated() {
            w.raw(n == 0 ? "\n        " : ",\n        ")
            w.raw("{ \"ruleId\": ")
            w.string(d.code.rawValue)
            w.raw(", \"ruleIndex\": ")
            w.int(codes.firstIndex(of: d.code)!)
            w.raw(", \"level\": ")
            w.string(d.severity == .error ? "error" : "warning")
            w.raw(", \"message\": { \"text\": ")
            w.string(d.help.map { "\(d.message)\nhelp: \($0)" } ?? d.message)
            w.raw(" }, \"partialFingerprints\": { \"reorderPolicyFinding/v1\": ")
            w.string(fingerprints[n])
            w.raw(" }, \"locations\": [ { \"physicalLocation\": { \"artifactLocation\": { \"uri\": ")
            w.string(uriReference(d.file))
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
            w.raw(" } } } ]")
            if let justification {
                w.raw(", \"suppressions\": [ { \"kind\": \"inSource\", \"justification\": ")
                w.string(justification)
                w.raw(" } ]")
            }
            if let counterexample = d.counterexample {
                // A property bag (SARIF §3.8): the table, move and decision that show the finding.
                w.raw(", \"properties\": { \"counterexample\": ")
                w.bytes(counterexample.json)
                w.raw(" }")
            }
            w.raw(" }")
        }
        w.raw(results.isEmpty ? "]\n" : "\n      ]\n")
        w.raw("    }\n  ]\n}\n")
        return w.text
    }
}

extension DiagnosticRenderer {
    /// A path as a SARIF `uri-reference` (RFC 3986): UTF-8 bytes outside the unreserved set and
    /// `/` are percent-encoded, so spaces, `%` and non-ASCII names survive the round trip.
    static func uriReference(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    /// Each finding's identity across commits (GitHub code scanning tracks alerts by it): the
    /// code, the file, the message and the text of the line it points at — not the line
    /// number, so a finding keeps its fingerprint when lines are added above it. Findings that
    /// share all of these are told apart by their order among them. One pass, a line index per file.
    static func fingerprints(_ report: LintReport, _ diagnostics: [Diagnostic]) -> [String] {
        var lines: [String: SourceLines] = [:]
        for document in report.documents { lines[document.source.path] = SourceLines(document.source) }
        var seen: [String: Int] = [:]
        return diagnostics.map { d in
            let text = lines[d.file]?.line(d.span.start.line) ?? ""
            var scalars = Array(text.unicodeScalars)
            while let last = scalars.last, last == " " || last == "\t" || last == "\r" { scalars.removeLast() }
            var trimmed = String.UnicodeScalarView()
            trimmed.append(contentsOf: scalars.drop { $0 == " " || $0 == "\t" })
            let key = "\(d.code.rawValue)\u{0}\(d.file)\u{0}\(trimmed)\u{0}\(d.message)"
            let n = (seen[key] ?? 0) + 1
            seen[key] = n
            return String(DecisionEvent.hash(Array(key.utf8)).dropFirst("fnv1a64:".count)) + ":\(n)"
        }
    }
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
