/// An open document's text, edited as the client says, with the conversions between the
/// protocol's positions (0-based line, UTF-16 offset; lines end at LF, CR LF or CR) and the
/// loader's marks (1-based line and column in Unicode scalars, lines ending as libyaml ends
/// them: also at NEL, LS and PS).
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

    /// Where 0-based protocol line `n` starts (nil past the last line).
    private func lineStart(_ n: Int) -> String.Index? {
        let utf8 = text.utf8
        var i = utf8.startIndex
        var line = 0
        while line < n {
            guard let br = utf8[i...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else { return nil }
            i = utf8.index(after: br)
            if utf8[br] == 0x0D, i < utf8.endIndex, utf8[i] == 0x0A { i = utf8.index(after: i) }
            line += 1
        }
        return i
    }

    /// The index of `p` in the text.
    func index(_ p: Position) -> String.Index {
        guard var i = lineStart(p.line) else { return text.endIndex }
        let utf16 = text.utf16
        var units = 0
        while units < p.character, i < text.endIndex, utf16[i] != 0x0A, utf16[i] != 0x0D {
            i = utf16.index(after: i)
            units += 1
        }
        return i
    }

    /// The text of 0-based protocol line `n` (without its line break), or "" past the end.
    func line(_ n: Int) -> Substring {
        guard let start = lineStart(n) else { return "" }
        let end = text.utf8[start...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) ?? text.endIndex
        return text[start..<end]
    }

    /// The number of protocol lines (a final line break starts an empty last line).
    var lineCount: Int {
        var count = 1, previous: UInt8 = 0
        for b in text.utf8 {
            if b == 0x0D || (b == 0x0A && previous != 0x0D) { count += 1 }
            previous = b
        }
        return count
    }

    /// The protocol positions of loader marks (`line` and `column` 1-based, the column in
    /// Unicode scalars), in one pass over the text; a column past its line's end is the end.
    func positions(_ marks: [(line: Int, column: Int)]) -> [Position] {
        var out = Array(repeating: Position(line: 0, character: 0), count: marks.count)
        let order = marks.indices.sorted { (marks[$0].line, marks[$0].column) < (marks[$1].line, marks[$1].column) }
        var next = 0
        var loaderLine = 0, column = 0       // the loader's, 0-based
        var line = 0, character = 0          // the protocol's
        var previous: Unicode.Scalar = "\0"
        var first = true
        func emit(upTo: (Int, Int)) {
            while next < order.count, (marks[order[next]].line - 1, marks[order[next]].column - 1) <= upTo {
                out[order[next]] = Position(line: line, character: character)
                next += 1
            }
        }
        for scalar in text.unicodeScalars {
            defer { previous = scalar; first = false }
            if first && scalar == "\u{FEFF}" {  // the loader reads a file from after its byte order mark
                character += 1
                continue
            }
            if scalar == "\n" && previous == "\r" { continue }  // the rest of a CR LF
            emit(upTo: (loaderLine, column))
            switch scalar {
            case "\n", "\r":
                emit(upTo: (loaderLine, Int.max))
                loaderLine += 1; column = 0
                line += 1; character = 0
            case "\u{85}", "\u{2028}", "\u{2029}":
                emit(upTo: (loaderLine, Int.max))
                loaderLine += 1; column = 0
                character += scalar.utf16.count
            default:
                column += 1
                character += scalar.utf16.count
            }
        }
        emit(upTo: (Int.max, Int.max))
        return out
    }

    /// The protocol position of one loader mark.
    func position(line: Int, column: Int) -> Position {
        positions([(line, column)])[0]
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
