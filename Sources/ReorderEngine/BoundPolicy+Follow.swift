/// Updating a binding after a move, instead of binding the moved table again (`diff` decides
/// each inferred move on the table the moves before it left: ARCHITECTURE.md, "Following a
/// move").
///
/// A move of a row within its section changes no row count, so every limit, admission, staying
/// query, section selection and section rule reads the same. What moves with the row:
/// - the table's row (in an order-statistics tree over the rows as bound, ``rowOrder``);
/// - its per-row query flags, which stay in the order the rows were bound and are read
///   through `rowOrder` (content only: a binding that reads positions and content together
///   does not follow, ``followsMoves``);
/// - the held rows of rules that choose rows by content (``HeldRows/followsRows``); rules
///   that choose rows by position hold the same indices;
/// - the union of the held rows in that section, and the numbers derived from it.
///
/// Each step costs O(log n) plus the held ranges between the row's two places, not a pass over every row.
extension BoundPolicy {
    /// Updates the binding for `move`, applied to ``table``. False, with nothing changed, when
    /// the binding cannot follow it (a move between sections, a section move, or a policy whose
    /// selectors read positions and content together): bind the moved table instead.
    package mutating func follow(_ move: Move) throws(MoveError) -> Bool {
        guard followsMoves, case .row(let from, let to) = move, from.section == to.section else { return false }
        try boundTable.validate(move)
        let s = from.section, a = from.row, b = to.row
        guard a != b else { return true }
        // The row moves in an order-statistics tree, not in the table's array: O(log n).
        var order = rowOrder ?? RowOrder(SequenceForest(sectionSizes: counts))
        rowOrder = nil
        // Copied first when another binding shares it (a copy of this one, say): one owner changes it.
        if !isKnownUniquelyReferenced(&order) { order = RowOrder(order.forest) }
        let node = order.forest.node(in: s, at: a)
        order.forest.remove(node)
        order.forest.insert(node, into: s, at: b)
        rowOrder = order

        // Held rows chosen by content go with their rows.
        var held: [HeldRows] = []
        var unionFollows = true
        for e in effects.indices where effects[e].held != nil {
            effects[e].held?.followRow(in: s, from: a, to: b)
            guard let h = effects[e].held else { continue }
            held.append(h)
            if !h.followsRows && !h.isEmpty(s) { unionFollows = false }
        }

        // Their union in section `s`, and what depends on it. When every rule holding rows
        // there chooses them by content, so does the union: it follows the row as they do.
        if unionFollows {
            immovable.followRow(in: s, from: a, to: b)
            pinnedAny.followRow(in: s, from: a, to: b)
        } else {
            // Rules holding rows by position too: the section's union again, merged from the
            // rules' sorted ranges.
            immovable.replaceSection(s, normalized: SectionRanges.union(held.flatMap { [$0.start, $0.end] }, in: s))
            pinnedAny.replaceSection(s, normalized: SectionRanges.union(held.filter(\.pins).flatMap { [$0.start, $0.end] }, in: s))
        }
        let ls = held.reduce(-1) { $1.pins ? Swift.max($0, $1.lastStart(s)) : $0 }
        let fe = held.reduce(Int.max) { $1.pins ? Swift.min($0, $1.firstEnd(s)) : $0 }
        lastStartPinned[s] = ls
        firstEndPinned[s] = fe
        let entry = PinModel.entry(lastStart: ls, firstEnd: fe, count: counts[s])
        inLo[s] = entry.lo
        inHi[s] = entry.hi
        let open = canTake[s] && entry.lo <= entry.hi
        if open != openToDrops[s] {
            openToDrops[s] = open
            openGroups = Self.openGroups(admissions: admissions.count, open: openToDrops, mask: admissionMask)
        }
        let old = summaries[s]
        let p = pinnedAny.edges(s, counts[s]), m = immovable.edges(s, counts[s])
        summaries[s] = SectionSummary(
            count: old.count, pinnedSimple: p.simple, pinnedTop: p.top, pinnedBottom: p.bottom,
            immovableSimple: m.simple, immovableTop: m.top, immovableBottom: m.bottom,
            keepsAll: old.keepsAll, canGive: old.canGive, fixedOrder: old.fixedOrder)
        lanes[s] = FastLane(summaries[s])
        return true
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
