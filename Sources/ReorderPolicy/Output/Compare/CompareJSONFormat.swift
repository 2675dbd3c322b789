import ReorderEngine

/// `compare --format json`: one pair's object, or with `--base` `{ "comparisons": [...] }` (SPEC §11).
public struct CompareJSONFormat: ReportFormat {
    public let name = "json"
    public let isJSONDocument = true
    public init() {}
    public func render(_ report: ComparisonReport, _ context: RenderContext) -> String { Self.json(report.entries, list: report.list) }

    /// `{ "old", "new", "equivalent", "changes" }` for one pair; with `list`, `{ "comparisons": [...] }`.
    static func json(_ entries: [ComparedPolicy], list: Bool) -> String {
        var w = JSONWriter()
        if list { w.raw("{\"comparisons\": [") }
        for (n, entry) in entries.enumerated() {
            if n > 0 { w.raw(", ") }
            object(entry, into: &w)
        }
        if list { w.raw("]}") }
        w.raw("\n")
        return w.text
    }

    private static func object(_ entry: ComparedPolicy, into w: inout JSONWriter) {
        w.raw("{\"old\": ")
        DecisionJSON.optionalString(entry.old, into: &w)
        w.raw(", \"new\": ")
        DecisionJSON.optionalString(entry.new, into: &w)
        w.raw(", \"status\": ")
        switch entry.status {
        case .added: w.string("added")
        case .removed: w.string("removed")
        case .compared(let c): w.string(c.verdict.rawValue)
        }
        w.raw(", \"equivalent\": ")
        w.bool(entry.equivalent)
        w.raw(", \"changes\": [")
        for (n, change) in entry.changes.enumerated() {
            if n > 0 { w.raw(", ") }
            w.raw("{\"table\": ")
            TableText.json(change.table, into: &w)
            w.raw(", \"move\": ")
            DecisionJSON.move(change.move, into: &w)
            w.raw(", \"old\": ")
            DecisionJSON.result(change.old, into: &w)
            w.raw(", \"new\": ")
            DecisionJSON.result(change.new, into: &w)
            w.raw("}")
        }
        w.raw("]}")
    }

}
