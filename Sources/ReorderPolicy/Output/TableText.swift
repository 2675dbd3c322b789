/// Tables and moves written as one-line YAML, ready to paste into a policy test or `explain`.
enum TableText {
    static func flow(_ table: Table) -> String {
        let sections = table.sections.map { section -> String in
            let rows = section.rows.map { row -> String in
                let id = quote(row.id == TableEnumerator.plainID ? "row" : row.id)
                guard row.kind != nil || !row.tags.isEmpty else { return id }
                var parts = ["id: \(id)"]
                if let kind = row.kind { parts.append("kind: \(quote(kind))") }
                if !row.tags.isEmpty { parts.append("tags: [\(row.tags.map(quote).joined(separator: ", "))]") }
                return "{ \(parts.joined(separator: ", ")) }"
            }
            let id = section.id.map { "id: \(quote($0)), " } ?? ""
            return "{ \(id)rows: [\(rows.joined(separator: ", "))] }"
        }
        return "{ sections: [\(sections.joined(separator: ", "))] }"
    }

    static func flow(_ move: Move) -> String {
        switch move {
        case .row(let f, let t): "{ from: [\(f.section), \(f.row)], to: [\(t.section), \(t.row)] }"
        case .section(let a, let b): "{ section-from: \(a), section-to: \(b) }"
        }
    }

    /// A scalar as plain YAML when that reads back as the same text, else double-quoted.
    static func quote(_ s: String) -> String { FlowYAML.scalar(s) }
}
