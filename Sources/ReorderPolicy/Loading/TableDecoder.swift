import SpannedYAML
/// Decodes table files and inline tables (SPEC §3).
struct TableDecoder {
    var d: NodeDecoder

    mutating func table<Node: DocumentNode>(_ node: Node) -> Table? {
        // A policy file given where a table is read (`--table policy.yaml`): one error that says
        // so, not an unknown key for every key of the policy.
        if let entries = node.entries, !entries.contains(where: { $0.name == "sections" }),
           let key = entries.first(where: { $0.name == "reorder-policy" || $0.name == "rules" }) {
            d.error(.unknownKey, "this looks like a policy file, not a table: it has '\(key.name)' and no 'sections'", key.key,
                    help: "give the policy with --policy and a table (a file with 'sections') with --table")
            return nil
        }
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
        guard let keys = d.mapping(node, in: "a section", known: SectionFields.keys) else { return nil }
        // Every field but the rows, each read by its own description (Wire/SectionFields.swift).
        var section = Section(rows: [])
        for field in SectionFields.all {
            if let entry = keys[field.key] { field.decode(entry.value, &d, into: &section) }
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
        section.rows = rows
        return section
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
        let tags = keys["tags"].map { SectionFields.strings($0.value, &d, "tags") } ?? []
        return id.map { Row(id: $0, kind: kind, tags: tags) }
    }
}
