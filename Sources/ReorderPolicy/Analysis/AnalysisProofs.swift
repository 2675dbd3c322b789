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

// MARK: Selectors inside selectors, rules inside rules

extension AnalysisProofs {
    /// Whether every row that `a` selects, `b` selects too, on every table: shown from the
    /// words alone (sound, not complete: false only means "not shown"). A mapping is inside
    /// another when each of the other's keys is implied by one of its own (`first: 1` inside
    /// `first: 3`, `id: x` inside `id: [x, y]`, `section: A` inside `section: [A, B]`, a `not`
    /// inside a `not` of a wider selector); a list is inside `b` when every item is, and `a` is
    /// inside a list when it is inside one of its items.
    static func rows(_ a: RowSelector, within b: RowSelector) -> Bool {
        if a == b { return true }
        if case .list(let items) = a.form { return items.allSatisfy { rows($0, within: b) } }
        switch b.form {
        case .list(let items): return items.contains { rows(a, within: $0) }
        case .mapping(let outer):
            let inner = a.keys
            return outer.allSatisfy { key in
                if case .section(let s) = key.form, s == .all { return true }
                return inner.contains { implies($0, key) }
            }
        }
    }

    /// Whether row key `x` (of a mapping) implies key `y`: every row `x` matches, `y` matches.
    private static func implies(_ x: any RowSelectorKey, _ y: any RowSelectorKey) -> Bool {
        if AnyHashable(x) == AnyHashable(y) { return true }
        switch (x.form, y.form) {
        case (.ids(let u), .ids(let v)), (.kinds(let u), .kinds(let v)), (.tags(let u), .tags(let v)):
            return Set(u).isSubset(of: v)
        case (.section(let s), .section(let t)):
            return sections(s, within: t)
        case (.position(let p), .position(let q)):
            return positions(p, within: q)
        case (.not(let excluded), .not(let wider)):
            // Not X implies not Y when Y is inside X.
            return rows(wider, within: excluded)
        default:
            return false
        }
    }

    /// Whether every row place `p` selects, `q` selects, whatever the section's size.
    private static func positions(_ p: RowPositionFilter, within q: RowPositionFilter) -> Bool {
        switch (p, q) {
        case (.first(let a), .first(let b)), (.last(let a), .last(let b)): return a <= b
        case (.indices(let xs), .first(let b)): return !xs.isEmpty && xs.allSatisfy { $0 >= 0 && $0 < b }
        case (.indices(let xs), .last(let b)): return !xs.isEmpty && xs.allSatisfy { $0 < 0 && -$0 <= b }
        case (.indices(let xs), .indices(let ys)): return Set(xs).isSubset(of: ys)
        case (.first(let a), .indices(let ys)): return (0..<a).allSatisfy(ys.contains)
        case (.last(let a), .indices(let ys)): return (1...max(a, 1)).allSatisfy { ys.contains(-$0) }
        case (.first, .last), (.last, .first): return false
        }
    }

    /// Whether every section `a` selects, `b` selects too, on every table (each entry of `a`
    /// is an entry of `b`, or `b` selects every section).
    static func sections(_ a: SectionSelector?, within b: SectionSelector?) -> Bool {
        switch (a ?? .all, b ?? .all) {
        case (_, .all): return true
        case (.all, .some(let refs)): return refs.contains { if case .matching(let f) = $0 { f.keys.isEmpty } else { false } }
        case (.some(let x), .some(let y)):
            return y.contains { if case .matching(let f) = $0 { f.keys.isEmpty } else { false } } || x.allSatisfy(y.contains)
        }
    }

    /// The anchor every row a pin of `rows` (with `anchor`) holds is kept at, when it is one
    /// for all of them (SPEC §7: the default is `end` for rows selected through `last` or a
    /// negative index, `start` otherwise); nil when it is decided row by row.
    static func pinAnchor(_ rows: RowSelector, _ anchor: Anchor?) -> Anchor? {
        if let anchor { return anchor }
        if !rows.mayCountFromEnd { return .start }
        func throughEnd(_ s: RowSelector) -> Bool {
            switch s.form {
            case .list(let items): return !items.isEmpty && items.allSatisfy(throughEnd)
            case .mapping(let keys):
                return keys.contains {
                    if case .position(.last) = $0.form { return true }
                    if case .position(.indices(let xs)) = $0.form { return !xs.isEmpty && xs.allSatisfy { $0 < 0 } }
                    return false
                }
            }
        }
        return throughEnd(rows) ? .end : nil
    }

    /// What a rule holds, as a pin or a lock would: the rows, whether they are pinned, and
    /// the anchor they are pinned at when it is one for all (a reserve is a pin of the first
    /// or last rows of its sections at that end, SPEC §2.2).
    private static func held(_ m: RuleMeaning) -> (rows: RowSelector, pins: Bool, anchor: Anchor?)? {
        switch m {
        case .hold(let rows, let pins, let anchor): (rows, pins, pins ? pinAnchor(rows, anchor) : nil)
        case .reserve(let edge, let count, let sections):
            (RowSelector(section: sections, position: edge == .start ? .first(count) : .last(count)), true, edge)
        case .keepInSection, .accept, .capacity, .keepOrder, .keepAmong: nil
        }
    }

    /// Whether rule meaning `o` refuses every move that `r` refuses and holds every row `r`
    /// holds, on every table, shown from the words alone: then `r` never changes a decision
    /// or a target while `o` is in the policy (rules only add refusals). A locked row is
    /// inside a held one; a pinned row inside a row pinned at the same anchor; a row kept in
    /// its section inside a held or kept one; a section's order inside a kept order; an
    /// accept inside one that guards more sections and admits less. Capacities are shown
    /// apart (``ExactAnalysis``), with the search.
    static func covers(_ o: RuleMeaning, _ r: RuleMeaning) -> Bool {
        switch r {
        case .hold, .reserve:
            guard let inner = held(r), let outer = held(o), rows(inner.rows, within: outer.rows) else { return false }
            if !inner.pins { return true }
            guard outer.pins, let a = inner.anchor, let b = outer.anchor else { return false }
            return a == b
        case .keepInSection(let kept):
            if let outer = held(o) { return rows(kept, within: outer.rows) }
            if case .keepInSection(let wider) = o { return rows(kept, within: wider) }
            return false
        case .keepOrder(let fixed):
            if case .keepOrder(let wider) = o { return sections(fixed, within: wider) }
            return false
        case .accept(let section, let from, let admitted):
            guard case .accept(let guarded, let fromOuter, let admittedOuter) = o else { return false }
            return sections(section, within: guarded) && sections(fromOuter, within: from) && rows(admittedOuter, within: admitted)
        case .keepAmong:
            if case .keepOrder(let fixed) = o { return fixed == .all }
            return false
        case .capacity:
            return false
        }
    }
}
