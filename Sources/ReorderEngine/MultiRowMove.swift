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

    /// The source position: where the block's first row is now. For adjacent rows a target
    /// equal to it moves nothing; rows that were apart (`[0, 2]`) still gather there, so only
    /// the decision's kind (`rejected`, `denied`) says that nothing moves.
    public var source: Position { Position(section: section, row: rows.first ?? 0) }
}

/// The answer to a multi-row proposal.
public struct MultiRowDecision: Hashable, Sendable {
    /// The proposal.
    public var move: MultiRowMove
    /// The outcome.
    public var kind: DecisionKind
    /// Where the block's first row ends up (the block takes `target` and the `rows.count - 1`
    /// rows after it); the source when nothing moves (`rejected`, `denied`). An allowed block of
    /// rows that were apart may land at the source too: it gathers there.
    public var target: Position
    /// Rules that hold a moving row (`denied`), or that the proposal breaks, naming each refused row.
    public var violations: [Violation]
}

extension Table {
    /// Checks a multi-row move against the table (SPEC §1, extended to blocks).
    public func validate(_ move: MultiRowMove) throws(MoveError) {
        try Self.validate(move, sections: sections.count) { sections[$0].rows.count }
    }

    /// Checks a multi-row move against a table of `count` sections of `rows(u)` rows each.
    static func validate(_ move: MultiRowMove, sections count: Int, rows: (Int) -> Int) throws(MoveError) {
        guard move.section >= 0, move.section < count else {
            throw MoveError("source section \(move.section) does not exist; the table has \(count) section\(count == 1 ? "" : "s")")
        }
        let n = rows(move.section)
        guard let first = move.rows.first, let last = move.rows.last else { throw MoveError("a multi-row move needs at least one row") }
        guard first >= 0, last < n else {
            throw MoveError("source rows \(move.rows) do not all exist; section \(move.section) has \(n) row\(n == 1 ? "" : "s")")
        }
        guard move.to.section >= 0, move.to.section < count else {
            throw MoveError("destination section \(move.to.section) does not exist; the table has \(count) section\(count == 1 ? "" : "s")")
        }
        let limit = move.to.section == move.section ? n - move.rows.count : rows(move.to.section)
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
    /// `keep-in-section` and `accept`, with `capacity` counting all moving rows (with `rows`, the
    /// moving rows it selects). An invalid
    /// proposal is retargeted to the nearest valid index in reading order (ties go to the
    /// slot nearer the source); when no index is valid the block stays (`rejected`).
    ///
    /// Cost: linear in the pinned rows of the sections involved, and in the table's slots
    /// when retargeting (multi-row moves are not the hot path).
    public func decide(_ move: MultiRowMove) throws(MoveError) -> MultiRowDecision {
        try validate(move)
        var holding: [Violation] = []
        for index in effects.indices {
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
        guard (try? validate(probe)) != nil else { return false }
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
        if retargetSource {
            // SPEC §13.1 for a block: the valid landing of its own section nearest to the proposed
            // row (the last landing when the proposal lies past it), on a tie the one nearer to
            // where the block starts.
            let c = min(move.to.row, counts[s] - m), start = min(move.rows[0], counts[s] - m)
            var best: Int? = nil
            for k in 0...(counts[s] - m) where multiViolations(move, to: Position(section: s, row: k), reasons: false).isEmpty {
                if let b = best, (abs(b - c), abs(b - start)) <= (abs(k - c), abs(k - start)) { continue }
                best = k
            }
            return best.map { Position(section: s, row: $0) }
        }
        for (index, slot) in slots.enumerated() where multiViolations(move, to: slot, reasons: false).isEmpty {
            if let b = best {
                if (abs(index - p), abs(index - q)) < (abs(b - p), abs(b - q)) { best = index }
            } else {
                best = index
            }
        }
        return best.map { slots[$0] }
    }

    /// The rules a block landing at `to` breaks, in file order (reasons only when asked):
    /// violated or not from each rule's effects, worded by its unit.
    func multiViolations(_ move: MultiRowMove, to: Position, reasons: Bool) -> [Violation] {
        var out: [Violation] = []
        for index in effects.indices where breaks(effects[index], block: move, to: to) {
            let reason = reasons ? withUnsafePointer(to: self) { compiled.rules[index].word(BlockCheck(bound: $0, rule: index, move: move, to: to)) } : ""
            out.append(Violation(compiled.rowRuleReferences[index], reason: reason))
        }
        return out
    }
}
