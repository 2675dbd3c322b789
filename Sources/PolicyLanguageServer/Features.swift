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

    /// Lint diagnostics as LSP gives them: the same code, span and message; the notes (the
    /// counterexample's table and move included, enough to reproduce with `check`) and the
    /// help follow the message on lines of their own.
    static func diagnostics(_ ds: [Diagnostic], in document: TextDocument) -> [LSPDiagnostic] {
        let positions = document.positions(ds.flatMap { [($0.span.start.line, $0.span.start.column), ($0.span.end.line, $0.span.end.column)] })
        return ds.enumerated().map { i, d in
            let start = positions[2 * i]
            var end = positions[2 * i + 1]
            if end.line < start.line || (end.line == start.line && end.character < start.character) { end = start }
            var message = d.message
            for note in d.notes + (d.counterexample?.lines ?? []) { message += "\nnote: " + note }
            if let help = d.help { message += "\nhelp: " + help }
            return LSPDiagnostic(range: Range(start: start, end: end), severity: d.severity == .error ? 1 : 2, code: d.code.rawValue, message: message)
        }
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

    /// Whether `text` may be a policy: not YAML with a top-level key a policy never has (a CI
    /// workflow's `jobs`, a Kubernetes role's `apiVersion` beside its `rules`). Text with no
    /// top-level key, or with `reorder-policy`, may be one.
    static func mayBePolicy(_ text: String) -> Bool {
        var foreign = false
        for (n, line) in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).enumerated() {
            let line = n == 0 && line.first == "\u{FEFF}" ? line.dropFirst() : line
            guard let first = line.unicodeScalars.first, first.properties.isAlphabetic || first == "_" || first == "\"" || first == "'",
                  let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
            if key == "reorder-policy" { return true }
            if !PolicyLoader.topLevelKeys.contains(key) { foreign = true }
        }
        return !foreign
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
            if let picks = picked(rule.id, in: loaded) { parts.append(picks) }
        }
        guard !parts.isEmpty else { return nil }
        return Hover(contents: MarkupContent(value: parts.joined(separator: "\n\n")), range: word?.1)
    }

    /// What row rule `id`'s selector picks on the policy's own test tables (inline or files): the
    /// rows (`s.r id`) of a row selector, the sections of a section selector.
    static func picked(_ id: String, in loaded: PolicyDocument) -> String? {
        guard let rule = loaded.policy?.rules.first(where: { $0.metadata.id == id }) else { return nil }
        var rows: RowSelector? = nil, sections: SectionSelector? = nil
        switch rule.kind.meaning {
        case .hold(let s, _, _), .keepInSection(let s), .keepAmong(.rows(let s)): rows = s
        case .keepOrder(let s), .accept(let s, _, _), .capacity(let s, _, _, _): sections = s
        case .reserve(_, _, let s): sections = s ?? .all
        case .keepAmong(.kind): return nil
        }
        var lines: [String] = []
        for (test, table) in PolicyTestRunner.tables(of: loaded).prefix(5) {
            func name(_ u: Int) -> String { table.sections[u].id.map { "'\($0)'" } ?? "section \(u)" }
            var picked: [String] = []
            if let rows {
                let test = rows.bind(table)
                for (u, section) in table.sections.enumerated() {
                    section.rows.withUnsafeBufferPointer { buffer in
                        for k in buffer.indices where test(u, k, buffer.count, buffer.baseAddress! + k).matches {
                            picked.append("\(u).\(k) '\(buffer[k].id)'")
                        }
                    }
                }
            } else if let sections {
                picked = sections.selectedSections(in: table).enumerated().filter(\.element).map { name($0.offset) }
            }
            let shown = picked.prefix(12).joined(separator: ", ") + (picked.count > 12 ? ", and \(picked.count - 12) more" : "")
            lines.append("- on the table of test '\(test)': " + (picked.isEmpty ? "nothing" : shown))
        }
        guard !lines.isEmpty else { return nil }
        return (rows != nil ? "Rows it selects" : "Sections it selects") + ":\n" + lines.joined(separator: "\n")
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

    /// The keys of a mapping that is the value of `key` (a rule kind's argument, a selector, a
    /// section filter), read from the registries: a rule kind's JSON Schema fragment gives its
    /// properties or the selector it takes, so a new kind or key needs no change here.
    static func keys(under key: String) -> [String] {
        let rowKeys = RowSelectorRegistry.keys.map { $0.keyword }
        let sectionKeys = SectionFilterRegistry.keys.map { $0.keyword }
        func fromSchema(_ schema: String) -> [String] {
            guard let object = try? JSONSerialization.jsonObject(with: Data(schema.utf8)) as? [String: Any] else { return [] }
            if let properties = object["properties"] as? [String: Any] { return properties.keys.sorted() }
            switch object["$ref"] as? String {
            case "#/$defs/pinSelector"?: return rowKeys + ["anchor"]
            case "#/$defs/rowSelector"?: return rowKeys
            case "#/$defs/sectionSelector"?: return sectionKeys
            default: return []
            }
        }
        if let kind = RuleRegistry.rowKind(key) { return fromSchema(kind.argumentSchema) }
        if let kind = SectionRuleRegistry.kinds.first(where: { $0.keyword == key }) { return fromSchema(kind.argumentSchema) }
        switch key {
        case "section", "from": return sectionKeys
        case "rows", "not": return rowKeys
        case "max", "min": return ["attribute"]
        default: return []
        }
    }

    /// The words the policy's test tables use for `key`'s values (ids, kinds, tags, section ids,
    /// attribute names), and the fixed ones (`retarget`, `anchor`, `keep-among`).
    static func values(of key: String, _ document: TextDocument, lastTables: [Table] = []) -> [CompletionItem] {
        switch key {
        case "retarget": return RetargetMode.allCases.map { CompletionItem(label: $0.rawValue, kind: 12, detail: "retarget") }
        case "anchor": return ["start", "end"].map { CompletionItem(label: $0, kind: 12, detail: "anchor") }
        case "keep-among": return [CompletionItem(label: "kind", kind: 12, detail: "rows stay among rows of their own kind")]
        default: break
        }
        // The tables of the text as it is, or of the last text that loaded with tests (the one
        // being typed seldom parses).
        let current = PolicyTestRunner.tables(of: load(document)).map(\.table)
        let tables = current.isEmpty ? lastTables : current
        var words = Set<String>()
        var detail = ""
        for table in tables {
            for section in table.sections {
                switch key {
                case "section", "from":
                    if let id = section.id { words.insert(id) }
                    detail = "section id in the tests' tables"
                case "kind":
                    if let k = section.kind { words.insert(k) }
                    for row in section.rows { if let k = row.kind { words.insert(k) } }
                    detail = "kind in the tests' tables"
                case "tag":
                    words.formUnion(section.tags)
                    for row in section.rows { words.formUnion(row.tags) }
                    detail = "tag in the tests' tables"
                case "id":
                    if let id = section.id { words.insert(id) }
                    for row in section.rows { words.insert(row.id) }
                    detail = "id in the tests' tables"
                case "attribute":
                    words.formUnion(section.attributes.keys)
                    detail = "section attribute in the tests' tables"
                default:
                    break
                }
            }
        }
        return words.sorted().map { CompletionItem(label: $0, kind: 21, detail: detail) }
    }

    static func completion(_ document: TextDocument, at p: Position, lastTables: [Table] = []) -> CompletionList {
        let before = document.prefix(at: p)
        let trimmed = before.trimmingCharacters(in: .whitespaces)
        var items: [CompletionItem] = []
        // The innermost `{` or `[` still open on the line, and the key it is the value of.
        var depth = 0, open: (Character, String.Index)? = nil
        for i in before.indices.reversed() {
            let c = before[i]
            if c == "}" || c == "]" { depth += 1 }
            if c == "{" || c == "[" {
                if depth == 0 { open = (c, i); break }
                depth -= 1
            }
        }
        func key(before end: String.Index) -> String? {
            let head = before[..<end].trimmingCharacters(in: .whitespaces)
            guard head.hasSuffix(":") else { return nil }
            let name = head.dropLast().reversed().prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            return name.isEmpty ? nil : String(name.reversed())
        }
        let last = trimmed.last
        if last == ":" || (before.hasSuffix(" ") && trimmed.hasSuffix(":")) {
            // A value: of the key just written.
            if let k = key(before: before.endIndex) { items = values(of: k, document, lastTables: lastTables) }
        } else if let (bracket, at) = open, last == bracket || last == "," {
            if bracket == "{", let k = key(before: at) {
                items = keys(under: k).map { CompletionItem(label: $0, kind: 10, detail: "key of '\(k)'") }
            } else if bracket == "[", let k = key(before: at) {
                items = values(of: k, document, lastTables: lastTables)
            } else if bracket == "{" {
                // A rule written as a flow mapping: its kind, or its id and message.
                items = RuleRegistry.rowKinds.map { CompletionItem(label: $0.keyword, kind: 14, detail: "rule") }
            }
        } else if trimmed == "-" || (trimmed.hasPrefix("- ") && !trimmed.contains(":")) {
            switch section(of: document, line: p.line) {
            case "section-rules":
                items = SectionRuleRegistry.kinds.map { CompletionItem(label: $0.keyword, kind: 14, detail: "section rule", documentation: MarkupContent(value: $0.summary)) }
            case "rules":
                items = RuleRegistry.rowKinds.map { CompletionItem(label: $0.keyword, kind: 14, detail: "rule", documentation: MarkupContent(value: $0.summary)) }
            default:
                break
            }
        } else if !before.hasPrefix(" ") && !before.contains(":") {
            items = PolicyLoader.topLevelKeys.map { CompletionItem(label: $0, kind: 10, detail: "top-level key") }
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
            let end = SourceLocation(file: "", line: test.span.start.line, column: test.span.start.column, endLine: test.span.end.line, endColumn: test.span.end.column)
            let r = range(test.span.start.line, lines(of: end, in: document).upperBound)
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

    /// The UTF-16 offset of a `lock:` key on `line` (after the line's start, a blank, `{`, `,`
    /// or `-`), or nil.
    static func lockKey(in line: Substring) -> Int? {
        let units = Array(line.utf16)
        let lock = Array("lock".utf16)
        var i = 0
        while i + 4 <= units.count {
            if Array(units[i..<i + 4]) == lock, i == 0 || [0x20, 0x09, 0x7B, 0x2C, 0x2D].contains(units[i - 1]) {
                var j = i + 4
                while j < units.count, units[j] == 0x20 { j += 1 }
                if j < units.count, units[j] == 0x3A { return i }
            }
            i += 1
        }
        return nil
    }

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
                let all = rules(loaded)
                guard let rule = all.first(where: { lines(of: $0.location, in: document).contains(d.range.start.line + 1) }) else { continue }
                // Only a block item on lines of its own (`- ` first, no other rule on them): a
                // flow list's line holds other rules too.
                let span = lines(of: rule.location, in: document)
                guard document.line(rule.location.line - 1).trimmingCharacters(in: .whitespaces).hasPrefix("-"),
                      !all.contains(where: { $0.id != rule.id && span.contains($0.location.line) }) else { continue }
                // The rule's item: from its line's start (the `- `) to the start of the line after
                // it, leaving the comments and blank lines at its end (a waiver of the next rule).
                var last = span.upperBound
                while last > span.lowerBound, document.line(last - 1).trimmingCharacters(in: .whitespaces).isEmpty
                        || document.line(last - 1).trimmingCharacters(in: .whitespaces).hasPrefix("#") { last -= 1 }
                let range = Range(start: Position(line: rule.location.line - 1, character: 0), end: Position(line: last, character: 0))
                actions.append(CodeAction(title: "Remove rule '\(rule.id)'", diagnostics: [d],
                                          edit: WorkspaceEdit(changes: [document.uri: [TextEdit(range: range, newText: "")]])))
            case "lock-displaced":
                // The `lock` key of the rule (not the word inside an id or a message).
                guard let rule = rules(loaded).first(where: { lines(of: $0.location, in: document).contains(d.range.start.line + 1) }),
                      let key = lines(of: rule.location, in: document).lazy.compactMap({ n in lockKey(in: document.line(n - 1)).map { (n - 1, $0) } }).first
                else { continue }
                let range = Range(start: Position(line: key.0, character: key.1), end: Position(line: key.0, character: key.1 + 4))
                actions.append(CodeAction(title: "Make the lock a pin (its rows stay in place)", diagnostics: [d],
                                          edit: WorkspaceEdit(changes: [document.uri: [TextEdit(range: range, newText: "pin")]])))
            default:
                continue
            }
        }
        return actions
    }
}
