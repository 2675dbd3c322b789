/// Several rows of one section moved together (SwiftUI's `IndexSet` sources, multi-selection
/// drags): the rows are removed, then inserted as one block, in their original order, so that
/// the block's first row ends up at `to` (an index counted after the removal).
public struct MultiRowMove: Hashable, Sendable {
    /// The section the rows come from.
    public var section: Int
    /// The rows' indices, ascending and distinct.
    public var rows: [Int]
    /// Where the block's first row ends up, counted after the removal.
    public var to: Position

    /// Creates a move; `rows` is sorted and deduplicated.
    public init(section: Int, rows: [Int], to: Position) {
        self.section = section
        self.rows = Array(Set(rows)).sorted()
        self.to = to
    }

    /// The source position: where the block's first row is now. A target equal to it means
    /// "no move".
    public var source: Position { Position(section: section, row: rows.first ?? 0) }
}

/// The answer to a multi-row proposal.
public struct MultiRowDecision: Hashable, Sendable {
    /// The proposal.
    public var move: MultiRowMove
    /// The outcome.
    public var kind: DecisionKind
    /// Where the block's first row ends up; the source when nothing moves.
    public var target: Position
    /// Rules that hold a moving row (`denied`), or that the proposal breaks, naming each refused row.
    public var violations: [Violation]
}

extension Table {
    /// Checks a multi-row move against the table (SPEC §1, extended to blocks).
    public func validate(_ move: MultiRowMove) throws(MoveError) {
        let count = sections.count
        guard move.section >= 0, move.section < count else {
            throw MoveError("source section \(move.section) does not exist; the table has \(count) section\(count == 1 ? "" : "s")")
        }
        let n = sections[move.section].rows.count
        guard let first = move.rows.first, let last = move.rows.last else { throw MoveError("a multi-row move needs at least one row") }
        guard first >= 0, last < n else {
            throw MoveError("source rows \(move.rows) do not all exist; section \(move.section) has \(n) row\(n == 1 ? "" : "s")")
        }
        guard move.to.section >= 0, move.to.section < count else {
            throw MoveError("destination section \(move.to.section) does not exist; the table has \(count) section\(count == 1 ? "" : "s")")
        }
        let limit = move.to.section == move.section ? n - move.rows.count : sections[move.to.section].rows.count
        guard move.to.row >= 0, move.to.row <= limit else {
            throw MoveError("destination \(move.to) is out of range; a block of \(move.rows.count) can be dropped at 0...\(limit) in section \(move.to.section)")
        }
    }

    /// The table after a multi-row move: remove the rows, then insert them as one block.
    public func applying(_ move: MultiRowMove) throws(MoveError) -> Table {
        try validate(move)
        var copy = self
        let moving = move.rows.map { copy.sections[move.section].rows[$0] }
        for k in move.rows.reversed() { copy.sections[move.section].rows.remove(at: k) }
        copy.sections[move.to.section].rows.insert(contentsOf: moving, at: move.to.row)
        return copy
    }
}

extension BoundPolicy {
    /// Decides a multi-row move. Valid iff no moving row is locked, pinned or reserved, no
    /// pinned row changes its anchored position, and every moving row passes
    /// `keep-in-section` and `accept`, with `capacity` counting all moving rows. An invalid
    /// proposal is retargeted to the nearest valid index in reading order (ties go to the
    /// slot nearer the source); when no index is valid the block stays (`rejected`).
    ///
    /// Cost: linear in the pinned rows of the sections involved, and in the table's slots
    /// when retargeting (multi-row moves are not the hot path).
    public func decide(_ move: MultiRowMove) throws(MoveError) -> MultiRowDecision {
        try table.validate(move)
        let rules = compiled.policy.rules
        var holding: [Violation] = []
        for index in rules.indices {
            // The first moving row each lock, pin or reserve rule holds names it.
            for k in move.rows {
                if let finding = holdsMovingRow(index, Position(section: move.section, row: k)) {
                    holding.append(Violation(compiled.rowRuleReferences[index], reason: finding.reason))
                    break
                }
            }
        }
        if !holding.isEmpty { return MultiRowDecision(move: move, kind: .denied, target: move.source, violations: holding) }
        let broken = multiViolations(move, to: move.to, reasons: true)
        if broken.isEmpty { return MultiRowDecision(move: move, kind: .allowed, target: move.to, violations: []) }
        let target = retargetCancel ? move.source : (nearestMulti(move) ?? move.source)
        return MultiRowDecision(move: move, kind: target == move.source ? .rejected : .retargeted, target: target, violations: broken)
    }

    /// Whether the block may land at `to`.
    public func isValid(_ move: MultiRowMove, to: Position) -> Bool {
        var probe = move
        probe.to = to
        guard (try? table.validate(probe)) != nil else { return false }
        return multiViolations(move, to: to, reasons: false).isEmpty
    }

