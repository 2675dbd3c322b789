import SpannedYAML
/// Shared helpers for turning YAML nodes into values while collecting diagnostics:
/// expected types, known keys (with "did you mean"), integers exactly as SPEC §4 reads them.
struct NodeDecoder {
    let file: String
    private(set) var diagnostics: [Diagnostic] = []

    init(file: String) { self.file = file }

    mutating func error(_ code: DiagnosticCode, _ message: String, _ node: some DocumentNode, help: String? = nil) {
        diagnostics.append(Diagnostic(code: code, message: message, file: file, span: node.span, help: help))
    }

    mutating func error(_ code: DiagnosticCode, _ message: String, at span: Span, help: String? = nil) {
        diagnostics.append(Diagnostic(code: code, message: message, file: file, span: span, help: help))
    }

    mutating func append(_ list: [Diagnostic]) { diagnostics += list }

    /// Replaces the help of the diagnostic at `index` (a hint the decoder learns after it).
    mutating func setHelp(_ help: String, at index: Int) { diagnostics[index].help = help }

    /// Reports a type mismatch unless the node was already reported (an alias).
    mutating func mismatch(_ node: some DocumentNode, expected: String) {
        guard !node.isInvalid else { return }
        error(.typeMismatch, "expected \(expected), found \(node.typeName)", node)
    }

    /// The node's entries keyed by name, reporting unknown keys. Nil (and a mismatch) if not a mapping.
    mutating func mapping<Node: DocumentNode>(_ node: Node, in context: String, known: [String]) -> KnownEntries<Node>? {
        guard let entries = node.entries else {
            mismatch(node, expected: "a mapping for \(context)")
            return nil
        }
        // One walk: each known key's entry is kept (the last, should a file repeat a key), each
        // unknown key is reported; one small array, no name made twice.
        var result = KnownEntries<Node>(capacity: entries.underestimatedCount)
        for entry in entries {
            if known.contains(entry.name) {
                result.add(entry)
            } else {
                var message = "unknown key '\(entry.name)' in \(context)"
                if let guess = Self.closest(to: entry.name, in: known) { message += "; did you mean '\(guess)'?" }
                error(.unknownKey, message, entry.key, help: "known keys: \(known.map { "'\($0)'" }.joined(separator: ", "))")
            }
        }
        return result
    }

    /// A mapping's known entries, found in one walk (it is on the request path, for every
    /// section of every table). One small array in file order and nothing else: a slot per
    /// known key, as optional tuples of a generic entry, went through value witnesses and cost
    /// about a microsecond a section (issue #24).
    struct KnownEntries<Node: DocumentNode> {
        /// The known entries in file order (should a file repeat a key, its last entry, at its
        /// last place).
        private(set) var entries: [DocumentEntry<Node>] = []

        init(capacity: Int) {
            entries.reserveCapacity(capacity)
        }

        mutating func add(_ entry: DocumentEntry<Node>) {
            if let k = entries.firstIndex(where: { $0.name == entry.name }) { entries.remove(at: k) }
            entries.append(entry)
        }

        /// The entry named `name`; nil for a name that is not a known key or is absent.
        subscript(_ name: String) -> DocumentEntry<Node>? {
            for entry in entries where entry.name == name { return entry }
            return nil
        }
    }

    /// The scalar's text; empty plain scalars (a key with no value) count as missing values.
    mutating func text(_ node: some DocumentNode, expected: String = "a string") -> String? {
        guard let text = node.scalar, let style = node.scalarStyle, !(style.isPlain && text.isEmpty) else {
            mismatch(node, expected: expected)
            return nil
        }
        return text
    }

    /// Whether `text` has the form `-?[0-9]+` (whatever its size).
    static func isIntegerShaped(_ text: String) -> Bool { FlowYAML.isIntegerShaped(text) }

    /// Parses `-?[0-9]+` without overflow; nil for anything else.
    static func plainInteger(_ text: String) -> Int? { YAMLNode.plainInteger(text.utf8) }

    /// A plain decimal integer (SPEC §4); quoted scalars and anything else are a type mismatch.
    mutating func integer(_ node: YAMLNode, _ what: String, minimum: Int? = nil) -> Int? {
        guard case .scalar(let text, let style) = node.content, style.isPlain, let value = Self.plainInteger(text) else {
            if case .scalar(let text, let style) = node.content, !(style.isPlain && text.isEmpty) {
                let detail = style.isPlain ? "'\(text)'" : "the quoted string '\(text)'"
                let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
                if style.isPlain, !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
                    // The right shape, but past what an integer holds (SPEC §4: no overflow).
                    error(.typeMismatch, "\(what) is too large: '\(text)' does not fit a 64-bit integer", node,
                          help: "write an integer between \(Int.min) and \(Int.max)")
                } else {
                    error(.typeMismatch, "expected an integer for \(what), found \(detail)", node,
                          help: "write a plain decimal integer such as 1 or -1")
                }
            } else {
                mismatch(node, expected: "an integer for \(what)")
            }
            return nil
        }
        if let minimum, value < minimum {
            error(.invalidValue, "\(what) must be at least \(minimum), found \(value)", node)
            return nil
        }
        return value
    }

    /// A scalar or a list of scalars, as strings.
    mutating func strings(_ node: YAMLNode, _ what: String) -> [String]? {
        if let items = node.sequence {
            var out: [String] = []
            for item in items {
                if let t = text(item, expected: "a string in \(what)") { out.append(t) }
            }
            return out
        }
        return text(node, expected: "a string or a list of strings for \(what)").map { [$0] }
    }

    /// The closest known word within a small edit distance.
    /// Suggestions are for typos of short words: longer words (or candidates) are not compared,
    /// so a 100 KB id costs nothing here instead of a quadratic edit distance.
    static let longestSuggested = 64

    static func closest(to word: String, in candidates: [String]) -> String? {
        guard word.utf8.count <= longestSuggested else { return nil }
        let scored = candidates.filter { $0.utf8.count <= longestSuggested }.map { ($0, distance(word.lowercased(), $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        if best.1 <= max(2, word.count / 3) { return best.0 }
        // A key written out in full or cut short: `maximum` for `max`, `sect` for `section`
        // (one candidate of at least 3 letters that the word starts with, or that starts with it).
        let lower = word.lowercased()
        let stems = candidates.filter { $0.count >= 3 && lower.count >= 3 && (lower.hasPrefix($0) || $0.hasPrefix(lower)) }
        return stems.count == 1 ? stems[0] : nil
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
