/// Tables and moves written as one-line YAML, ready to paste into a policy test or `explain`.
enum TableText {
    /// The table as a one-line table file: every section's id, kind, tags and attributes, every
    /// row. With `limit`, a section of more rows shows its first and last few around a count of
    /// the rest, and a run of more empty plain sections than that shows its first and last
    /// around their count (for people: that line no longer loads as a table).
    static func flow(_ table: Table, elidingOver limit: Int? = nil) -> String {
        let sections = table.sections.map { section -> String in
            var shown = section.rows[...]
            var elided = 0
            if let limit, section.rows.count > limit {
                let keep = Swift.max(1, limit / 4)
                elided = section.rows.count - 2 * keep
                shown = section.rows[..<keep] + section.rows[(section.rows.count - keep)...]
            }
            var rows = shown.map { row -> String in
                let id = quote(row.id)
                guard row.kind != nil || !row.tags.isEmpty else { return id }
                var parts = ["id: \(id)"]
                if let kind = row.kind { parts.append("kind: \(quote(kind))") }
                if !row.tags.isEmpty { parts.append("tags: [\(row.tags.map(quote).joined(separator: ", "))]") }
                return "{ \(parts.joined(separator: ", ")) }"
            }
            if elided > 0 { rows.insert("… \(elided) more rows …", at: rows.count / 2) }
            var parts = SectionFields.all.filter { $0.isPresent(section) }.map { "\($0.key): \($0.flowYAML(section))" }
            parts.append("rows: [\(rows.joined(separator: ", "))]")
            return "{ \(parts.joined(separator: ", ")) }"
        }
        guard let limit else { return "{ sections: [\(sections.joined(separator: ", "))] }" }
        // Runs of empty plain sections (a witness that needs a section far from the ends).
        var shown: [String] = [], run = 0
        func flush() {
            if run > limit {
                shown += ["{ rows: [] }", "… \(run - 2) more empty sections …", "{ rows: [] }"]
            } else {
                shown += Array(repeating: "{ rows: [] }", count: run)
            }
            run = 0
        }
        for (section, text) in zip(table.sections, sections) {
            if isPlainAndEmpty(section) {
                run += 1
                continue
            }
            flush()
            shown.append(text)
        }
        flush()
        return "{ sections: [\(shown.joined(separator: ", "))] }"
    }

    /// Whether ``flow(_:elidingOver:)`` cuts anything of `table` short at `limit`: a section of
    /// more rows, or a run of more empty plain sections.
    static func elides(_ table: Table, over limit: Int) -> Bool {
        var run = 0
        for section in table.sections {
            if section.rows.count > limit { return true }
            run = isPlainAndEmpty(section) ? run + 1 : 0
            if run > limit { return true }
        }
        return false
    }

    /// A section with no rows and no id, kind, tags or attributes: `{ rows: [] }`.
    private static func isPlainAndEmpty(_ section: Section) -> Bool {
        section.rows.isEmpty && !SectionFields.all.contains { $0.isPresent(section) }
    }

    /// The table as JSON in the table-file shape (SPEC §3, §8.2).
    static func json(_ table: Table, into w: inout JSONWriter) {
        w.raw("{\"sections\": [")
        for (u, section) in table.sections.enumerated() {
            if u > 0 { w.raw(", ") }
            w.raw("{")
            for field in SectionFields.all where field.isPresent(section) {
                w.string(field.key)
                w.raw(": ")
                field.json(section, into: &w)
                w.raw(", ")
            }
            w.raw("\"rows\": [")
            for (k, row) in section.rows.enumerated() {
                if k > 0 { w.raw(", ") }
                if row.kind == nil && row.tags.isEmpty {
                    w.string(row.id)
                    continue
                }
                w.raw("{\"id\": ")
                w.string(row.id)
                if let kind = row.kind {
                    w.raw(", \"kind\": ")
                    w.string(kind)
                }
                if !row.tags.isEmpty {
                    w.raw(", \"tags\": ")
                    SectionFields.json(row.tags, into: &w)
                }
                w.raw("}")
            }
            w.raw("]}")
        }
        w.raw("]}")
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
