/// A compiled policy bound to one table: answers `canMove`, `target(from:proposed:)` and
/// `decide` in time that does not grow with the number of rows.
///
/// Binding costs time linear in the sections (and in the rows only for rules that select
/// rows by id, kind or tag). The value is immutable and `Sendable`: bind once per drag or
/// request, then query from any thread.
public struct BoundPolicy: Sendable {
    /// The compiled policy.
    public let compiled: CompiledPolicy
    /// The table as bound; selectors were evaluated on it.
    public let table: Table

    // Sizes and reading-order offsets.
    let counts: [Int]
    /// Slots of all sections before `u`, each counted as `n + 1`.
    let slotsBefore: [Int]
    /// Global index of each section's first row (for per-row match tables).
    let rowBase: [Int]

    // Lock/pin/reserve: per hold rule, rows held with anchor start and end (locks use start).
    let holdStart: [SectionRanges]
    let holdEnd: [SectionRanges]
    /// Rows that cannot be picked up.
    let immovable: SectionRanges
    /// Rows pinned with either anchor (any pin or reserve).
    let pinnedAny: SectionRanges

    // Per section: where rows from other sections may be dropped and whether it takes or gives rows.
    let inLo: [Int]
    let inHi: [Int]
    /// Largest start-pinned index, or -1.
    let lastStartPinned: [Int]
    /// Smallest end-pinned index, or Int.max.
    let firstEndPinned: [Int]
    let roomForOneMore: [Bool]
    let canGiveOne: [Bool]
    /// Sections that could take a row from elsewhere, ignoring `accept`.
    let openToDrops: [Bool]
    /// Per section, the hot-path facts in one place (one cache line): see ``SectionSummary``.
    let summaries: [SectionSummary]
    /// Per section, the few numbers `target` needs when the section takes the fast path.
    let lanes: [FastLane]

    // Query selectors (keep-in-section, accept rows), flattened so the hot path copies nothing:
    // per selector × section whether the section matches, a small plan for the position test,
    // and (only for id/kind/tag selectors) per selector × row whether the row matches.
    let sectionCount: Int
    let queryInSection: [Bool]
    let queryPlans: [QueryPlan]
    let queryAttributes: [[Bool]]
    let keepQueries: [Int]
    let acceptQueries: [Int]
    let retargetCancel: Bool
    // Accept rules: covered sections, matching `from` sections, cover bitmask per section.
    let acceptCovers: [[Bool]]
    /// Per accept rule × section: whether `from` selects the section.
    let acceptFrom: [Bool]
    let acceptMask: [UInt64]
    /// Open sections grouped by accept mask, each list ascending; nil when there are over 64 accept rules.
    let openGroups: [(mask: UInt64, sections: [Int])]?
    // Capacity rules (for reasons): per row rule index, covered sections.
    let capacityCovers: [[Bool]?]

    // Section rules: per rule, selected sections; union of immovable; pinned sections ascending.
    let sectionRuleSelected: [[Bool]]
    let immovableSections: [Bool]
    let pinnedSections: [Int]

