import SpannedYAML

/// `fmt`: lays out a policy (or table, or moves) file canonically and keeps every comment.
///
/// libyaml's events carry no comments, so the formatter works from the source text and the
/// nodes' byte spans: comments are the `#`s outside every scalar, each re-emitted before the
/// node that follows it (a comment on its own line) or at the end of the line of the token
/// before it (a trailing comment). Scalars are copied from the source byte for byte, so
/// quoting, escapes and block scalars keep their exact text. What changes (docs/FORMAT.md):
/// two-space indentation, block sequences indented under their key, one space after `:` and
/// `-`, flow collections written `{ a: 1, b: [x, y] }`, no trailing spaces, at most one blank
/// line in a row, no `---`/`...` markers, one newline at the end.
///
/// Trailing comments line up as gofmt lines them up. A run of two or more consecutive output
/// lines that each end in a trailing comment has its comments start at one column: the column
/// the author used, when every comment of the run stood at that one column in the input and it
/// still leaves a space after the run's longest code; otherwise one space after the run's
/// longest code. A blank line, a comment on its own line or a line without a comment ends a
/// run; a lone trailing comment follows its code after one space. Columns count characters.
/// Formatting the result again finds the comments of each run at one column that clears the
/// code, so it keeps them there: `fmt` stays idempotent.
///
/// Every result is checked before it is returned: it must parse to the same tree (every
/// scalar's text and style) with the same comments, else the file is reported
/// `format-unsafe` and left alone. The formatter never changes what a file means.
public enum YAMLFormatter {
    /// The formatted text, or diagnostics (YAML errors, or `format-unsafe`).
    public struct Result: Sendable {
        /// The canonical text; nil when the file cannot be formatted.
        public var text: String?
        /// Why not.
        public var diagnostics: [Diagnostic]
    }

    /// Formats `source`. A byte order mark that opens it is not kept: the text after it is
    /// what is read and laid out (the reader's offsets count from there).
    public static func format(_ source: SourceFile) -> Result {
        let bytes = Array(source.bytes.dropFirst(ByteOrderMark.length(source.bytes)))
        let parsed = YAMLDocument.parse(bytes, file: source.path)
        guard parsed.diagnostics.isEmpty else { return Result(text: nil, diagnostics: parsed.diagnostics) }
        guard let root = parsed.root.map({ ByteOffsets(bytes).remap($0) }) else {
            // Only comments (or nothing): keep the comments.
            let comments = Comments(bytes, scalars: [])
            let text = comments.items.map(\.text).joined(separator: "\n")
            return Result(text: text.isEmpty ? "" : text + "\n", diagnostics: [])
        }
        var printer = Printer(bytes: bytes, root: root)
        let text = printer.document()
        if let problem = check(original: root, bytes: bytes, formatted: text, file: source.path) {
            return Result(text: nil, diagnostics: [Diagnostic(
                code: .formatUnsafe, message: "cannot lay this file out without changing it (\(problem)); it is left as it is",
                file: source.path, span: root.span,
                help: "please report it with the file; meanwhile the file is valid as it stands")])
        }
        return Result(text: text, diagnostics: [])
    }

    /// Nil when `formatted` parses to the same tree as `original` with the same comments.
    static func check(original: YAMLNode, bytes: [UInt8], formatted: String, file: String) -> String? {
        let output = Array(formatted.utf8)
        let again = YAMLDocument.parse(output, file: file)
        guard again.diagnostics.isEmpty, let parsed = again.root else { return "the result does not parse" }
        let root = ByteOffsets(output).remap(parsed)
        guard same(original, root) else { return "the result reads differently" }
        let before = Comments(bytes, scalars: scalarRanges(original)).items.map(\.text)
        let after = Comments(output, scalars: scalarRanges(root)).items.map(\.text)
        guard before == after else { return "a comment would be lost or moved out of order" }
        return nil
    }

