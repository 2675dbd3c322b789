import ReorderEngine

/// A deliberately simple evaluator written straight from SPEC §2: it simulates every
/// candidate destination on a copy of the table and checks every rule by its definition.
/// Used only to check the fast engine; it shares no code with it.
struct ReferenceEvaluator {
    let policy: Policy
    let table: Table

    struct Outcome: Equatable, CustomStringConvertible {
        var kind: DecisionKind
        var target: Destination
        var ruleIDs: [String]
        var description: String { "\(kind) \(target) \(ruleIDs)" }
    }

    // MARK: Selectors, literally

    func sections(_ selector: SectionSelector) -> (selected: Set<Int>, fromEnd: Set<Int>) {
        let count = table.sections.count
        switch selector {
        case .all: return (Set(0..<count), [])
        case .some(let refs):
            var selected = Set<Int>(), fromEnd = Set<Int>()
            for ref in refs {
                switch ref {
                case .index(let i):
                    let r = i < 0 ? count + i : i
                    if (0..<count).contains(r) {
                        selected.insert(r)
                        if i < 0 { fromEnd.insert(r) }
                    }
                case .id(let id):
                    for u in 0..<count where table.sections[u].id == id { selected.insert(u) }
                }
            }
            return (selected, fromEnd)
        }
    }

    /// Whether `selector` selects the row at `p`, and whether through the end.
    func selects(_ selector: RowSelector, _ p: Position) -> (Bool, Bool) {
        let rows = table.sections[p.section].rows
        let n = rows.count, k = p.row, row = rows[k]
        if let s = selector.section, !sections(s).selected.contains(p.section) { return (false, false) }
        var fromEnd = false
        switch selector.position {
        case .first(let c)?: if !(k < c) { return (false, false) }
        case .last(let c)?:
            if !(k >= n - c) { return (false, false) }
            fromEnd = true
        case .indices(let list)?:
            var hit = false
            for e in list {
                if e >= 0 && e == k { hit = true }
                if e < 0 && n + e == k {
                    hit = true
                    fromEnd = true
                }
            }
            if !hit { return (false, false) }
        case nil: break
        }
        if let ids = selector.ids, !ids.contains(row.id) { return (false, false) }
        if let kinds = selector.kinds, !(row.kind.map { kinds.contains($0) } ?? false) { return (false, false) }
        if let tags = selector.tags, !row.tags.contains(where: { tags.contains($0) }) { return (false, false) }
        return (true, fromEnd)
    }

    func allPositions() -> [Position] {
        table.sections.indices.flatMap { s in table.sections[s].rows.indices.map { Position(section: s, row: $0) } }
    }

    /// Rows a lock/pin/reserve rule holds, with their anchors; nil for other kinds.
    func held(_ rule: RowRule) -> [(Position, Anchor)]? {
        switch rule.kind {
        case .lock(let sel), .pin(let sel, _):
            var anchorOverride: Anchor? = nil
            if case .pin(_, let a) = rule.kind { anchorOverride = a }
            return allPositions().compactMap { p in
                let (hit, fromEnd) = selects(sel, p)
                return hit ? (p, anchorOverride ?? (fromEnd ? .end : .start)) : nil
            }
        case .reserve(let edge, let count, let section):
            let chosen = section.map { sections($0).selected } ?? Set(table.sections.indices)
            return allPositions().compactMap { p in
                guard chosen.contains(p.section) else { return nil }
                let n = table.sections[p.section].rows.count
                let hit = edge == .start ? p.row < count : p.row >= n - count
                return hit ? (p, edge) : nil
            }
        default: return nil
        }
    }

    func isPin(_ rule: RowRule) -> Bool {
        if case .lock = rule.kind { return false }
        return held(rule) != nil
    }

    // MARK: Rows

    /// Simulates the move on tagged rows and returns where each original position ends up, and the new counts.
    func simulate(_ from: Position, _ to: Position) -> ([Position: Position], [Int]) {
        var grid = table.sections.indices.map { s in table.sections[s].rows.indices.map { Position(section: s, row: $0) } }
        let moving = grid[from.section].remove(at: from.row)
        grid[to.section].insert(moving, at: to.row)
        var whereIs: [Position: Position] = [:]
        for (s, rows) in grid.enumerated() {
            for (r, original) in rows.enumerated() { whereIs[original] = Position(section: s, row: r) }
        }
        return (whereIs, grid.map(\.count))
    }

    /// Whether a move that sent each original row to `whereIs` (leaving `counts` rows per
    /// section) changes the section or anchored position of a row `rule` holds.
    func pinsShift(_ rule: RowRule, _ whereIs: [Position: Position], _ counts: [Int]) -> Bool {
        held(rule)!.contains { p, anchor in
            let q = whereIs[p]!
            let n0 = table.sections[p.section].rows.count, n1 = counts[q.section]
            return q.section != p.section || (anchor == .start && q.row != p.row)
                || (anchor == .end && n1 - 1 - q.row != n0 - 1 - p.row)
        }
    }

