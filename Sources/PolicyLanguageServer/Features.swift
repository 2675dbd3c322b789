import Foundation
import ReorderEngine
import ReorderPolicy
import SpannedYAML

/// What the server answers, each from the same code `lint`, `fmt` and the loader use.
enum Features {
    // MARK: Files

    /// The file path of a `file:` URI (percent escapes decoded); other URIs as they are.
    static func path(of uri: String) -> String {
        guard uri.hasPrefix("file:"), let url = URL(string: uri), url.isFileURL else { return uri }
        return url.path
    }

    /// The project's `.reorder-policy.yml` nearest to `path`, when there is one and it loads
    /// (a broken one is ignored here; `lint` reports it).
    static func config(for path: String) -> ProjectConfig? {
        let directory = (path as NSString).deletingLastPathComponent
        guard !directory.isEmpty, let found = ProjectConfig.find(from: directory) else { return nil }
        return ProjectConfig.load(path: found).config
    }

    // MARK: Diagnostics

    /// A lint diagnostic as LSP gives it: the same code, span and message; the notes (the
    /// counterexample's table and move included, enough to reproduce with `check`) and the
    /// help follow the message on lines of their own.
    static func diagnostic(_ d: Diagnostic, in document: TextDocument) -> LSPDiagnostic {
        let start = document.position(line: d.span.start.line, column: d.span.start.column)
        var end = document.position(line: d.span.end.line, column: d.span.end.column)
        if end.line < start.line || (end.line == start.line && end.character < start.character) { end = start }
        var message = d.message
        for note in d.notes + (d.counterexample?.lines ?? []) { message += "\nnote: " + note }
        if let help = d.help { message += "\nhelp: " + help }
        return LSPDiagnostic(range: Range(start: start, end: end), severity: d.severity == .error ? 1 : 2, code: d.code.rawValue, message: message)
    }

    /// The document as the loader reads it (no analysis).
    static func load(_ document: TextDocument) -> PolicyDocument {
        PolicyLoader.load(SourceFile(path: path(of: document.uri), text: document.text))
    }

    // MARK: Rules in the text

    /// Every rule with its first and last 1-based lines: row rules, then section rules.
    static func rules(_ loaded: PolicyDocument) -> [(id: String, keyword: String, summary: String, location: SourceLocation)] {
        guard let policy = loaded.policy else { return [] }
        let rows = policy.rules.compactMap { r in r.metadata.location.map { (r.metadata.id, r.keyword, RuleRegistry.rowKind(r.keyword)?.summary ?? "", $0) } }
        let sections = policy.sectionRules.compactMap { r in
            r.metadata.location.map { (r.metadata.id, r.keyword, SectionRuleRegistry.kinds.first { k in k.keyword == r.keyword }?.summary ?? "", $0) }
        }
        return rows + sections
    }

    /// The 1-based lines a rule's item covers: a block node ends where the next token starts,
    /// so an end with only blanks or the next item's `-` before it is the line before's end.
    private static func lines(of location: SourceLocation, in document: TextDocument) -> ClosedRange<Int> {
        var last = location.endLine ?? location.line
        if last > location.line, let endColumn = location.endColumn,
           document.line(last - 1).unicodeScalars.prefix(max(endColumn - 1, 0)).allSatisfy({ $0 == " " || $0 == "\t" || $0 == "-" }) {
            last -= 1
        }
        return location.line...max(location.line, last)
    }

