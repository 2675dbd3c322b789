/// Updating a binding after a move, instead of binding the moved table again (`diff` decides
/// each inferred move on the table the moves before it left: ARCHITECTURE.md, "Following a
/// move").
///
/// A move of a row within its section changes no row count, so every section selection,
/// section rule and limit on a section's whole count reads the same. What moves with the row:
/// - the table's row (in an order-statistics tree over the rows as bound, ``rowOrder``);
/// - its per-row query flags, which stay in the order the rows were bound and are read
///   through `rowOrder` (they hold content only; a plain selector's position is tested as
///   asked; a list or `not` that reads positions or sections keeps whole matches per row, and
///   the rows whose match a move can change are tested again, ``QueryFollower``);
/// - the held rows of rules that choose rows by content (``HeldRows/followsRows``); rules
///   that choose rows by position hold the same indices; rules that choose them by position
///   and content are laid out again from the rows now in those places (``HeldRows/layout``);
///   rows held through a list or `not` go with their rows and are tested again where a move
///   can change their match (``HeldRows/retest``);
/// - the union of the held rows in that section, and the numbers derived from it;
/// - a `capacity` count of rows chosen by position (SPEC §12), counted again at the places
///   its query names, and the admissions derived from the counts when one changed.
///
/// A move to another section changes two counts: see `followAcross`.
///
/// Each step costs O(log n) plus the held ranges between the row's two places (or after them,
/// for a move between sections), not a pass over every row.
extension BoundPolicy {
    /// Updates the binding for `move`, applied to ``table``. False, with nothing changed, when
    /// the binding cannot follow it (a section move, unless the binding holds the section
    /// rules alone, `followSection`; a row move when the binding holds the section rules alone,
    /// or when a selector has keys the fast paths do not know, ``followsMoves``): bind the
    /// moved table instead.
    package mutating func follow(_ move: Move) throws(MoveError) -> Bool {
        if case .section(let a, let b) = move {
            // Only a binding of the section rules alone follows a section move: a whole
            // binding's row tables are laid out by section.
            guard sectionsOnly else { return false }
            try followSection(a, b)
            return true
        }
        // A binding of the section rules alone has no row tables to follow a row with.
        guard followsMoves, !sectionsOnly, case .row(let from, let to) = move else { return false }
        guard from.section == to.section else { return try followAcross(from, to) }
        try validate(move)
        let s = from.section, a = from.row, b = to.row
        guard a != b else { return true }
        moveInOrder(from, to)
        // Counts of chosen rows (SPEC §12) that read positions change when rows cross a place.
        let recount = countedRows(from, to)
        followQueries(in: [s], moved: to)
        let recounted = settle(recount)

        // Held rows chosen by content go with their rows; rows chosen by position and content
        // are laid out again from the rows now in those places.
        let rows = currentRows
        var held: [HeldRows] = []
        // Their union in section `s` follows the row as they do when every rule holding rows
        // there (before the move or after it) chooses them by content.
        var unionFollows = true
        for e in effects.indices where effects[e].held != nil {
            if let h = effects[e].held, !h.followsRows && !h.isEmpty(s) { unionFollows = false }
            effects[e].held?.followRow(in: s, from: a, to: b, count: counts[s], rows: rows)
            guard let h = effects[e].held else { continue }
            held.append(h)
            if !h.followsRows && !h.isEmpty(s) { unionFollows = false }
        }

        // The union, and what depends on it.
        if unionFollows {
            immovable.followRow(in: s, from: a, to: b)
            pinnedAny.followRow(in: s, from: a, to: b)
        } else {
            mergeUnion(s, held)
        }
        repack(s, held)
        if recounted {
            // Which sections are full or at their minimum for the counted rows: O(sections).
            (admissions, exitGuards, admissionFrom, admissionMask, openGroups) = Self.admissions(effects, counts: counts, open: openToDrops)
        }
        return true
    }