    init(compiled: CompiledPolicy, table: Table) {
        self.compiled = compiled
        self.table = table
        let policy = compiled.policy
        let sectionCount = table.sections.count
        let counts = table.sections.map { $0.rows.count }
        self.counts = counts
        var slots = [Int](), bases = [Int]()
        slots.reserveCapacity(sectionCount)
        bases.reserveCapacity(sectionCount)
        var runningSlots = 0, runningRows = 0
        for n in counts {
            slots.append(runningSlots)
            bases.append(runningRows)
            runningSlots += n + 1
            runningRows += n
        }
        slotsBefore = slots
        rowBase = bases

        // Holds: sections outer, rules inner, with scratch buffers reused across sections so
        // binding allocates per rule, not per section.
        let holds = compiled.holds
        let holdPlans = holds.map(HoldPlan.init)
        let holdSections: [[Bool]] = holds.map { hold in
            hold.selector.section?.resolve(table).map { $0.selected } ?? Array(repeating: true, count: sectionCount)
        }
        var holdStart = [SectionRanges](repeating: SectionRanges(), count: holds.count)
        var holdEnd = holdStart
        var immovable = SectionRanges(), pinnedAny = SectionRanges()
        var inLo = [Int](), inHi = [Int](), lastStart = [Int](), firstEnd = [Int]()
        inLo.reserveCapacity(sectionCount)
        inHi.reserveCapacity(sectionCount)
        lastStart.reserveCapacity(sectionCount)
        firstEnd.reserveCapacity(sectionCount)
        var startBuffer: [(Int, Int)] = [], endBuffer: [(Int, Int)] = []
        var immovableBuffer: [(Int, Int)] = [], pinnedBuffer: [(Int, Int)] = []
        for u in 0..<sectionCount {
            immovableBuffer.removeAll(keepingCapacity: true)
            pinnedBuffer.removeAll(keepingCapacity: true)
            var ls = -1, fe = Int.max
            let n = counts[u]
            for h in holdPlans.indices {
                startBuffer.removeAll(keepingCapacity: true)
                endBuffer.removeAll(keepingCapacity: true)
                if holdSections[h][u] {
                    // Positional rules need no look at the rows; the rest go row by row.
                    if !holdPlans[h].positional(n, start: &startBuffer, end: &endBuffer) {
                        Self.heldRows(holds[h], table.sections[u].rows, start: &startBuffer, end: &endBuffer)
                    }
                }
                holdStart[h].appendSection(startBuffer)
                holdEnd[h].appendSection(endBuffer)
                immovableBuffer += startBuffer
                immovableBuffer += endBuffer
                if holdPlans[h].pins {
                    pinnedBuffer += startBuffer
                    pinnedBuffer += endBuffer
                    for r in startBuffer { ls = max(ls, r.1) }
                    for r in endBuffer { fe = min(fe, r.0) }
                }
            }
            immovable.appendSection(immovableBuffer)
            pinnedAny.appendSection(pinnedBuffer)
            lastStart.append(ls)
            firstEnd.append(fe)
            inLo.append(ls + 1)
            inHi.append(min(fe, counts[u]))
        }
        self.holdStart = holdStart
        self.holdEnd = holdEnd
        self.immovable = immovable
        self.pinnedAny = pinnedAny
        self.inLo = inLo
        self.inHi = inHi
        self.lastStartPinned = lastStart
        self.firstEndPinned = firstEnd

        // Capacity.
        var room = [Bool](repeating: true, count: sectionCount)
        var give = [Bool](repeating: true, count: sectionCount)
        var capacityCovers = [[Bool]?](repeating: nil, count: policy.rules.count)
        for (index, rule) in policy.rules.enumerated() {
            guard case .capacity(let selector, let max, let min) = rule.kind else { continue }
            let covers = selector.resolve(table).map { $0.selected }
            capacityCovers[index] = covers
            for u in 0..<sectionCount where covers[u] {
                if let max, counts[u] + 1 > max { room[u] = false }
                if let min, counts[u] - 1 < min { give[u] = false }
            }
        }
        self.capacityCovers = capacityCovers
        roomForOneMore = room
        canGiveOne = give
        var open = [Bool]()
        for u in 0..<sectionCount { open.append(room[u] && inLo[u] <= inHi[u]) }
        openToDrops = open

        // Query selectors.
        self.sectionCount = sectionCount
        let keepEverywhere = compiled.keepQueries.map { QueryPlan(compiled.querySelectors[$0]) }
            .map { $0.position == .any && !$0.filtersAttributes }
        var inSection: [Bool] = [], attributes: [[Bool]] = [], plans: [QueryPlan] = []
        for selector in compiled.querySelectors {
            inSection += selector.section?.resolve(table).map { $0.selected } ?? Array(repeating: true, count: sectionCount)
            plans.append(QueryPlan(selector))
            if selector.filtersAttributes {
                var flags = [Bool]()
                flags.reserveCapacity(runningRows)
                for section in table.sections {
                    for row in section.rows { flags.append(selector.matchesAttributes(row)) }
                }
                attributes.append(flags)
            } else {
                attributes.append([])
            }
        }
        queryInSection = inSection
        queryAttributes = attributes
        var summaries: [SectionSummary] = []
        summaries.reserveCapacity(sectionCount)
        let keepQueryList = compiled.keepQueries
        for u in 0..<sectionCount {
            var keepsAll = false
            for (n, q) in keepQueryList.enumerated() where keepEverywhere[n] && inSection[q * sectionCount + u] { keepsAll = true }
            let p = pinnedAny.edges(u, counts[u]), m = immovable.edges(u, counts[u])
            summaries.append(SectionSummary(
                count: counts[u], pinnedSimple: p.simple, pinnedTop: p.top, pinnedBottom: p.bottom,
                immovableSimple: m.simple, immovableTop: m.top, immovableBottom: m.bottom, keepsAll: keepsAll, canGive: give[u]))
        }
        self.summaries = summaries
        lanes = summaries.map(FastLane.init)
        queryPlans = plans
        keepQueries = compiled.keepQueries
        acceptQueries = compiled.accepts.map(\.query)
        retargetCancel = policy.retarget == .cancel

        // Accept.
        var covers: [[Bool]] = [], from: [Bool] = []
        var mask = [UInt64](repeating: 0, count: sectionCount)
        for (a, accept) in compiled.accepts.enumerated() {
            guard case .accept(let section, let fromSelector, _) = policy.rules[accept.ruleIndex].kind else { continue }
            let c = section.resolve(table).map { $0.selected }
            covers.append(c)
            from += fromSelector.resolve(table).map { $0.selected }
            if a < 64 {
                for u in 0..<sectionCount where c[u] { mask[u] |= 1 << UInt64(a) }
            }
        }
        acceptCovers = covers
        acceptFrom = from
        acceptMask = mask
        if compiled.accepts.count <= 64 {
            var groups: [UInt64: [Int]] = [:]
            for u in 0..<sectionCount where open[u] { groups[mask[u], default: []].append(u) }
            openGroups = groups.map { ($0.key, $0.value) }.sorted { $0.mask < $1.mask }
        } else {
            openGroups = nil
        }

        // Section rules.
        var selected: [[Bool]] = []
        var immovableSections = [Bool](repeating: false, count: sectionCount)
        var pinned = [Bool](repeating: false, count: sectionCount)
        for rule in policy.sectionRules {
            let target: SectionRuleTarget
            var pins = false
            switch rule.kind {
            case .lock(let t): target = t
            case .pin(let t, _):
                target = t
                pins = true
            }
            var chosen = [Bool](repeating: false, count: sectionCount)
            switch target {
            case .sections(let selector):
                chosen = selector.resolve(table).map { $0.selected }
            case .first(let n):
                for u in 0..<min(n, sectionCount) { chosen[u] = true }
            case .last(let n):
                for u in max(0, sectionCount - n)..<sectionCount { chosen[u] = true }
            }
            for u in 0..<sectionCount where chosen[u] {
                immovableSections[u] = true
                if pins { pinned[u] = true }
            }
            selected.append(chosen)
        }
        sectionRuleSelected = selected
        self.immovableSections = immovableSections
        pinnedSections = (0..<sectionCount).filter { pinned[$0] }
    }