    /// Whether `text` may be a policy: not YAML whose top-level keys are all another file's
    /// (a CI workflow, a compose file). Empty text and text with no top-level key may be one.
    static func mayBePolicy(_ text: String) -> Bool {
        var keys = 0
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            guard let first = line.unicodeScalars.first, first.properties.isAlphabetic || first == "_" || first == "\"" || first == "'",
                  let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
            if key == "reorder-policy" || key == "rules" { return true }
            keys += 1
        }
        return keys == 0
    }

    // MARK: Hover

    /// What a word means (a rule kind, `retarget`), and on a rule what it is and what lint
    /// said about it (`findings`: the last lint of the text, the analysis's once it has run).
    static func hover(_ document: TextDocument, at p: Position, findings: [Diagnostic]) -> Hover? {
        let loaded = load(document)
        var parts: [String] = []
        let word = document.word(at: p)
        if let (w, _) = word {
            if let kind = RuleRegistry.rowKind(w) {
                parts.append("**\(w)** (rule): \(kind.summary)")
            } else if let kind = SectionRuleRegistry.kinds.first(where: { $0.keyword == w }) {
                parts.append("**\(w)** (section rule): \(kind.summary)")
            } else if w == "retarget" {
                parts.append("**retarget**: where an invalid drop goes: " + RetargetMode.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", "))
            }
        }
        // On a rule: what it is, and what lint says about it (the analysis included).
        if let rule = rules(loaded).first(where: { lines(of: $0.location, in: document).contains(p.line + 1) }) {
            if parts.isEmpty { parts.append("**\(rule.keyword)** (rule '\(rule.id)'): \(rule.summary)") } else { parts.append("rule '\(rule.id)'") }
            for f in findings where lines(of: rule.location, in: document).contains(f.span.start.line) {
                parts.append("- `\(f.code.rawValue)`: \(f.message)")
            }
        }
        guard !parts.isEmpty else { return nil }
        return Hover(contents: MarkupContent(value: parts.joined(separator: "\n\n")), range: word?.1)
    }

    // MARK: Completion

    /// The top-level key the line `line` (0-based) is under, by indentation.
    private static func section(of document: TextDocument, line: Int) -> String? {
        var n = line
        while n >= 0 {
            let text = document.line(n)
            if let first = text.first, first != " ", first != "\t", first != "#", first != "-", let colon = text.firstIndex(of: ":") {
                return String(text[..<colon])
            }
            n -= 1
        }
        return nil
    }

    static func completion(_ document: TextDocument, at p: Position) -> CompletionList {
        let before = document.prefix(at: p)
        let trimmed = before.trimmingCharacters(in: .whitespaces)
        var items: [CompletionItem] = []
        if before.hasPrefix("retarget:") {
            items = RetargetMode.allCases.map { CompletionItem(label: $0.rawValue, kind: 12, detail: "retarget") }
        } else if trimmed == "-" || (trimmed.hasPrefix("- ") && !trimmed.contains(":")) {
            switch section(of: document, line: p.line) {
            case "section-rules":
                items = SectionRuleRegistry.kinds.map { CompletionItem(label: $0.keyword, kind: 14, detail: "section rule", documentation: MarkupContent(value: $0.summary)) }
            case "rules":
                items = RuleRegistry.rowKinds.map { CompletionItem(label: $0.keyword, kind: 14, detail: "rule", documentation: MarkupContent(value: $0.summary)) }
            default:
                break
            }
        } else if trimmed.hasSuffix("section:") || trimmed.hasSuffix("section: ") || trimmed.hasSuffix("from:") || trimmed.hasSuffix("[") || trimmed.hasSuffix(", ") {
            // Section ids from the policy's tests' tables.
            let loaded = load(document)
            var ids = Set<String>()
            for test in loaded.tests {
                if case .inline(let table) = test.table { for s in table.sections { if let id = s.id { ids.insert(id) } } }
            }
            items = ids.sorted().map { CompletionItem(label: $0, kind: 21, detail: "section id in the tests") }
        } else if !before.hasPrefix(" ") && !before.contains(":") {
            items = ["reorder-policy", "name", "retarget", "rules", "section-rules", "tests"].map { CompletionItem(label: $0, kind: 10, detail: "top-level key") }
        }
        return CompletionList(items: items)
    }

    // MARK: Formatting

    /// `fmt`'s output as one edit ([] when the text is formatted already or does not parse).
    static func formatting(_ document: TextDocument) -> [TextEdit] {
        let result = YAMLFormatter.format(SourceFile(path: path(of: document.uri), text: document.text))
        guard let text = result.text, text != document.text else { return [] }
        return [TextEdit(range: document.wholeRange, newText: text)]
    }

    // MARK: Symbols and definitions

    static func symbols(_ document: TextDocument) -> [DocumentSymbol] {
        let loaded = load(document)
        func range(_ first: Int, _ last: Int) -> Range {
            Range(start: Position(line: first - 1, character: 0), end: Position(line: last - 1, character: document.line(last - 1).utf16.count))
        }
        var out: [DocumentSymbol] = rules(loaded).map { rule in
            let r = range(rule.location.line, lines(of: rule.location, in: document).upperBound)
            return DocumentSymbol(name: rule.id, detail: rule.keyword, kind: 12, range: r, selectionRange: r)
        }
        out += loaded.tests.map { test in
            let r = range(test.span.start.line, max(test.span.start.line, test.span.end.line))
            return DocumentSymbol(name: test.name, detail: "test", kind: 6, range: r, selectionRange: r)
        }
        return out
    }

    /// From a rule's id anywhere in the text (a waiver's reason, a comment, a test's `rules`
    /// list) to the rule.
    static func definition(_ document: TextDocument, at p: Position) -> Location? {
        guard let (word, _) = document.word(at: p) else { return nil }
        guard let rule = rules(load(document)).first(where: { $0.id == word }) else { return nil }
        let start = document.position(line: rule.location.line, column: rule.location.column)
        return Location(uri: document.uri, range: Range(start: start, end: start))
    }

    // MARK: Code actions

    /// The fixes lint knows: a did-you-mean key, a dead rule removed, a displaced lock made a pin.
    static func codeActions(_ document: TextDocument, _ params: CodeActionParams) -> [CodeAction] {
        let loaded = load(document)
        var actions: [CodeAction] = []
        for d in params.context.diagnostics {
            switch d.code {
            case "unknown-key":
                guard let suggestion = d.message.split(separator: "\n").first.flatMap({ line in
                    line.range(of: "did you mean '").flatMap { r in line[r.upperBound...].split(separator: "'").first }
                }) else { continue }
                actions.append(CodeAction(title: "Replace with '\(suggestion)'", diagnostics: [d],
                                          edit: WorkspaceEdit(changes: [document.uri: [TextEdit(range: d.range, newText: String(suggestion))]])))
            case "dead-rule":
                guard let rule = rules(loaded).first(where: { lines(of: $0.location, in: document).contains(d.range.start.line + 1) }) else { continue }
                // The rule's item: from its line's start (the `- `) to the start of the line after it.
                let last = lines(of: rule.location, in: document).upperBound
                let range = Range(start: Position(line: rule.location.line - 1, character: 0), end: Position(line: last, character: 0))
                actions.append(CodeAction(title: "Remove rule '\(rule.id)'", diagnostics: [d],
                                          edit: WorkspaceEdit(changes: [document.uri: [TextEdit(range: range, newText: "")]])))
            case "lock-displaced":
                let line = document.line(d.range.start.line)
                guard let r = line.range(of: "lock") else { continue }
                let start = line.utf16.distance(from: line.startIndex, to: r.lowerBound)
                let range = Range(start: Position(line: d.range.start.line, character: start), end: Position(line: d.range.start.line, character: start + 4))
                actions.append(CodeAction(title: "Make the lock a pin (its rows stay in place)", diagnostics: [d],
                                          edit: WorkspaceEdit(changes: [document.uri: [TextEdit(range: range, newText: "pin")]])))
            default:
                continue
            }
        }
        return actions
    }
}
