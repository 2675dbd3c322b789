import SpannedYAML
/// Decodes table files and inline tables (SPEC §3).
struct TableDecoder {
    var d: NodeDecoder

    mutating func table<Node: DocumentNode>(_ node: Node) -> Table? {
        guard let keys = d.mapping(node, in: "a table", known: ["sections"]) else { return nil }
        guard let entry = keys["sections"] else {
            d.error(.missingKey, "missing key 'sections'; expected a list of sections", at: Span(at: node.span.start))
            return nil
        }
        guard let items = entry.value.sequence else {
            d.mismatch(entry.value, expected: "a list of sections for 'sections'")
            return nil
        }
        let before = d.diagnostics.count
        let sections = items.compactMap { section($0) }
        return d.diagnostics.count == before ? Table(sections: sections) : nil
    }

    private mutating func section<Node: DocumentNode>(_ node: Node) -> Section? {
        guard let keys = d.mapping(node, in: "a section", known: ["id", "kind", "tags", "attributes", "rows"]) else { return nil }
        let id = keys["id"].flatMap { d.text($0.value, expected: "a string for the section's 'id'") }
        // `kind: null` and `tags: null` count as absent (SPEC §8.5).
        let kind = keys["kind"].flatMap { Self.isNull($0.value) ? nil : d.text($0.value, expected: "a string for the section's 'kind'") }
        var tags: [String] = []
        if let entry = keys["tags"], !Self.isNull(entry.value) { tags = self.tags(entry.value) }
        var attributes: [String: Int] = [:]
        if let entry = keys["attributes"] {
            if let items = entry.value.entries {
                for item in items {
                    if let value = attribute(item.value, item.name) { attributes[item.name] = value }
                }
            } else {
                d.mismatch(entry.value, expected: "a mapping from attribute names to integers for 'attributes'")
            }
        }
        guard let rowsEntry = keys["rows"] else {
            d.error(.missingKey, "missing key 'rows' in a section; expected a list of rows (it may be empty: 'rows: []')", node)
            return nil
        }
        guard let items = rowsEntry.value.sequence else {
            d.mismatch(rowsEntry.value, expected: "a list of rows for 'rows'")
            return nil
        }
        // A loop, not `compactMap`: over a request's tape it is 3x faster (BENCHMARKS.md).
        var rows: [Row] = []
        rows.reserveCapacity(items.count)
        for item in items {
            if let row = row(item) { rows.append(row) }
        }
        return Section(id: id, kind: kind, tags: tags, attributes: attributes, rows: rows)
    }

    /// A section attribute's value: a plain integer >= 0; anything else (a quoted number, a
    /// negative one, `null`, a word) is a type mismatch (SPEC §8.2, §8.5).
    private mutating func attribute(_ node: some DocumentNode, _ name: String) -> Int? {
        if let value = node.plainInteger, value >= 0 { return value }
        let found: String
        if let text = node.scalar, let style = node.scalarStyle {
            found = style.isPlain ? (text.isEmpty ? "an empty value" : "'\(text)'") : "the quoted string '\(text)'"
        } else {
            found = node.typeName
        }
        guard !node.isInvalid else { return nil }
        d.error(.typeMismatch, "expected a plain integer >= 0 for the attribute '\(name)', found \(found)", node,
                help: "attributes are counts such as 'wip: 3'; write the number without quotes or sign")
        return nil
    }

    /// `null`, `~` or an empty plain value.
    private static func isNull(_ node: some DocumentNode) -> Bool {
        guard node.scalarStyle == .plain, let text = node.scalar else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(text)
    }

    private mutating func tags(_ node: some DocumentNode) -> [String] {
        guard let items = node.sequence else {
            d.mismatch(node, expected: "a list of strings for 'tags'")
            return []
        }
        return items.compactMap { d.text($0, expected: "a string in 'tags'") }
    }

    @inline(__always)
    private mutating func row<Node: DocumentNode>(_ node: Node) -> Row? {
        if node.scalarStyle != nil {
            return d.text(node, expected: "a row id or a row mapping").map { Row(id: $0) }
        }
        guard let keys = d.mapping(node, in: "a row", known: ["id", "kind", "tags"]) else { return nil }
        guard let idEntry = keys["id"] else {
            d.error(.missingKey, "missing key 'id' in a row", node)
            return nil
        }
        let id = d.text(idEntry.value, expected: "a string for the row's 'id'")
        let kind = keys["kind"].flatMap { d.text($0.value, expected: "a string for the row's 'kind'") }
        let tags = keys["tags"].map { self.tags($0.value) } ?? []
        return id.map { Row(id: $0, kind: kind, tags: tags) }
    }
}
