/// Renders a span of a source file as a code frame: a gutter with line numbers, the source
/// line, and carets under the span. Pure text in, text out.
public enum CodeFrame {
    /// The frame for `span` in `source`, optionally labelled under the carets.
    public static func render(_ source: SourceFile?, span: Span, label: String? = nil, lastLine: Int? = nil, style: TerminalStyle) -> [String] {
        guard let source, let text = source.line(span.start.line) else { return [] }
        let endLine = max(span.start.line, min(lastLine ?? span.start.line, span.start.line + 8))
        let width = String(endLine).count
        let pad = String(repeating: " ", count: width)
        var lines = [style.blue("\(pad) |")]
        for n in span.start.line...endLine {
            guard let line = n == span.start.line ? text : source.line(n) else { break }
            lines.append(style.blue("\(String(repeating: " ", count: width - String(n).count))\(n) |") + " " + sanitize(line))
            if n == span.start.line {
                let start = max(1, span.start.column)
                let lineLength = line.unicodeScalars.count
                var end = span.end.line == span.start.line ? span.end.column : lineLength + 1
                // A multi-line node is underlined to the end of its first line; trim trailing blanks.
                if span.end.line != span.start.line {
                    let trimmed = line.unicodeScalars.reversed().drop { $0 == " " }.count
                    end = max(start + 1, trimmed + 1)
                }
                let carets = String(repeating: "^", count: max(1, end - start))
                var underline = style.blue("\(pad) |") + " " + String(repeating: " ", count: start - 1) + style.red(carets)
                if let label { underline += " " + style.red(label) }
                lines.append(underline)
            }
        }
        return lines
    }

    /// Tabs and control characters would shift the caret; show them as spaces and U+FFFD.
    static func sanitize(_ line: String) -> String {
        String(String.UnicodeScalarView(line.unicodeScalars.map { s in
            s == "\t" ? " " : (s.value < 0x20 || s.value == 0x7F ? "\u{FFFD}" : s)
        }))
    }
}