    func violatedRules(_ from: Position, _ to: Position) -> [String] {
        let (whereIs, newCounts) = simulate(from, to)
        let s = from.section, t = to.section
        var out: [String] = []
        for rule in policy.rules {
            var broken = false
            switch rule.kind {
            case .lock: break
            case .pin, .reserve:
                broken = pinsShift(rule, whereIs, newCounts)
            case .keepInSection(let sel):
                broken = selects(sel, from).0 && t != s
            case .accept(let section, let fromSel, let rows):
                if t != s && sections(section).selected.contains(t) {
                    broken = !(sections(fromSel).selected.contains(s) && selects(rows, from).0)
                }
            case .capacity(let section, let max, let min):
                if t != s {
                    let chosen = sections(section).selected
                    if let max, chosen.contains(t), table.sections[t].rows.count + 1 > max { broken = true }
                    if let min, chosen.contains(s), table.sections[s].rows.count - 1 < min { broken = true }
                }
            }
            if broken { out.append(rule.metadata.id) }
        }
        return out
    }

    func rowOutcome(_ from: Position, _ to: Position) -> Outcome {
        let holding = policy.rules.filter { rule in held(rule)?.contains { $0.0 == from } ?? false }
        if !holding.isEmpty { return Outcome(kind: .denied, target: .row(from), ruleIDs: holding.map(\.metadata.id)) }
        let violated = violatedRules(from, to)
        if violated.isEmpty { return Outcome(kind: .allowed, target: .row(to), ruleIDs: []) }
        if policy.retarget == .cancel { return Outcome(kind: .rejected, target: .row(from), ruleIDs: violated) }
        // Every destination slot in reading order.
        var slots: [Position] = []
        for (u, section) in table.sections.enumerated() {
            let count = u == from.section ? section.rows.count : section.rows.count + 1
            for k in 0..<count { slots.append(Position(section: u, row: k)) }
        }
        let p = slots.firstIndex(of: to)!, q = slots.firstIndex(of: from)!
        let best = slots.indices.filter { violatedRules(from, slots[$0]).isEmpty }
            .min { (abs($0 - p), abs($0 - q)) < (abs($1 - p), abs($1 - q)) }!
        let target = slots[best]
        return Outcome(kind: target == from ? .rejected : .retargeted, target: .row(target), ruleIDs: violated)
    }

    func validRows(_ from: Position) -> Set<Position> {
        guard rowOutcome(from, from).kind != .denied else { return [] }
        var out = Set<Position>()
        for (u, section) in table.sections.enumerated() {
            let count = u == from.section ? section.rows.count : section.rows.count + 1
            for k in 0..<count where violatedRules(from, Position(section: u, row: k)).isEmpty {
                out.insert(Position(section: u, row: k))
            }
        }
        return out
    }

    // MARK: Sections

    func sectionsHeld(_ rule: SectionRule) -> Set<Int> {
        let count = table.sections.count
        let target: SectionRuleTarget
        switch rule.kind {
        case .lock(let t), .pin(let t, _): target = t
        }
        switch target {
        case .sections(let sel): return sections(sel).selected
        case .first(let n): return Set((0..<count).filter { $0 < n })
        case .last(let n): return Set((0..<count).filter { $0 >= count - n })
        }
    }

    func sectionViolations(_ a: Int, _ b: Int) -> [String] {
        var order = Array(table.sections.indices)
        order.insert(order.remove(at: a), at: b)
        return policy.sectionRules.compactMap { rule in
            guard case .pin = rule.kind else { return nil }
            let moved = sectionsHeld(rule).contains { order.firstIndex(of: $0)! != $0 }
            return moved ? rule.metadata.id : nil
        }
    }

    func sectionOutcome(_ a: Int, _ b: Int) -> Outcome {
        let holding = policy.sectionRules.filter { sectionsHeld($0).contains(a) }
        if !holding.isEmpty { return Outcome(kind: .denied, target: .section(a), ruleIDs: holding.map(\.metadata.id)) }
        let violated = sectionViolations(a, b)
        if violated.isEmpty { return Outcome(kind: .allowed, target: .section(b), ruleIDs: []) }
        if policy.retarget == .cancel { return Outcome(kind: .rejected, target: .section(a), ruleIDs: violated) }
        let best = table.sections.indices.filter { sectionViolations(a, $0).isEmpty }
            .min { (abs($0 - b), abs($0 - a)) < (abs($1 - b), abs($1 - a)) }!
        return Outcome(kind: best == a ? .rejected : .retargeted, target: .section(best), ruleIDs: violated)
    }
}