    /// Same content: scalars by text and style (plain, quoted or block matters to the loader), keys in order.
    static func same(_ a: YAMLNode, _ b: YAMLNode) -> Bool {
        switch (a.content, b.content) {
        case (.scalar(let x, let s), .scalar(let y, let t)): return x == y && s == t
        case (.sequence(let x), .sequence(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.mapping(let x), .mapping(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0.key, $1.key) && same($0.value, $1.value) }
        case (.scalar, _), (.sequence, _), (.mapping, _), (.invalid, _): return false
        }
    }

    /// Byte ranges of every scalar (keys included), where a `#` is text, not a comment.
    static func scalarRanges(_ node: YAMLNode) -> [Range<Int>] {
        var out: [Range<Int>] = []
        func walk(_ n: YAMLNode) {
            switch n.content {
            case .scalar: if n.span.end.offset > n.span.start.offset { out.append(n.span.start.offset..<n.span.end.offset) }
            case .sequence(let items): items.forEach(walk)
            case .mapping(let entries):
                for e in entries {
                    walk(e.key)
                    walk(e.value)
                }
            case .invalid: break
            }
        }
        walk(node)
        return out.sorted { $0.lowerBound < $1.lowerBound }
    }
}

/// libyaml counts offsets in Unicode scalars; the formatter slices bytes. An ASCII file needs no
/// table; otherwise one entry per scalar (4 bytes each) maps an index to its byte offset.
struct ByteOffsets {
    private let table: [Int32]?

    init(_ bytes: [UInt8]) {
        guard bytes.contains(where: { $0 >= 0x80 }) else {
            table = nil
            return
        }
        var table: [Int32] = []
        table.reserveCapacity(bytes.count + 1)
        for (k, b) in bytes.enumerated() where b & 0xC0 != 0x80 { table.append(Int32(k)) }
        table.append(Int32(bytes.count))
        self.table = table
    }

    func byte(_ index: Int) -> Int {
        guard let table else { return index }
        return Int(table[Swift.min(Swift.max(index, 0), table.count - 1)])
    }

    /// The node with every span's offsets in bytes.
    func remap(_ node: YAMLNode) -> YAMLNode {
        guard table != nil else { return node }
        var span = node.span
        span.start.offset = byte(span.start.offset)
        span.end.offset = byte(span.end.offset)
        switch node.content {
        case .sequence(let items): return YAMLNode(.sequence(items.map(remap)), span: span)
        case .mapping(let entries):
            return YAMLNode(.mapping(entries.map { e in
                var copy = e
                copy.key = remap(e.key)
                copy.value = remap(e.value)
                return copy
            }), span: span)
        case .scalar, .invalid: return YAMLNode(node.content, span: span)
        }
    }
}

/// The comments of a file: each `#` outside every scalar that starts the line or follows a space or tab.
struct Comments {
    struct Item {
        /// Byte offset of the `#`.
        let offset: Int
        /// 1-based line.
        let line: Int
        /// From `#` to the end of the line, trailing spaces removed.
        let text: String
        /// Whether code stands before it on its line.
        let trailing: Bool
        /// 1-based column of the `#`, in characters.
        let column: Int
    }

    private(set) var items: [Item] = []

