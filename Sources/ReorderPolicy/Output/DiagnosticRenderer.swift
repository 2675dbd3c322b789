import SpannedYAML
/// Turns one diagnostic into text (with its code frame) or a JSON object. Whole reports are
/// rendered by `lint`'s formats, one file each in Output/Lint/ (``LintReport/formats``).
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
        if let claim = d.claim {
            w.key("claim")
            w.bytes(claim.json)
        }
        w.raw(" }")
    }

}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
