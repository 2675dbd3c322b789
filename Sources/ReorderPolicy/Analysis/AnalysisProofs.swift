/// Claims about *every* table, proved from the policy's text (docs/ANALYSIS.md): the analysis
/// says "never" or "remove one of them" only with one of these arguments behind it. Each
/// holds for every table whatever its size, because it follows from what the selectors can
/// select at all, or from one rule's effects containing another's.
enum AnalysisProofs {
    // MARK: Selectors that select nothing

    /// Whether `s` selects no row of any table: a key that selects none on its own (an empty
    /// list, `first: 0`, a `section` that selects no section, `not: all`, each key says,
    /// ``RowSelectorKey/selectsNothing``), or a list whose items all select none.
    static func selectsNothing(_ s: RowSelector) -> Bool { s.selectsNothing }

    /// Whether `s` selects no section of any table (`[]`, or every entry an empty filter).
    static func selectsNothing(_ s: SectionSelector) -> Bool { s.selectsNothing }

    /// The selector that says which rows or sections a rule is about (not `from` or `rows` of
    /// an accept: `from: []` is how a section is closed, on purpose).
    static func subject(_ rule: RowRule) -> (rows: RowSelector?, sections: SectionSelector?) {
        switch rule.kind.meaning {
        case .hold(let rows, _, _), .keepInSection(let rows): (rows, nil)
        case .keepOrder(let section), .accept(let section, _, _), .capacity(let section, _, _, _): (nil, section)
        case .reserve(_, _, let sections): (nil, sections)
        case .keepAmong(.rows(let rows)): (rows, nil)
        case .keepAmong(.kind): (nil, nil)
        }
    }

    /// Whether the rule's subject selects nothing on every table.
    static func selectsNothing(_ rule: RowRule) -> Bool {
        let (rows, sections) = subject(rule)
        if let rows, selectsNothing(rows) { return true }
        if let sections, selectsNothing(sections) { return true }
        return false
    }

    // MARK: One rule's effects inside another's

    /// Why rule `r` can never change whether or where a row moves, given rule `o`; nil when
    /// no argument applies. Rules combine by conjunction, so a rule whose every refusal is
    /// also another rule's refusal is redundant on every table.
    static func subsumes(_ o: RowRule, _ r: RowRule, oIsEarlier: Bool) -> String? {
        if o.kind == r.kind && oIsEarlier { return "it repeats '\(o.metadata.id)'" }
        func covers(_ y: RowSelector, _ x: RowSelector) -> Bool { y == x || y == .all }
        // By meaning, not by kind: a new kind that holds rows, say, is covered unchanged.
        func verb(_ pins: Bool) -> String { pins ? "pins" : "locks" }
        switch (o.kind.meaning, r.kind.meaning) {
        case (.hold(let held, pins: true, _), .hold(let locked, pins: false, _)) where covers(held, locked):
            return "'\(o.metadata.id)' pins the rows it locks, and a pinned row cannot be picked up either"
        case (.hold(let a, pins: false, _), .hold(let b, pins: false, _)) where a == .all && b != .all:
            return "'\(o.metadata.id)' locks every row"
        case (.keepInSection(let a), .keepInSection(let b)) where a == .all && b != .all:
            return "'\(o.metadata.id)' keeps every row in its section"
        case (.hold(let held, let pins, _), .keepInSection(let kept)) where covers(held, kept):
            return "'\(o.metadata.id)' \(verb(pins)) the rows it keeps, and a \(pins ? "pinned" : "locked") row cannot be picked up"
        case (.keepOrder(let fixed), .keepAmong) where fixed == .all:
            return "'\(o.metadata.id)' fixes the order of every section, so no row may pass another"
        case (.hold, _), (.keepInSection, _), (.reserve, _), (.accept, _), (.capacity, _), (.keepOrder, _), (.keepAmong, _):
            return nil
        }
    }

    /// Why section rule `r` is redundant given `o`, or nil.
    static func subsumes(_ o: SectionRule, _ r: SectionRule, oIsEarlier: Bool) -> String? {
        if o.kind == r.kind && oIsEarlier { return "it repeats '\(o.metadata.id)'" }
        switch (o.kind.meaning, r.kind.meaning) {
        case (.hold(let t, pins: true, _), .hold(let u, pins: false, _)) where t == u:
            return "'\(o.metadata.id)' pins the sections it locks, and a pinned section cannot be picked up either"
        case (.hold, .hold):
            return nil
        }
    }
}