    init(_ bytes: [UInt8], scalars: [Range<Int>]) {
        var k = 0, line = 1, lineStart = 0, r = 0
        var codeOnLine = false
        while k < bytes.count {
            let b = bytes[k]
            if b == UInt8(ascii: "\n") {
                line += 1
                lineStart = k + 1
                codeOnLine = false
                k += 1
                continue
            }
            while r < scalars.count && scalars[r].upperBound <= k { r += 1 }
            let inScalar = r < scalars.count && scalars[r].contains(k)
            if !inScalar && b == UInt8(ascii: "#") && (k == lineStart || bytes[k - 1] == 0x20 || bytes[k - 1] == 0x09) {
                var e = k
                while e < bytes.count && bytes[e] != UInt8(ascii: "\n") { e += 1 }
                var t = e
                while t > k && (bytes[t - 1] == 0x20 || bytes[t - 1] == 0x09 || bytes[t - 1] == 0x0D) { t -= 1 }
                let column = String(decoding: bytes[lineStart..<k], as: UTF8.self).count + 1
                items.append(Item(offset: k, line: line, text: String(decoding: bytes[k..<t], as: UTF8.self), trailing: codeOnLine, column: column))
                k = e
                continue
            }
            if inScalar || (b != 0x20 && b != 0x09 && b != 0x0D) { codeOnLine = true }
            k += 1
        }
    }
}

/// Writes the canonical layout, node by node, with the comments in between.
private struct Printer {
    let bytes: [UInt8]
    let root: YAMLNode
    let comments: [Comments.Item]
    /// Per 1-based line, whether it holds only spaces (a blank line to keep, once).
    let blank: [Bool]
    var next = 0
    /// Comments already written as part of a node kept as written.
    var consumed: [Bool]
    var lines: [String] = []
    var current = ""
    /// The last source line emitted (for trailing comments and blank lines).
    var lastLine = 0
    /// The current output line ends inside a block scalar: no comment may follow on it.
    var lineIsBlockScalar = false
    /// The trailing comments of the current output line, written when it ends.
    var lineComments: [Comments.Item] = []
    /// Output lines that end in one trailing comment: where the code ends and where the
    /// author put the comment, for lining comments up (``alignTrailingComments()``).
    var trailing: [TrailingComment] = []

    struct TrailingComment {
        /// Index in `lines`.
        let line: Int
        /// The line's code, without the comment.
        let code: String
        let comment: Comments.Item
    }

    init(bytes: [UInt8], root: YAMLNode) {
        self.bytes = bytes
        self.root = root
        comments = Comments(bytes, scalars: YAMLFormatter.scalarRanges(root)).items
        consumed = [Bool](repeating: false, count: comments.count)
        var blank = [false]
        var only = true
        for b in bytes {
            if b == UInt8(ascii: "\n") {
                blank.append(only)
                only = true
            } else if b != 0x20 && b != 0x09 && b != 0x0D {
                only = false
            }
        }
        blank.append(only)
        self.blank = blank
    }

