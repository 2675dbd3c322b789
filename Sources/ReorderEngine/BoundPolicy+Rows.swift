/// What a movable row's destinations look like, worked out once per source.
struct SourceContext {
    let s: Int
    let i: Int
    /// Valid destinations within the own section: `ownLo...ownHi` (always contains `i`).
    let ownLo: Int
    let ownHi: Int
    /// Whether the row may leave its section at all.
    let canLeave: Bool
    /// Accept rules (as bits) that refuse this row from this section.
    let refusedBy: UInt64
}

extension BoundPolicy {
    /// Whether the row at `position` can be picked up (UIKit's `canMoveRowAt`).
    /// False for positions outside the table.
    public func canMove(_ position: Position) -> Bool {
        guard let row = rowExists(position), row else { return false }
        return !immovable.contains(position.section, position.row)
    }

    /// Where a drag of the row at `from` over `proposed` should land (UIKit's
    /// `targetIndexPathForMoveFromRowAt`): the proposal when valid, otherwise the nearest
    /// valid destination, or the source under `retarget: cancel`. Out-of-range input or an
    /// immovable row gives the source.
    public func target(from: Position, proposed: Position) -> Position {
        guard (try? table.validate(.row(from: from, to: proposed))) != nil,
              !immovable.contains(from.section, from.row) else { return from }
        let context = sourceContext(from)
        if isValid(proposed, context) { return proposed }
        if compiled.policy.retarget == .cancel { return from }
        return nearest(to: proposed, context)
    }

    /// Whether `to` is a valid destination for the (movable) row at `from`.
    public func isValid(from: Position, to: Position) -> Bool {
        guard (try? table.validate(.row(from: from, to: to))) != nil,
              !immovable.contains(from.section, from.row) else { return false }
        return isValid(to, sourceContext(from))
    }

    private func rowExists(_ p: Position) -> Bool? {
        guard p.section >= 0, p.section < counts.count, p.row >= 0, p.row < counts[p.section] else { return nil }
        return true
    }

    // MARK: - The fast path

    @inline(__always)
    func sourceContext(_ from: Position) -> SourceContext {
        let s = from.section, i = from.row
        let lo = (pinnedAny.maxBelow(s, i) ?? -1) + 1
        let hi = (pinnedAny.minAbove(s, i) ?? counts[s]) - 1
        var leaves = canGiveOne[s] && lastStartPinned[s] < i && firstEndPinned[s] > i
        if leaves {
            for q in compiled.keepQueries where query(q, s, i) {
                leaves = false
                break
            }
        }
        var refused: UInt64 = 0
        if leaves {
            for (a, accept) in compiled.accepts.enumerated() where a < 64 {
                if !(acceptFrom[a][s] && query(accept.query, s, i)) { refused |= 1 << UInt64(a) }
            }
        }
        return SourceContext(s: s, i: i, ownLo: lo, ownHi: hi, canLeave: leaves, refusedBy: refused)
    }

    /// Whether section `u != s` takes the row described by `c`.
    @inline(__always)
    func takes(_ u: Int, _ c: SourceContext) -> Bool {
        guard c.canLeave, openToDrops[u] else { return false }
        if openGroups != nil { return acceptMask[u] & c.refusedBy == 0 }
        for a in acceptCovers.indices where acceptCovers[a][u] {
            if !(acceptFrom[a][c.s] && query(compiled.accepts[a].query, c.s, c.i)) { return false }
        }
        return true
    }

    /// The valid rows of section `u` for the source `c`, or nil if none.
    @inline(__always)
    func interval(_ u: Int, _ c: SourceContext) -> (lo: Int, hi: Int)? {
        if u == c.s { return (c.ownLo, c.ownHi) }
        return takes(u, c) ? (inLo[u], inHi[u]) : nil
    }

    @inline(__always)
    func isValid(_ p: Position, _ c: SourceContext) -> Bool {
        guard let (lo, hi) = interval(p.section, c) else { return false }
        return p.row >= lo && p.row <= hi
    }

    /// Reading-order slot number of `p` for a row moving out of section `s` (SPEC §2.3).
    @inline(__always)
    func offset(_ p: Position, source s: Int) -> Int {
        slotsBefore[p.section] - (p.section > s ? 1 : 0) + p.row
    }

    /// The nearest section before (`forward == false`) or after `t`, other than the source, that takes the row.
    func nearestTaker(from t: Int, forward: Bool, _ c: SourceContext) -> Int? {
        guard c.canLeave else { return nil }
        guard let groups = openGroups else {
            var u = forward ? t + 1 : t - 1
            while u >= 0 && u < counts.count {
                if u != c.s && takes(u, c) { return u }
                u += forward ? 1 : -1
            }
            return nil
        }
        var best: Int? = nil
        for group in groups where group.mask & c.refusedBy == 0 {
            let list = group.sections
            // First index in `list` with value > t (forward) or >= t (backward).
            var lo = 0, hi = list.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if forward ? list[mid] <= t : list[mid] < t { lo = mid + 1 } else { hi = mid }
            }
            var k = forward ? lo : lo - 1
            if k >= 0 && k < list.count && list[k] == c.s { k += forward ? 1 : -1 }
            guard k >= 0 && k < list.count else { continue }
            let u = list[k]
            if let b = best {
                best = forward ? min(b, u) : max(b, u)
            } else {
                best = u
            }
        }
        return best
    }

    /// The valid destination nearest to an invalid proposal (SPEC §2.3).
    func nearest(to p: Position, _ c: SourceContext) -> Position {
        var below: Position? = nil, above: Position? = nil
        if let (lo, hi) = interval(p.section, c) {
            if p.row > hi { below = Position(section: p.section, row: hi) }
            if p.row < lo { above = Position(section: p.section, row: lo) }
        }
        if below == nil {
            var u = nearestTaker(from: p.section, forward: false, c)
            if c.s < p.section { u = max(u ?? c.s, c.s) }
            if let u { below = Position(section: u, row: u == c.s ? c.ownHi : inHi[u]) }
        }
        if above == nil {
            var u = nearestTaker(from: p.section, forward: true, c)
            if c.s > p.section { u = min(u ?? c.s, c.s) }
            if let u { above = Position(section: u, row: u == c.s ? c.ownLo : inLo[u]) }
        }
        guard let b = below else { return above! }
        guard let a = above else { return b }
        let target = offset(p, source: c.s), source = offset(Position(section: c.s, row: c.i), source: c.s)
        let ob = offset(b, source: c.s), oa = offset(a, source: c.s)
        let db = target - ob, da = oa - target
        if db != da { return db < da ? b : a }
        return abs(ob - source) <= abs(oa - source) ? b : a
    }

    /// Every valid destination of the row at `from`, as inclusive ranges per section; empty when it cannot move.
    public func validDestinations(from: Position) -> [ValidRows] {
        guard rowExists(from) != nil, !immovable.contains(from.section, from.row) else { return [] }
        let c = sourceContext(from)
        var result: [ValidRows] = []
        for u in counts.indices {
            if let (lo, hi) = interval(u, c), lo <= hi { result.append(ValidRows(section: u, rows: [lo...hi])) }
        }
        return result
    }
}