    /// The rows of one section a hold rule selects, split by anchor (locks put all in `start`),
    /// appended to `start` and `end` in ascending order.
    private static func heldRows(_ hold: HoldRule, _ rows: [Row], start: inout [(Int, Int)], end: inout [(Int, Int)]) {
        let n = rows.count
        let selector = hold.selector
        guard n > 0 else { return }
        func anchorEnd(_ fromEnd: Bool) -> Bool {
            guard hold.pins else { return false }
            return (hold.anchor ?? (fromEnd ? .end : .start)) == .end
        }
        if !selector.filtersAttributes {
            switch selector.position {
            case nil:
                if anchorEnd(false) { end.append((0, n - 1)) } else { start.append((0, n - 1)) }
                return
            case .first(let count):
                if anchorEnd(false) { end.append((0, min(count, n) - 1)) } else { start.append((0, min(count, n) - 1)) }
                return
            case .last(let count):
                if anchorEnd(true) { end.append((max(0, n - count), n - 1)) } else { start.append((max(0, n - count), n - 1)) }
                return
            case .indices:
                break
            }
        }
        // Row by row: index lists (small) or attribute filters (every candidate row is looked at).
        func add(_ k: Int, _ fromEnd: Bool) {
            if anchorEnd(fromEnd) {
                if let last = end.last, last.1 == k - 1 { end[end.count - 1].1 = k } else { end.append((k, k)) }
            } else {
                if let last = start.last, last.1 == k - 1 { start[start.count - 1].1 = k } else { start.append((k, k)) }
            }
        }
        func consider(_ k: Int) {
            let (matches, fromEnd) = selector.matchesPosition(k, of: n)
            if matches && selector.matchesAttributes(rows[k]) { add(k, fromEnd) }
        }
        switch selector.position {
        case .indices(let list):
            for k in Set(list.map { $0 < 0 ? n + $0 : $0 }.filter { $0 >= 0 && $0 < n }).sorted() { consider(k) }
        case .first(let count): for k in 0..<min(count, n) { consider(k) }
        case .last(let count): for k in max(0, n - count)..<n { consider(k) }
        case nil: for k in 0..<n { consider(k) }
        }
    }