    mutating func document() -> String {
        let r = root
        switch r.content {
        case .mapping(let entries) where !isFlow(r):
            mappingEntries(entries, indent: 0, oldIndent: r.span.start.column - 1, firstInline: false)
        case .sequence(let items) where !isFlow(r):
            sequence(items, indent: 0, oldIndent: r.span.start.column - 1)
        case .scalar, .sequence, .mapping, .invalid:
            startLine(0, at: r.span.start)
            current += inline(r, oldIndent: r.span.start.column - 1, newIndent: 0)
            lastLine = r.span.end.line
            endLine()
        }
        // Comments after the last node.
        flushComments(before: Int.max, line: Int.max, indent: 0)
        if !current.isEmpty { endLine() }
        while lines.last == "" { lines.removeLast() }
        alignTrailingComments()
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    // MARK: Block context

    mutating func mappingEntries(_ entries: [YAMLEntry], indent: Int, oldIndent: Int, firstInline: Bool) {
        for (n, entry) in entries.enumerated() {
            if !(n == 0 && firstInline) { startLine(indent, at: entry.key.span.start) }
            current += slice(entry.key)
            current += ":"
            lastLine = entry.key.span.end.line
            value(entry.value, indent: indent, oldIndent: entry.key.span.start.column - 1)
        }
    }

    /// A mapping value, after `key:` on the current line.
    mutating func value(_ v: YAMLNode, indent: Int, oldIndent: Int) {
        switch v.content {
        case .scalar(let text, let style):
            if style.isPlain && text.isEmpty && v.span.end.offset == v.span.start.offset {
                endLine()
                return
            }
            current += " "
            scalarInline(v, oldIndent: oldIndent, newIndent: indent)
            endLine()
        case .mapping(let entries) where !isFlow(v) && !entries.isEmpty:
            endLine()
            mappingEntries(entries, indent: indent + 2, oldIndent: v.span.start.column - 1, firstInline: false)
        case .sequence(let items) where !isFlow(v) && !items.isEmpty:
            endLine()
            sequence(items, indent: indent + 2, oldIndent: v.span.start.column - 1)
        case .sequence, .mapping, .invalid:
            current += " " + inline(v, oldIndent: oldIndent, newIndent: indent)
            lastLine = Swift.max(lastLine, v.span.end.line)
            endLine()
        }
    }

    mutating func sequence(_ items: [YAMLNode], indent: Int, oldIndent: Int) {
        for item in items {
            startLine(indent, at: item.span.start)
            current += "-"
            switch item.content {
            case .mapping(let entries) where !isFlow(item) && !entries.isEmpty:
                current += " "
                mappingEntries(entries, indent: indent + 2, oldIndent: item.span.start.column - 1, firstInline: true)
            case .sequence(let nested) where !isFlow(item) && !nested.isEmpty:
                endLine()
                sequence(nested, indent: indent + 2, oldIndent: item.span.start.column - 1)
            case .scalar(let text, let style) where style.isPlain && text.isEmpty && item.span.end.offset == item.span.start.offset:
                endLine()
            case .scalar:
                current += " "
                scalarInline(item, oldIndent: oldIndent, newIndent: indent)
                endLine()
            case .sequence, .mapping, .invalid:
                current += " " + inline(item, oldIndent: oldIndent, newIndent: indent)
                lastLine = Swift.max(lastLine, item.span.end.line)
                endLine()
            }
        }
    }

    mutating func scalarInline(_ v: YAMLNode, oldIndent: Int, newIndent: Int) {
        current += shifted(slice(v), by: newIndent - oldIndent)
        lastLine = v.span.end.line
        if let style = v.scalarStyle, style == .literal || style == .folded {
            // The block's end mark stands after its last line break.
            while current.hasSuffix("\n") { current.removeLast() }
            lastLine = v.span.end.column == 1 ? v.span.end.line - 1 : v.span.end.line
            lineIsBlockScalar = true
        }
    }

    // MARK: Flow context

    /// A flow collection or scalar on one line, canonical; or, when it was written over several
    /// lines (the author's wrapping) or has comments inside, its source text with continuation
    /// lines shifted like the block around it.
    mutating func inline(_ node: YAMLNode, oldIndent: Int, newIndent: Int) -> String {
        let range = node.span.start.offset..<node.span.end.offset
        var inside = false
        var i = next
        while i < comments.count && comments[i].offset < range.upperBound {
            if range.contains(comments[i].offset) {
                consumed[i] = true
                inside = true
            }
            i += 1
        }
        if inside || node.span.start.line != node.span.end.line {
            // Kept as written; the comments inside go with it.
            return shifted(slice(node), by: newIndent - oldIndent)
        }
        return flow(node)
    }

    func flow(_ node: YAMLNode) -> String {
        switch node.content {
        case .scalar: return slice(node)
        case .sequence(let items): return "[" + items.map(flow).joined(separator: ", ") + "]"
        case .mapping(let entries):
            if entries.isEmpty { return "{}" }
            return "{ " + entries.map { e in
                let v = flow(e.value)
                return slice(e.key) + ":" + (v.isEmpty ? " " : " " + v)
            }.joined(separator: ", ") + " }"
        case .invalid: return ""
        }
    }

    // MARK: Lines, comments, blank lines

    /// Starts an output line at `indent` for a node at `mark`: comments before it first, and
    /// one blank line where the source had any.
    mutating func startLine(_ indent: Int, at mark: Mark) {
        if !current.isEmpty { endLine() }
        flushComments(before: mark.offset, line: mark.line, indent: indent)
        blankLine(before: mark.line)
        current = String(repeating: " ", count: indent)
    }

    mutating func skipConsumed() {
        while next < comments.count && consumed[next] { next += 1 }
    }

    mutating func flushComments(before offset: Int, line: Int, indent: Int) {
        skipConsumed()
        while next < comments.count && comments[next].offset < offset {
            let c = comments[next]
            next += 1
            if c.trailing && c.line <= lastLine && !current.isEmpty && !lineIsBlockScalar {
                lineComments.append(c)
                skipConsumed()
                continue
            }
            if !current.isEmpty { endLine() }
            blankLine(before: c.line)
            lines.append(String(repeating: " ", count: indent) + c.text)
            lastLine = c.line
            skipConsumed()
        }
    }

    mutating func blankLine(before line: Int) {
        guard !lines.isEmpty, lines.last != "", lastLine > 0 else { return }
        let upper = Swift.min(line, blank.count)
        if lastLine + 1 < upper, (lastLine + 1..<upper).contains(where: { blank[$0] }) { lines.append("") }
    }

    /// Ends the current line, with a trailing comment of its source line if there is one.
    mutating func endLine() {
        if !lineIsBlockScalar {
            skipConsumed()
            while next < comments.count && comments[next].trailing && comments[next].line <= lastLine {
                lineComments.append(comments[next])
                next += 1
                skipConsumed()
            }
        }
        var text = current
        while text.hasSuffix(" ") { text.removeLast() }
        var pieces = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if !lineComments.isEmpty {
            let code = pieces[pieces.count - 1]
            pieces[pieces.count - 1] = code + " " + lineComments.map(\.text).joined(separator: " ")
            if lineComments.count == 1 {
                trailing.append(TrailingComment(line: lines.count + pieces.count - 1, code: code, comment: lineComments[0]))
            }
        }
        lines.append(contentsOf: pieces)
        current = ""
        lineComments = []
        lineIsBlockScalar = false
    }

    /// Lines up the trailing comments of each run of consecutive lines (the rule is in
    /// ``YAMLFormatter``'s documentation): at the author's column when they all stood at one
    /// column that still clears the run's code, else one space after its longest code.
    mutating func alignTrailingComments() {
        var start = 0
        while start < trailing.count {
            var end = start + 1
            while end < trailing.count && trailing[end].line == trailing[end - 1].line + 1 { end += 1 }
            let run = trailing[start..<end]
            start = end
            guard run.count > 1 else { continue }
            let longest = run.map(\.code.count).max() ?? 0
            let columns = Set(run.map(\.comment.column))
            // 0-based offset where the comments start.
            var at = longest + 1
            if columns.count == 1, let column = columns.first, column - 1 > longest { at = column - 1 }
            for t in run {
                lines[t.line] = t.code + String(repeating: " ", count: at - t.code.count) + t.comment.text
            }
        }
    }

    // MARK: Source text

    func isFlow(_ node: YAMLNode) -> Bool {
        let o = node.span.start.offset
        return o < bytes.count && (bytes[o] == UInt8(ascii: "[") || bytes[o] == UInt8(ascii: "{"))
    }

    func slice(_ node: YAMLNode) -> String {
        let a = Swift.max(0, Swift.min(node.span.start.offset, bytes.count))
        let b = Swift.max(a, Swift.min(node.span.end.offset, bytes.count))
        return String(decoding: bytes[a..<b], as: UTF8.self)
    }

    /// Continuation lines moved right (or left, as far as they have spaces) by `delta`.
    func shifted(_ text: String, by delta: Int) -> String {
        guard delta != 0, text.contains("\n") else { return text }
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for i in parts.indices.dropFirst() where !parts[i].isEmpty {
            if delta > 0 {
                parts[i] = String(repeating: " ", count: delta) + parts[i]
            } else {
                let spaces = parts[i].prefix { $0 == " " }.count
                parts[i].removeFirst(Swift.min(spaces, -delta))
            }
        }
        return parts.joined(separator: "\n")
    }
}
