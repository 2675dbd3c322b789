import SpannedYAML
/// Renders a span of a source file as a code frame: a gutter with line numbers, the source
/// line, and carets under the span. Pure text in, text out.
public enum CodeFrame {
    /// The frame for `span` in `source`, optionally labelled under the carets.
    public static func render(_ source: SourceFile?, span: Span, label: String? = nil, lastLine: Int? = nil, style: TerminalStyle) -> [String] {
        render(source.map(SourceLines.init), span: span, label: label, lastLine: lastLine, style: style)
    }

    /// Lines longer than this many characters are shown as a window around the span.
    static let maxShown = 160

    /// The frame for `span` in an indexed source (the lines are found without a scan).
    public static func render(_ lines: SourceLines?, span: Span, label: String? = nil, lastLine: Int? = nil, style: TerminalStyle) -> [String] {
        guard let lines, let first = shownLine(lines, span.start.line, column: span.start.column) else { return [] }
        let endLine = max(span.start.line, min(lastLine ?? span.start.line, span.start.line + 8))
        let width = String(endLine).count
        let pad = String(repeating: " ", count: width)
        var out = [style.blue("\(pad) |")]
        for n in span.start.line...endLine {
            guard let shown = n == span.start.line ? first : shownLine(lines, n, column: 1) else { break }
            let line = shown.text
            out.append(style.blue("\(String(repeating: " ", count: width - String(n).count))\(n) |") + " " + sanitize(line))
            if n == span.start.line {
                // Display position of a column: its offset into the window, after a leading `…`.
                let start = max(1, span.start.column - shown.firstColumn + 1 + shown.lead)
                let lineLength = line.unicodeScalars.count
                var end = span.end.line == span.start.line ? span.end.column - shown.firstColumn + 1 + shown.lead : lineLength + 1
                end = min(end, lineLength + 1)
                // A multi-line node is underlined to the end of its first line; trim trailing blanks.
                if span.end.line != span.start.line {
                    let trimmed = line.unicodeScalars.reversed().drop { $0 == " " }.count
                    end = max(start + 1, trimmed + 1)
                }
                let carets = String(repeating: "^", count: max(1, end - start))
                var underline = style.blue("\(pad) |") + " " + String(repeating: " ", count: start - 1) + style.red(carets)
                if let label { underline += " " + style.red(label) }
                out.append(underline)
            }
        }
        return out
    }

    /// Line `n` as shown: the whole line, or for a long one a window of ``maxShown``
    /// characters around `column` with `…` where it was cut. `firstColumn` is the column of
    /// the first character shown and `lead` 1 when a `…` stands before it. The cost is the
    /// distance to the window, never the whole line.
    static func shownLine(_ lines: SourceLines, _ n: Int, column: Int) -> (text: String, firstColumn: Int, lead: Int)? {
        guard let range = lines.range(n) else { return nil }
        let bytes = lines.source.bytes
        if range.count <= maxShown { return (String(decoding: bytes[range], as: UTF8.self), 1, 0) }
        let wanted = max(1, column - maxShown / 4)
        var i = range.lowerBound, c = 1
        while i < range.upperBound && c < wanted {
            i += 1
            while i < range.upperBound && bytes[i] & 0xC0 == 0x80 { i += 1 }
            c += 1
        }
        let start = i
        var shown = 0
        while i < range.upperBound && shown < maxShown {
            i += 1
            while i < range.upperBound && bytes[i] & 0xC0 == 0x80 { i += 1 }
            shown += 1
        }
        let lead = start > range.lowerBound ? "…" : "", tail = i < range.upperBound ? "…" : ""
        return (lead + String(decoding: bytes[start..<i], as: UTF8.self) + tail, c, lead.isEmpty ? 0 : 1)
    }

    /// Tabs and control characters would shift the caret; show them as spaces and U+FFFD.
    static func sanitize(_ line: String) -> String {
        String(String.UnicodeScalarView(line.unicodeScalars.map { s in
            s == "\t" ? " " : (s.value < 0x20 || s.value == 0x7F ? "\u{FFFD}" : s)
        }))
    }
}
