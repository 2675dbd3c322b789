/// Whether one rule's effects forbid a move: the only code that decides a rule is violated.
/// It reads the same effects and ``PinModel``/``SectionLimits`` functions that the packed
/// fast-path tables are built from (`BoundPolicy.init`), so for every move
/// `isValid == !rules.contains(where: breaks)` holds by construction (and the reference
/// comparison tests check it over thousands of random cases).
extension BoundPolicy {
    /// Whether row rule `rule` forbids moving the movable row at `from` to `to`.
    ///
    /// The rule's effects are read in place: a copy of ``RuleEffects`` (400 bytes, with a
    /// retain of every array in it) per rule and refused move was a fifth of deciding a batch
    /// of refused moves (issue #26).
    func breaks(_ rule: Int, _ from: Position, _ to: Position) -> Bool {
        effects.withUnsafeBufferPointer { breaks(effects: $0.baseAddress! + rule, from, to) }  // rule is an index of effects
    }

    private func breaks(effects e: UnsafePointer<RuleEffects>, _ from: Position, _ to: Position) -> Bool {
        let s = from.section, i = from.row, t = to.section, j = to.row
        if e.pointee.held?.pins == true {
            // Just tested: held is set.
            if t == s {
                let below = Self.larger(e.pointee.held!.start.maxBelow(s, i), e.pointee.held!.end.maxBelow(s, i))
                let above = Self.smaller(e.pointee.held!.start.minAbove(s, i), e.pointee.held!.end.minAbove(s, i))
                let own = PinModel.own(below: below, above: above, count: counts[s])
                if j < own.lo || j > own.hi { return true }
            } else {
                if !PinModel.mayLeave(i, lastStart: e.pointee.held!.lastStart(s), firstEnd: e.pointee.held!.firstEnd(s)) { return true }
                let entry = PinModel.entry(lastStart: e.pointee.held!.lastStart(t), firstEnd: e.pointee.held!.firstEnd(t), count: counts[t])
                if j < entry.lo || j > entry.hi { return true }
            }
        }
        if t == s {
            if e.pointee.fixedOrder?[s] == true, j != i { return true }
            // Just tested: among is set.
            if e.pointee.among != nil, e.pointee.among!.firstOther(s, i, j) != nil { return true }
            return false
        }
        if e.pointee.limits != nil,
           // Just tested: limits is set.
           !e.pointee.limits!.allowsMove(from: s, to: t, moving: e.pointee.limits!.rows.map { query($0, s, i) ? 1 : 0 } ?? 1, counts: counts) {
            return true
        }
        if let q = e.pointee.staying, query(q, s, i) { return true }
        if e.pointee.admission?.guarded[t] == true,
           // Just tested: admission is set.
           !(e.pointee.admission!.from[s] && query(e.pointee.admission!.rows, s, i)) { return true }
        return false
    }

    /// Whether the effects `e` forbid the block `move` landing at `to` (its rows movable).
    func breaks(_ e: RuleEffects, block move: MultiRowMove, to: Position) -> Bool {
        let s = move.section, t = to.section
        if let held = e.held, held.pins, shiftedHeldRow(held, move, to: to) != nil { return true }
        if t == s {
            if let fixed = e.fixedOrder, fixed[s], !Self.keepsOrder(move, to: to) { return true }
            if let among = e.among, among.firstOther(block: move, to: to) != nil { return true }
            return false
        }
        if let limits = e.limits, !limits.allowsMove(from: s, to: t, moving: countedRows(limits, move), counts: counts) {
            return true
        }
        if let q = e.staying, move.rows.contains(where: { query(q, s, $0) }) { return true }
        if let a = e.admission, a.guarded[t], !a.from[s] || move.rows.contains(where: { !query(a.rows, s, $0) }) { return true }
        return false
    }

    /// How many rows of the block `limits` counts (all of them without `rows`).
    func countedRows(_ limits: SectionLimits, _ move: MultiRowMove) -> Int {
        guard let q = limits.rows else { return move.rows.count }
        return move.rows.reduce(0) { $0 + (query(q, move.section, $1) ? 1 : 0) }
    }