    /// Follows a row moved to another section (`diff` infers such moves too). Both sections'
    /// counts change, so besides the row and the rules' held rows (laid out again in the two
    /// sections for rules that choose rows by position), the limits that read counts and the
    /// two sections' packed numbers are updated; a `capacity` with `rows` (SPEC §12) moves the
    /// row between its counts (and rows whose place the move changes between those it counts and
    /// those it does not) and derives its admissions and exit guards again.
    private mutating func followAcross(_ from: Position, _ to: Position) throws(MoveError) -> Bool {
        // Checked first: the sections index every table below.
        try validate(.row(from: from, to: to))
        let s = from.section, t = to.section
        // A `capacity` with `rows` counts the rows its query selects per section.
        let counting = effects.indices.filter { effects[$0].limits?.rows != nil }
        moveInOrder(from, to)
        counts[s] -= 1
        counts[t] += 1
        let recount = countedRows(from, to)
        followQueries(in: [s, t], moved: to)
        settle(recount)
        // Slots of the sections between the two: one fewer past `s`, one more past `t`.
        if s < t {
            for u in (s + 1)...t { slotsBefore[u] -= 1 }
        } else {
            for u in (t + 1)...s { slotsBefore[u] += 1 }
        }
        // The union of held rows follows the row as the rules do when, in both sections, every
        // rule holding rows there chooses them by content (before the move and after it).
        func contentOnly(_ h: HeldRows) -> Bool { h.keepsMembership(from: s, to: t) || (h.isEmpty(s) && h.isEmpty(t)) }
        var unionFollows = effects.allSatisfy { $0.held.map(contentOnly) ?? true }
        let rows = currentRows
        var held: [HeldRows] = []
        for e in effects.indices where effects[e].held != nil {
            effects[e].held?.followRow(from: from, to: to, counts: counts, rows: rows)
            guard let h = effects[e].held else { continue }
            held.append(h)
            if !contentOnly(h) { unionFollows = false }
        }
        if unionFollows {
            immovable.insertRow(in: t, at: to.row, member: immovable.removeRow(in: s, at: from.row))
            pinnedAny.insertRow(in: t, at: to.row, member: pinnedAny.removeRow(in: s, at: from.row))
        }
        for u in [s, t] {
            if !unionFollows { mergeUnion(u, held) }
            let limits = PackedLimits.section(u, count: counts[u], effects)
            canTake[u] = limits.canTake
            repack(u, held, canGive: limits.canGive)
        }
        if !counting.isEmpty {
            // Which sections are full or at their minimum for the counted rows: O(sections).
            (admissions, exitGuards, admissionFrom, admissionMask, openGroups) = Self.admissions(effects, counts: counts, open: openToDrops)
        }
        return true
    }

    /// A count of chosen rows (a `capacity` with `rows`, SPEC §12) that a move can change: the
    /// rows whose answer may differ after it (the moved row, and those at the places the query's
    /// positions name, ``QueryFollower/places(_:count:into:)``), each with its answer before.
    private struct Recount {
        let effect: Int
        let query: Int
        /// Rows that stay in their section: section, index and node now, answer before.
        var rows: [(u: Int, k: Int, node: Int, before: Bool)]
        /// The moved row: its node, the section it left, where it is now, its answer before.
        let moved: (node: Int, from: Int, to: Position, before: Bool)
    }

    /// What `settle` needs to update the counts of chosen rows after the row at `from` moved to
    /// `to`: called after ``moveInOrder(_:_:)`` and the counts' update, before the query flags
    /// are tested again (their answers before are read from them).
    private func countedRows(_ from: Position, _ to: Position) -> [Recount] {
        guard let order = rowOrder else { return [] }
        let s = from.section, t = to.section, a = from.row, b = to.row
        let movedNode = order.node(in: t, at: b)
        // Where a row now at `k` of section `u` was, and the section's count before.
        func before(_ u: Int, _ k: Int) -> Int {
            if s == t { return a < b && k >= a && k < b ? k + 1 : a > b && k > b && k <= a ? k - 1 : k }
            return u == s ? (k >= a ? k + 1 : k) : (k > b ? k - 1 : k)
        }
        func countBefore(_ u: Int) -> Int { s == t ? counts[u] : u == s ? counts[u] + 1 : counts[u] - 1 }
        var out: [Recount] = []
        var places: [Int] = []
        for e in effects.indices {
            guard let q = effects[e].limits?.rows?.index else { continue }
            var rows: [(u: Int, k: Int, node: Int, before: Bool)] = []
            let positions = querySelectors[q].positionsRead
            for side in 0..<(s == t ? 1 : 2) {
                let u = side == 0 ? s : t
                places.removeAll(keepingCapacity: true)
                QueryFollower.places(positions, count: counts[u], into: &places)
                places.sort()
                for (n, k) in places.enumerated() where k >= 0 && k < counts[u] && !(u == t && k == b) {
                    guard n == 0 || places[n - 1] != k else { continue }  // a place named twice
                    let node = order.node(in: u, at: k)
                    rows.append((u, k, node, answer(q, u, before(u, k), countBefore(u), node)))
                }
            }
            out.append(Recount(effect: e, query: q, rows: rows, moved: (movedNode, s, to, answer(q, s, a, countBefore(s), movedNode))))
        }
        return out
    }

    /// Updates the counts of chosen rows from `recount`, once the query flags are tested again.
    /// Returns whether a count changed.
    @discardableResult
    private mutating func settle(_ recount: [Recount]) -> Bool {
        var changed = false
        for r in recount {
            var counted = effects[r.effect].limits!.counted!
            let before = counted
            for row in r.rows {
                let now = answer(r.query, row.u, row.k, counts[row.u], row.node)
                counted[row.u] += (now ? 1 : 0) - (row.before ? 1 : 0)
            }
            let to = r.moved.to
            if r.moved.before { counted[r.moved.from] -= 1 }
            if answer(r.query, to.section, to.row, counts[to.section], r.moved.node) { counted[to.section] += 1 }
            if counted != before {
                effects[r.effect].limits!.counted = counted
                changed = true
            }
        }
        return changed
    }

