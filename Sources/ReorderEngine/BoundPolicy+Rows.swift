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
        guard rowExists(position) else { return false }
        return !immovable.contains(position.section, position.row)
    }

    /// Where a drag of the row at `from` over `proposed` should land (UIKit's
    /// `targetIndexPathForMoveFromRowAt`): the proposal when valid, otherwise the nearest
    /// valid destination, or the source under `retarget: cancel`. Out-of-range input or an
    /// immovable row gives the source.
    public func target(from: Position, proposed: Position) -> Position {
        // The usual shape first, with one look at the section: rows kept in their section,
        // held rows only at the top and bottom (headers, footers, add-rows).
        // Read through a buffer pointer: both indices are checked against its count first,
        // which saves the array's own bounds checks (BENCHMARKS.md, "rules as units").
        let s = from.section
        let fast: Position? = lanes.withUnsafeBufferPointer { lanes in
            guard UInt(bitPattern: s) < UInt(bitPattern: lanes.count) else { return nil }
            let lane = lanes[s]
            guard lane.fast else { return nil }
            let i = from.row, t = proposed.section, j = proposed.row
            guard i > Int(lane.top) && i < Int(lane.bottom),
                  UInt(bitPattern: t) < UInt(bitPattern: lanes.count), j >= 0 else { return from }
            var lo = Int(lane.lo), hi = Int(lane.hi)
            if lane.grouped {
                let run = amongRun(s, i)
                lo = Swift.max(lo, run.lo)
                hi = Swift.min(hi, run.hi)
            }
            if t == s {
                guard j < Int(lane.count) else { return from }
                if j >= lo && j <= hi { return proposed }
                return retargetCancel ? from : Position(section: s, row: j < lo ? lo : hi)
            }
            guard j <= Int(lanes[t].count) else { return from }
            if retargetSource { return Position(section: s, row: Swift.min(Swift.max(Swift.min(j, Int(lane.count) - 1), lo), hi)) }
            return retargetCancel ? from : Position(section: s, row: t < s ? lo : hi)
        }
        if let fast { return fast }
        guard fits(from, proposed), movable(from) else { return from }
        let c = sourceContext(from)
        if !c.canLeave {
            // Only the own section's interval is valid: the nearest slot is found without searching.
            if proposed.section == c.s {
                if proposed.row >= c.ownLo && proposed.row <= c.ownHi { return proposed }
                if retargetCancel { return from }
                return Position(section: c.s, row: Swift.min(Swift.max(proposed.row, c.ownLo), c.ownHi))
            }
            if retargetCancel { return from }
            if retargetSource { return inSourceSection(proposed, c) }
            return Position(section: c.s, row: proposed.section < c.s ? c.ownLo : c.ownHi)
        }
        if isValid(proposed, c) { return proposed }
        return retarget(proposed, c, from: from)
    }

    /// Where an invalid proposal lands under the policy's `retarget` (SPEC §2.3, §13.1).
    @inline(__always)
    func retarget(_ proposed: Position, _ c: SourceContext, from: Position) -> Position {
        if retargetCancel { return from }
        if retargetSource { return inSourceSection(proposed, c) }
        return nearest(to: proposed, c)
    }

    /// `retarget: source-section` (SPEC §13.1): the valid row of the source section nearest to
    /// the proposed row (the last row when the proposal lies past it). The own section's valid
    /// rows are one interval holding the source, so the nearest is the proposal clamped to it,
    /// and no tie can arise.
    func inSourceSection(_ proposed: Position, _ c: SourceContext) -> Position {
        let row = Swift.min(proposed.row, counts[c.s] - 1)
        return Position(section: c.s, row: Swift.min(Swift.max(row, c.ownLo), c.ownHi))
    }

    /// The run of rows the row at `i` of section `s` may move within under every `keep-among`
    /// (``amongRuns``; the row exists).
    @inline(__always)
    func amongRun(_ s: Int, _ i: Int) -> (lo: Int, hi: Int) {
        let word = amongRuns.withUnsafeBufferPointer { runs in rowBase.withUnsafeBufferPointer { runs[$0[s] &+ i] } }
        return (Int(Int32(truncatingIfNeeded: word)), Int(Int32(truncatingIfNeeded: word >> 32)))
    }

    /// Whether `to` is a valid destination for the (movable) row at `from`.
    public func isValid(from: Position, to: Position) -> Bool {
        guard fits(from, to), movable(from) else { return false }
        return isValid(to, sourceContext(from))
    }

    /// SPEC §1's range check on counts alone (``Table/validate(_:)`` words the errors).
    @inline(__always)
    func fits(_ from: Position, _ to: Position) -> Bool {
        // Unsigned comparisons fold the `>= 0` checks into the upper bounds.
        let s = from.section, t = to.section, sections = UInt(bitPattern: sectionCount)
        guard UInt(bitPattern: s) < sections, UInt(bitPattern: t) < sections else { return false }
        let n = summaries[s].count
        guard UInt(bitPattern: from.row) < UInt(bitPattern: n) else { return false }
        return UInt(bitPattern: to.row) <= UInt(bitPattern: t == s ? n - 1 : summaries[t].count)
    }

    private func rowExists(_ p: Position) -> Bool {
        p.section >= 0 && p.section < counts.count && p.row >= 0 && p.row < counts[p.section]
    }

    // MARK: - The fast path

    /// Whether a row that exists can be picked up.
    @inline(__always)
    func movable(_ p: Position) -> Bool {
        let summary = summaries[p.section]
        if summary.immovableSimple { return p.row > summary.immovableTop && p.row < summary.immovableBottom }
        return !immovable.contains(p.section, p.row)
    }

    @inline(__always)
    func sourceContext(_ from: Position) -> SourceContext {
        let s = from.section, i = from.row
        let summary = summaries[s]
        var own: (lo: Int, hi: Int)
        if summary.pinnedSimple {
            own = PinModel.own(below: summary.pinnedTop, above: summary.pinnedBottom, count: summary.count)
        } else {
            own = PinModel.own(below: pinnedAny.maxBelow(s, i), above: pinnedAny.minAbove(s, i), count: summary.count)
        }
        if summary.fixedOrder { own = (i, i) }
        if summary.grouped {
            let run = amongRun(s, i)
            own = (Swift.max(own.lo, run.lo), Swift.min(own.hi, run.hi))
        }
        var leaves = !summary.keepsAll && summary.canGive
            && PinModel.mayLeave(i, lastStart: lastStartPinned[s], firstEnd: firstEndPinned[s])
        if leaves {
            for q in stayingQueries where query(q, s, i) {
                leaves = false
                break
            }
        }
        if leaves {
            for g in exitGuards where g.closed[s] && query(g.rows, s, i) {
                leaves = false
                break
            }
        }
        var refused: UInt64 = 0
        if leaves {
            for a in 0..<min(admissions.count, 64) {
                if !admits(a, s, i) { refused |= 1 << UInt64(a) }
            }
        }
        return SourceContext(s: s, i: i, ownLo: own.lo, ownHi: own.hi, canLeave: leaves, refusedBy: refused)
    }

    /// Whether section `u != s` takes the row described by `c`.
    @inline(__always)
    func takes(_ u: Int, _ c: SourceContext) -> Bool {
        guard c.canLeave, openToDrops[u] else { return false }
        if openGroups != nil { return admissionMask[u] & c.refusedBy == 0 }
        for a in admissions.indices where admissions[a].guarded[u] {
            if !admits(a, c.s, c.i) { return false }
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
        if p.section == c.s { return p.row >= c.ownLo && p.row <= c.ownHi }
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
        // A movable row's own slot is valid and each search is clamped to its section, so at
        // least one side found a destination.
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
        guard rowExists(from), !immovable.contains(from.section, from.row) else { return [] }
        let c = sourceContext(from)
        var result: [ValidRows] = []
        for u in counts.indices {
            if let (lo, hi) = interval(u, c), lo <= hi { result.append(ValidRows(section: u, rows: [lo...hi])) }
        }
        return result
    }
}