    /// The nearest valid destination by reading-order slot, or nil when none is valid.
    func nearestMulti(_ move: MultiRowMove) -> Position? {
        let s = move.section, m = move.rows.count
        var slots: [Position] = []
        for u in 0..<sectionCount {
            let count = u == s ? counts[u] - m + 1 : counts[u] + 1
            for k in 0..<count { slots.append(Position(section: u, row: k)) }
        }
        guard let p = slots.firstIndex(of: move.to) else { return nil }
        let q = slots.firstIndex(of: Position(section: s, row: min(move.rows[0], counts[s] - m))) ?? p
        var best: Int? = nil
        for (index, slot) in slots.enumerated() where multiViolations(move, to: slot, reasons: false).isEmpty {
            if let b = best {
                if (abs(index - p), abs(index - q)) < (abs(b - p), abs(b - q)) { best = index }
            } else {
                best = index
            }
        }
        return best.map { slots[$0] }
    }

    /// The rules a block landing at `to` breaks, in file order (reasons only when asked).
    func multiViolations(_ move: MultiRowMove, to: Position, reasons: Bool) -> [Violation] {
        let rules = compiled.policy.rules
        let s = move.section, t = to.section, m = move.rows.count
        let moving = move.rows.map { Position(section: s, row: $0) }
        let label = moving.count == 1 ? "\(moving[0])" : "\(moving.count) rows from section \(s)"
        var out: [Violation] = []
        func add(_ index: Int, _ reason: @autoclosure () -> Reason) {
            out.append(Violation(compiled.rowRuleReferences[index], reason: reasons ? reason() : ""))
        }
        for index in rules.indices {
            switch rules[index].kind {
            case .lock:
                continue
            case .pin, .reserve:
                let h = compiled.holdIndexOfRule[index]!
                if let shifted = shiftedPinnedRow(h, move, to: to) {
                    let word = compiled.holds[h].reserved ? "reserved" : "pinned"
                    add(index, "moving \(label) to \(to) would shift \(word) row \(rowName(shifted.0)) from \(shifted.0) to \(shifted.1)")
                }
            case .keepInSection:
                guard t != s else { continue }
                let q = compiled.queryIndexOfRule[index]!
                let kept = moving.filter { query(q, $0.section, $0.row) }
                if !kept.isEmpty {
                    add(index, "moving \(names(kept)) to \(to) would take \(kept.count == 1 ? "it" : "them") out of \(sectionName(s))")
                }
            case .accept:
                let a = compiled.acceptIndexOfRule[index]!
                guard t != s, acceptCovers[a][t] else { continue }
                if !acceptsFrom(a, s) {
                    add(index, "\(sectionName(t)) does not accept rows from \(sectionName(s))")
                } else {
                    let refused = moving.filter { !query(acceptQueries[a], $0.section, $0.row) }
                    if !refused.isEmpty {
                        add(index, "\(sectionName(t)) does not accept \(refused.count == 1 ? "row" : "rows") \(names(refused))")
                    }
                }
            case .capacity(_, let max, let min):
                guard t != s, let covers = capacityCovers[index] else { continue }
                if covers[t], let max, counts[t] + m > max {
                    add(index, "moving \(label) to \(to) would put \(plural(counts[t] + m, "row")) in \(sectionName(t)), more than its max of \(max)")
                } else if covers[s], let min, counts[s] - m < min {
                    add(index, "moving \(label) out of \(sectionName(s)) would leave \(plural(counts[s] - m, "row")), fewer than its min of \(min)")
                }
            }
        }
        return out
    }

    /// `"A"`, `"A" and "B"`, `"A", "B" and "C"`.
    private func names(_ rows: [Position]) -> Reason {
        var parts: [Reason.Part] = []
        for (n, p) in rows.enumerated() {
            if n > 0 { parts.append(.text(n == rows.count - 1 ? " and " : ", ")) }
            parts.append(rowName(p))
        }
        return Reason(parts)
    }

    /// The first row held by hold `h` whose anchored position the block move changes: its old and new position.
    private func shiftedPinnedRow(_ h: Int, _ move: MultiRowMove, to: Position) -> (Position, Position)? {
        let s = move.section, t = to.section, m = move.rows.count
        var sections = [s]
        if t != s { sections.append(t) }
        for u in sections.sorted() {
            let n = counts[u]
            let newCount = n - (u == s ? m : 0) + (u == t ? m : 0)
            for (ranges, anchorEnd) in [(holdStart[h], false), (holdEnd[h], true)] {
                for (lo, hi) in ranges.ranges(u) {
                    for k in lo...hi {
                        var k2 = k
                        if u == s { k2 -= move.rows.prefix { $0 < k }.count }
                        if u == t && k2 >= to.row { k2 += m }
                        let moved = anchorEnd ? (newCount - 1 - k2 != n - 1 - k) : (k2 != k)
                        if moved { return (Position(section: u, row: k), Position(section: u, row: k2)) }
                    }
                }
            }
        }
        return nil
    }
}