    /// Whether query `q` selects the row `node` at index `k` of section `u` of `n` rows: as
    /// ``query(_:_:_:)`` answers, for a place and count given (before or after a move).
    private func answer(_ q: Int, _ u: Int, _ k: Int, _ n: Int, _ node: Int) -> Bool {
        queryPlace(q, u, k, n) && (!queryPlans[q].filtersAttributes || queryAttributes[q][node])
    }

    /// Tests again, in sections `sections` (with their counts after the move), the rows whose
    /// match of a list or `not` that reads positions or sections a move can change: the moved
    /// row, now at `moved`, and those at the places ``QueryFollower/places(count:into:)`` names.
    private mutating func followQueries(in sections: [Int], moved: Position) {
        guard !queryFollowers.isEmpty, let order = rowOrder else { return }
        var places: [Int] = []
        for follower in queryFollowers {
            for u in sections {
                let n = counts[u]
                places.removeAll(keepingCapacity: true)
                follower.places(count: n, into: &places)
                if u == moved.section { places.append(moved.row) }
                for k in places where k >= 0 && k < n {
                    let node = order.node(in: u, at: k)
                    let (v, i) = Self.boundPlace(of: node, rowBase)
                    let matches = boundTable.sections[v].rows.withUnsafeBufferPointer { rows in
                        // The row is at index `i` of its bound section: the buffer has an address.
                        follower.matcher.match(u, k, n, rows.baseAddress! + i).matches
                    }
                    queryAttributes[follower.query][node] = matches
                }
            }
        }
    }

    /// The rows now in each place (after ``moveInOrder(_:_:)``), read without holding `self`.
    private var currentRows: HeldRows.RowAt {
        let order = rowOrder, table = boundTable, bases = rowBase
        return { u, k in
            let (v, i) = Self.boundPlace(of: order?.node(in: u, at: k) ?? bases[u] + k, bases)
            return table.sections[v].rows[i]
        }
    }

    /// Moves the row at `from` to `to` in the order-statistics tree, not in the table's array:
    /// O(log n).
    private mutating func moveInOrder(_ from: Position, _ to: Position) {
        var order = rowOrder ?? RowOrder(SequenceForest(sectionSizes: counts))
        rowOrder = nil
        // Copied first when another binding shares it (a copy of this one, say): one owner changes it.
        if !isKnownUniquelyReferenced(&order) { order = RowOrder(order.forest) }
        let node = order.forest.node(in: from.section, at: from.row)
        order.forest.remove(node)
        order.forest.insert(node, into: to.section, at: to.row)
        rowOrder = order
    }

    /// Section `u`'s union of held rows (and of pinned ones) again, merged from every rule's
    /// sorted ranges (`held`): for rules that hold rows by position too.
    private mutating func mergeUnion(_ u: Int, _ held: [HeldRows]) {
        immovable.replaceSection(u, normalized: SectionRanges.union(held.flatMap { [$0.start, $0.end] }, in: u))
        pinnedAny.replaceSection(u, normalized: SectionRanges.union(held.filter(\.pins).flatMap { [$0.start, $0.end] }, in: u))
    }

    /// Section `u`'s pin-model numbers, entry interval, openness and fast-path summary again,
    /// from its held rows (`held`, every rule's) and its count.
    private mutating func repack(_ u: Int, _ held: [HeldRows], canGive: Bool? = nil) {
        let ls = held.reduce(-1) { $1.pins ? Swift.max($0, $1.lastStart(u)) : $0 }
        let fe = held.reduce(Int.max) { $1.pins ? Swift.min($0, $1.firstEnd(u)) : $0 }
        lastStartPinned[u] = ls
        firstEndPinned[u] = fe
        let entry = PinModel.entry(lastStart: ls, firstEnd: fe, count: counts[u])
        inLo[u] = entry.lo
        inHi[u] = entry.hi
        let open = canTake[u] && entry.lo <= entry.hi
        if open != openToDrops[u] {
            openToDrops[u] = open
            openGroups = Self.openGroups(admissions: admissions.count, open: openToDrops, mask: admissionMask)
        }
        let old = summaries[u]
        let p = pinnedAny.edges(u, counts[u]), m = immovable.edges(u, counts[u])
        summaries[u] = SectionSummary(
            count: counts[u], pinnedSimple: p.simple, pinnedTop: p.top, pinnedBottom: p.bottom,
            immovableSimple: m.simple, immovableTop: m.top, immovableBottom: m.bottom,
            keepsAll: old.keepsAll, canGive: canGive ?? old.canGive, fixedOrder: old.fixedOrder, grouped: old.grouped)
        lanes[u] = FastLane(summaries[u])
    }
}

/// The rows' order in a binding that followed moves, in a box the binding copies before it
/// changes it when another binding shares it (copy on write): a binding that is shared is
/// never changed, so handing it to other threads is safe.
final class RowOrder: @unchecked Sendable {
    var forest: SequenceForest

    init(_ forest: SequenceForest) { self.forest = forest }

    /// The row at `index` of `section` (out of line: callers on the hot path stay small).
    @inline(never)
    func node(in section: Int, at index: Int) -> Int { forest.node(in: section, at: index) }
}
