/// An open document's text, edited as the client says, with the conversions between the
/// protocol's positions (0-based line, UTF-16 offset) and the loader's marks (1-based line,
/// column in Unicode scalars).
struct TextDocument: Sendable {
    var uri: String
    var version: Int
    private(set) var text: String

    init(uri: String, version: Int, text: String) {
        self.uri = uri
        self.version = version
        self.text = text
    }

    /// Applies one change: the whole text, or a range replaced (positions past a line's end
    /// or the text's end are clamped to it, as the protocol says).
    mutating func apply(_ change: ContentChange) {
        guard let range = change.range else {
            text = change.text
            return
        }
        let lower = index(range.start), upper = max(lower, index(range.end))
        text.replaceSubrange(lower..<upper, with: change.text)
    }

    /// The index of `p` in the text.
    func index(_ p: Position) -> String.Index {
        let utf8 = text.utf8
        var i = utf8.startIndex
        var line = 0
        while line < p.line {
            guard let newline = utf8[i...].firstIndex(of: 0x0A) else { return text.endIndex }
            i = utf8.index(after: newline)
            line += 1
        }
        let utf16 = text.utf16
        var units = 0
        while units < p.character, i < text.endIndex, utf16[i] != 0x0A, utf16[i] != 0x0D {
            i = utf16.index(after: i)
            units += 1
        }
        return i
    }

    /// The text of 0-based line `n` (without its line break), or "" past the end.
    func line(_ n: Int) -> Substring {
        let utf8 = text.utf8
        var i = utf8.startIndex
        for _ in 0..<n {
            guard let newline = utf8[i...].firstIndex(of: 0x0A) else { return "" }
            i = utf8.index(after: newline)
        }
        var end = utf8[i...].firstIndex(of: 0x0A) ?? utf8.endIndex
        if end > i, utf8[utf8.index(before: end)] == 0x0D { end = utf8.index(before: end) }
        return text[i..<end]
    }

    /// The number of lines (a final line break starts an empty last line).
    var lineCount: Int { text.utf8.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) } }

    /// The protocol position of a loader mark: `line` 1-based, `column` 1-based in Unicode scalars.
    func position(line: Int, column: Int) -> Position {
        let text = self.line(max(line - 1, 0))
        var units = 0
        var scalars = 0
        for scalar in text.unicodeScalars {
            if scalars >= column - 1 { break }
            units += scalar.utf16.count
            scalars += 1
        }
        return Position(line: max(line - 1, 0), character: units)
    }

    /// The range of the whole text.
    var wholeRange: Range {
        let last = lineCount - 1
        return Range(start: Position(line: 0, character: 0), end: Position(line: last, character: line(last).utf16.count))
    }

    /// The word (letters, digits, `-`, `_`, `.`) around `p`, with its range.
    func word(at p: Position) -> (String, Range)? {
        let text = line(p.line)
        let units = Array(text.utf16)
        func isWord(_ u: UInt16) -> Bool {
            (u >= 0x30 && u <= 0x39) || (u >= 0x41 && u <= 0x5A) || (u >= 0x61 && u <= 0x7A) || u == 0x2D || u == 0x5F || u == 0x2E || u > 0x7F
        }
        var start = min(p.character, units.count), end = start
        while start > 0, isWord(units[start - 1]) { start -= 1 }
        while end < units.count, isWord(units[end]) { end += 1 }
        guard start < end else { return nil }
        let word = String(decoding: units[start..<end], as: UTF16.self)
        return (word, Range(start: Position(line: p.line, character: start), end: Position(line: p.line, character: end)))
    }

    /// The line before `p` up to it.
    func prefix(at p: Position) -> String {
        let units = Array(line(p.line).utf16)
        return String(decoding: units[..<min(p.character, units.count)], as: UTF16.self)
    }
}