    /// Whether query selector `q` selects the row at `s.i`.
    @inline(__always)
    func query(_ q: Int, _ s: Int, _ i: Int) -> Bool {
        guard queryInSection[q &* sectionCount &+ s] else { return false }
        let plan = queryPlans[q]
        switch plan.position {
        case .any: break
        case .first: guard i < plan.count else { return false }
        case .last: guard i >= counts[s] - plan.count else { return false }
        case .indices:
            guard compiled.querySelectors[q].matchesPosition(i, of: counts[s]).matches else { return false }
        }
        return plan.filtersAttributes ? queryAttributes[q][rowBase[s] &+ i] : true
    }

    /// Whether accept rule `a`'s `from` selects section `s`.
    @inline(__always)
    func acceptsFrom(_ a: Int, _ s: Int) -> Bool { acceptFrom[a &* sectionCount &+ s] }
}

/// A section's facts for the hot path. When its held rows are only a run at the top and a
/// run at the bottom (headers, footers, add-rows: the usual case), the nearest pinned rows
/// around any movable row are those runs' edges, and no binary search is needed.
struct SectionSummary: Sendable {
    /// Rows are kept in this section and held rows sit only at its top and bottom: the
    /// fast path of ``BoundPolicy/target(from:proposed:)`` needs nothing else.
    var fast: Bool { keepsAll && pinnedSimple && immovableSimple }
    let count: Int
    /// True when pinned rows form at most a top run `0...pinnedTop` and a bottom run `pinnedBottom..<count`.
    let pinnedSimple: Bool
    let pinnedTop: Int
    let pinnedBottom: Int
    /// The same for rows that cannot be picked up.
    let immovableSimple: Bool
    let immovableTop: Int
    let immovableBottom: Int
    /// A keep-in-section rule holds every row of this section.
    let keepsAll: Bool
    /// A row may leave without breaking `capacity.min`.
    let canGive: Bool
}

/// The fast path's numbers for one section, packed small: valid rows `lo...hi` for a row of
/// this section, which is movable iff its index lies strictly between `top` and `bottom`.
struct FastLane: Sendable {
    let count: Int32
    let lo: Int32
    let hi: Int32
    let top: Int32
    let bottom: Int32
    let fast: Bool

    init(_ s: SectionSummary) {
        let fits = s.count < Int(Int32.max)
        count = Int32(truncatingIfNeeded: s.count)
        lo = Int32(truncatingIfNeeded: s.pinnedTop + 1)
        hi = Int32(truncatingIfNeeded: s.pinnedBottom - 1)
        top = Int32(truncatingIfNeeded: s.immovableTop)
        bottom = Int32(truncatingIfNeeded: s.immovableBottom)
        fast = s.fast && fits
    }
}

/// A hold rule's positional part as plain values, so binding copies nothing per section.
struct HoldPlan: Sendable {
    enum Position: UInt8, Sendable { case all, first, last, other }
    let position: Position
    let count: Int
    let pins: Bool
    /// The explicit anchor, or nil for the default.
    let anchor: Anchor?

    init(_ hold: HoldRule) {
        pins = hold.pins
        anchor = hold.anchor
        if hold.selector.filtersAttributes {
            (position, count) = (.other, 0)
            return
        }
        switch hold.selector.position {
        case nil: (position, count) = (.all, 0)
        case .first(let n)?: (position, count) = (.first, n)
        case .last(let n)?: (position, count) = (.last, n)
        case .indices?: (position, count) = (.other, 0)
        }
    }

    /// Appends the held range of a section of `n` rows; false when the rule needs a look at each row.
    @inline(__always)
    func positional(_ n: Int, start: inout [(Int, Int)], end: inout [(Int, Int)]) -> Bool {
        guard n > 0 else { return position != .other }
        let range: (Int, Int), fromEnd: Bool
        switch position {
        case .other: return false
        case .all: (range, fromEnd) = ((0, n - 1), false)
        case .first: (range, fromEnd) = ((0, Swift.min(count, n) - 1), false)
        case .last: (range, fromEnd) = ((Swift.max(0, n - count), n - 1), true)
        }
        if pins && (anchor ?? (fromEnd ? .end : .start)) == .end { end.append(range) } else { start.append(range) }
        return true
    }
}

/// The position test of a query selector as plain values, so checking it copies nothing.
struct QueryPlan: Sendable {
    enum Position: UInt8, Sendable { case any, first, last, indices }
    let position: Position
    let count: Int
    let filtersAttributes: Bool

    init(_ s: CompiledRowSelector) {
        switch s.position {
        case nil: (position, count) = (.any, 0)
        case .first(let n)?: (position, count) = (.first, n)
        case .last(let n)?: (position, count) = (.last, n)
        case .indices?: (position, count) = (.indices, 0)
        }
        filtersAttributes = s.filtersAttributes
    }
}