    /// A block moved within its section leaves the order as it was only when its rows are
    /// adjacent and land where they started.
    static func keepsOrder(_ move: MultiRowMove, to: Position) -> Bool {
        guard let first = move.rows.first, let last = move.rows.last else { return true }
        return last - first + 1 == move.rows.count && to.row == first
    }

    /// The first row held by `held` whose section or anchored position the block move
    /// changes: its old and new position.
    ///
    /// Not row by row, nor range by range: in each section the shift of a row, `k2 - k`, is
    /// constant between *breakpoints* (just after each moving row of the source section, and
    /// where the row's index after removal reaches the drop slot), so each stretch between
    /// breakpoints whose shift moves an anchored row asks the held ranges for their first
    /// member in it, by binary search. A call costs O(m log R) for m moving rows and R held
    /// ranges (issue #26: a 160,000-row table with 80,000 pinned rows was O(destinations × held
    /// rows); with a pinned row every thousand rows it was still O(destinations × R)). A row at
    /// anchor `start` moves when its shift is not 0; at anchor `end` when it is not the change
    /// in the section's size.
    func shiftedHeldRow(_ held: HeldRows, _ move: MultiRowMove, to: Position) -> (Position, Position)? {
        let s = move.section, t = to.section, m = move.rows.count
        let rows = move.rows
        /// How many moving rows lie before index `k` (rows are ascending).
        func before(_ k: Int) -> Int {
            var lo = 0, hi = rows.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if rows[mid] < k { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        for u in (t == s ? [s] : [Swift.min(s, t), Swift.max(s, t)]) {
            let n = counts[u]
            guard n > 0 else { continue }
            let newCount = n - (u == s ? m : 0) + (u == t ? m : 0)
            /// Where the row at `k` ends up.
            func after(_ k: Int) -> Int {
                var k2 = u == s ? k - before(k) : k
                if u == t && k2 >= to.row { k2 += m }
                return k2
            }
            // The breakpoints of section u, ascending: 0, after each moving row of the source,
            // and the first row whose index after removal reaches the slot (monotone in k).
            var points = [0]
            if u == s { points += rows.map { $0 + 1 }.filter { $0 < n } }
            if u == t {
                var a = 0, b = n
                while a < b {
                    let mid = (a + b) / 2
                    if (u == s ? mid - before(mid) : mid) >= to.row { b = mid } else { a = mid + 1 }
                }
                if a < n { points.append(a) }
            }
            points = Array(Set(points)).sorted()
            for (ranges, anchorEnd) in [(held.start, false), (held.end, true)] where !ranges.isEmpty(u) {
                let unchanged = anchorEnd ? newCount - n : 0
                for (index, lo) in points.enumerated() where after(lo) - lo != unchanged {
                    let hi = index + 1 < points.count ? points[index + 1] - 1 : n - 1
                    if let k = ranges.firstIn(u, lo, hi) {
                        return (Position(section: u, row: k), Position(section: u, row: after(k)))
                    }
                }
            }
        }
        return nil
    }

    /// The larger (or smaller) of two optional indices; nil only when both are.
    static func larger(_ a: Int?, _ b: Int?) -> Int? { combined(a, b, Swift.max) }
    static func smaller(_ a: Int?, _ b: Int?) -> Int? { combined(a, b, Swift.min) }

    private static func combined(_ a: Int?, _ b: Int?, _ pick: (Int, Int) -> Int) -> Int? {
        guard let a else { return b }
        guard let b else { return a }
        return pick(a, b)
    }
}

/// What a rule unit sees when it words its verdict on one row move.
package struct RowCheck: RuleCheck {
    /// The bound policy, borrowed for the length of one wording: a stored copy of the struct
    /// cost a retain and a release of each of its arrays per worded rule (perf: 8 % of
    /// `check --moves`). Valid only for the one wording it is made for (``BoundPolicy``'s
    /// `rowWording`).
    private let boundAddress: UnsafePointer<BoundPolicy>
    var bound: BoundPolicy { unsafeAddress { boundAddress } }
    /// The rule's effects on this table (borrowed from the bound policy, like it).
    var effects: RuleEffects { _read { yield bound.effects[rule] } }
    /// The rule's index in the policy.
    let rule: Int
    let from: Position
    let to: Position
    /// Whether the rule is violated (decided by ``BoundPolicy/breaks(_:_:_:)``, not by the unit).
    let broken: Bool

    var s: Int { from.section }
    var i: Int { from.row }
    var t: Int { to.section }
    var j: Int { to.row }
    /// The moving row's id, quoted.
    var row: RowName { RowName(bound: boundAddress, position: from) }
    /// A row's id, quoted (read in place when written: no copy of the id, unlike a ``Reason/Part``).
    func rowName(_ p: Position) -> RowName { RowName(bound: boundAddress, position: p) }
    /// `section 1 ("Doing")` or `section 1` (read in place when written, like ``rowName(_:)``).
    func sectionName(_ u: Int) -> SectionName { SectionName(bound: boundAddress, section: u) }

    init(bound: UnsafePointer<BoundPolicy>, rule: Int, from: Position, to: Position, broken: Bool) {
        self.boundAddress = bound
        self.rule = rule
        self.from = from
        self.to = to
        self.broken = broken
    }

}

/// What a rule unit sees when it words why a block of rows may not land at `to`.
package struct BlockCheck: RuleCheck {
    /// Borrowed as ``RowCheck`` borrows it; valid only inside the wording of one block move.
    private let boundAddress: UnsafePointer<BoundPolicy>
    var bound: BoundPolicy { unsafeAddress { boundAddress } }
    /// The rule's effects on this table (borrowed from the bound policy, like it).
    var effects: RuleEffects { _read { yield bound.effects[rule] } }
    /// The rule's index in the policy.
    let rule: Int
    let move: MultiRowMove
    let to: Position

    init(bound: UnsafePointer<BoundPolicy>, rule: Int, move: MultiRowMove, to: Position) {
        self.boundAddress = bound
        self.rule = rule
        self.move = move
        self.to = to
    }

    var s: Int { move.section }
    var t: Int { to.section }
    var m: Int { move.rows.count }
    var moving: [Position] { move.rows.map { Position(section: move.section, row: $0) } }
    /// The moving rows by id: `"A"`, `"A" and "B"`, `"A", "B" and "C"`.
    var label: Reason { bound.names(moving) }
    /// Where the block would land: `0.2` for one row, `0.0–0.1` for two. Not its first row's
    /// slot alone, which for rows that were apart (rows 0 and 2 gathered at the top) is their
    /// first row's own position and reads like no move.
    var landing: Reason {
        m == 1 ? "\(to)" : "\(to)–\(Position(section: t, row: to.row + m - 1))"
    }

}

/// What both checks offer a rule unit for wording: counts, names and row queries on the bound table.
protocol RuleCheck {
    var bound: BoundPolicy { get }
}

extension RuleCheck {
    func count(_ u: Int) -> Int { bound.counts[u] }
    func rowName(_ p: Position) -> Reason.Part { bound.rowName(p) }
    func sectionName(_ u: Int) -> Reason.Part { bound.sectionName(u) }
    func selects(_ q: QueryID, _ p: Position) -> Bool { bound.query(q, p.section, p.row) }
}

extension BoundPolicy {
    /// `"A"`, `"A" and "B"`, `"A", "B" and "C"`.
    func names(_ rows: [Position]) -> Reason {
        var names: Reason = ""
        for (n, p) in rows.enumerated() {
            if n > 0 { names.append(.text(n == rows.count - 1 ? " and " : ", ")) }
            names.append(rowName(p))
        }
        return names
    }

    // Inlined, like `rowID(at:)` and `query`: called on a bound policy reached through a
    // pointer (``RowCheck``), a call copied the whole struct (409 bytes) to pass it.
    @inline(__always)
    func rowName(_ p: Position) -> Reason.Part {
        .quoted(rowID(at: p))
    }

    @inline(__always)
    func sectionName(_ u: Int) -> Reason.Part {
        .section(u, id: sectionID(u))
    }

    /// The id of section `u`, if it has one.
    @inline(__always)
    func sectionID(_ u: Int) -> String? { boundTable.sections[u].id }
}

extension Reason {
    /// `1 row`, `2 rows`.
    static func plural(_ n: Int, _ word: String) -> Reason { "\(n) \(word)\(n == 1 ? "" : "s")" }
}
