import SpannedYAML
/// Decodes table files and inline tables (SPEC §3).
struct TableDecoder {
    var d: NodeDecoder

    mutating func table(_ node: YAMLNode) -> Table? {
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

    private mutating func section(_ node: YAMLNode) -> Section? {
        guard let keys = d.mapping(node, in: "a section", known: ["id", "rows"]) else { return nil }
        let id = keys["id"].flatMap { d.text($0.value, expected: "a string for the section's 'id'") }
        guard let rowsEntry = keys["rows"] else {
            d.error(.missingKey, "missing key 'rows' in a section; expected a list of rows (it may be empty: 'rows: []')", node)
            return nil
        }
        guard let items = rowsEntry.value.sequence else {
            d.mismatch(rowsEntry.value, expected: "a list of rows for 'rows'")
            return nil
        }
        return Section(id: id, rows: items.compactMap { row($0) })
    }

    private mutating func row(_ node: YAMLNode) -> Row? {
        if case .scalar = node.content {
            return d.text(node, expected: "a row id or a row mapping").map { Row(id: $0) }
        }
        guard let keys = d.mapping(node, in: "a row", known: ["id", "kind", "tags"]) else { return nil }
        guard let idEntry = keys["id"] else {
            d.error(.missingKey, "missing key 'id' in a row", node)
            return nil
        }
        let id = d.text(idEntry.value, expected: "a string for the row's 'id'")
        let kind = keys["kind"].flatMap { d.text($0.value, expected: "a string for the row's 'kind'") }
        var tags: [String] = []
        if let entry = keys["tags"] {
            if let items = entry.value.sequence {
                tags = items.compactMap { d.text($0, expected: "a string in 'tags'") }
            } else {
                d.mismatch(entry.value, expected: "a list of strings for 'tags'")
            }
        }
        return id.map { Row(id: $0, kind: kind, tags: tags) }
    }
}
