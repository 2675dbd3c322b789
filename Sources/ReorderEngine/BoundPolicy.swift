/// A compiled policy bound to one table: answers `canMove`, `target(from:proposed:)` and
/// `decide` in time that does not grow with the number of rows.
///
/// Binding costs time linear in the sections (and in the rows only for rules that select
/// rows by id, kind or tag). The value is immutable and `Sendable`: bind once per drag or
/// request, then query from any thread.
///
/// Binding has three steps (ARCHITECTURE.md, "Binding"): lay out the table; let every rule
/// unit produce its `RuleEffects`; pack the union of those effects into per-section tables
/// for the fast path. Index letters: `s`/`i` the moving row's section and row, `t`/`j` the
/// destination's, `u`/`k` any section and row, `q` a row query, `a` an admission.
public struct BoundPolicy: Sendable {
    /// The compiled policy.
    public let compiled: CompiledPolicy
    /// The table as bound; selectors were evaluated on it. For a binding that `diff` has
    /// updated after moves (rather than bound again), its rows in their current order, built
    /// when read.
    public var table: Table {
        guard let rowOrder else { return boundTable }
        var current = boundTable
        for u in current.sections.indices {
            current.sections[u].rows = rowOrder.forest.nodes(in: u).map { node in
                let (v, k) = boundPlace(of: node)
                return boundTable.sections[v].rows[k]
            }
        }
        return current
    }
    /// The table as binding saw it: its sections stay current under ``follow(_:)``; its rows'
    /// order and their counts are `rowOrder`'s and `counts` once it has followed a move. A
    /// binding of the section rules alone moves its sections as it follows section moves.
    var boundTable: Table
    /// The rows' current order when ``follow(_:)`` has moved some (nodes numbered as
    /// `boundTable`'s rows in reading order); nil while it is `boundTable`'s.
    /// Boxed, so that a binding that never follows a move is one word larger, not eight
    /// (bindings are passed and copied on the hot path).
    var rowOrder: RowOrder?

    /// The id of the row now at `p` (it must exist). Inlined, and only the id copied: a call
    /// on the whole struct copied it, and a whole `Row` retains its kind and tags too; both
    /// showed in a batch request's wording.
    @inline(__always)
    func rowID(at p: Position) -> String {
        guard let rowOrder else { return boundTable.sections[p.section].rows[p.row].id }
        let (v, k) = boundPlace(of: rowOrder.node(in: p.section, at: p.row))
        return boundTable.sections[v].rows[k].id
    }

    /// Checks that `move` fits the table as it is now (SPEC §1).
    @inline(__always)
    func validate(_ move: Move) throws(MoveError) {
        try Table.validate(move, sections: sectionCount) { counts[$0] }
    }

    /// Checks that a block move fits the table as it is now.
    func validate(_ move: MultiRowMove) throws(MoveError) {
        try Table.validate(move, sections: sectionCount) { counts[$0] }
    }

    /// Where the row numbered `node` (bind order) was when bound: its section, found by a
    /// binary search over `rowBase` (a row followed into another section is no longer in the
    /// bound section of its new place), and its index there.
    func boundPlace(of node: Int) -> (section: Int, row: Int) { Self.boundPlace(of: node, rowBase) }

    static func boundPlace(of node: Int, _ rowBase: [Int]) -> (section: Int, row: Int) {
        // The last section starting at or before `node`: the non-empty one that holds it.
        var lo = 0, hi = rowBase.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if rowBase[mid] <= node { lo = mid + 1 } else { hi = mid }
        }
        return (lo - 1, node - rowBase[lo - 1])
    }

    // MARK: Layout

    /// Rows per section (current under ``follow(_:)``).
    var counts: [Int]
    /// Slots of all sections before `u`, each counted as `n + 1`.
    var slotsBefore: [Int]
    /// Global index of each section's first row as bound (rows are numbered in bind order for
    /// the per-row query tables and `rowOrder`; this stays as bound when rows are followed).
    let rowBase: [Int]
    let sectionCount: Int
    let retargetCancel: Bool
    /// `retarget: source-section` (SPEC §13.1).
    let retargetSource: Bool

    // MARK: Each rule's effects, in file order

    /// What each row rule does on this table; ``breaks(_:_:_:)`` reads one of them alone.
    var effects: [RuleEffects]

    // MARK: The union of the effects, packed for the fast path

    /// Rows that cannot be picked up (every `held`).
    var immovable: SectionRanges
    /// Rows pinned with either anchor (every `held` that pins).
    var pinnedAny: SectionRanges
    /// Largest start-pinned index per section, or -1.
    var lastStartPinned: [Int]
    /// Smallest end-pinned index per section, or `Int.max`.
    var firstEndPinned: [Int]
    /// Where rows from other sections may be dropped: `inLo...inHi` (``PinModel/entry``).
    var inLo: [Int]
    var inHi: [Int]
    /// Sections whose row count every limit lets grow by one.
    var canTake: [Bool]
    /// Sections that could take a row from elsewhere, ignoring admission: room under every
    /// limit and a non-empty entry interval.
    var openToDrops: [Bool]
    /// Per section, the hot-path facts in one place (one cache line): see ``SectionSummary``.
    var summaries: [SectionSummary]
    /// Per section, the few numbers `target` needs when the section takes the fast path.
    var lanes: [FastLane]
    /// Whether ``follow(_:)`` can update this binding after a row move (``RuleBinder/followsMoves``:
    /// false only for selector keys the fast paths do not know).
    let followsMoves: Bool

    // Row queries (registered by the rules through the binder), flattened so the hot path
    // copies nothing: per query × section whether the section matches, a small plan for the
    // position test, and (only for id/kind/tag selectors) per query × row whether the row matches.
    let querySelectors: [CompiledRowSelector]
    let queryInSection: [Bool]
    let queryPlans: [QueryPlan]
    /// Rows in the order they were bound; after ``follow(_:)`` read through ``rowOrder``. A
    /// list's or `not`'s flags that read positions are tested again after a move
    /// (``queryFollowers``).
    var queryAttributes: [[Bool]]
    /// The lists and `not`s among the queries whose match reads positions or sections.
    let queryFollowers: [QueryFollower]
    /// Rows that may not leave their section (every `staying`).
    let stayingQueries: [QueryID]
    /// Every `keep-among`'s runs together, per row in bind order (``rowBase``): a row's valid
    /// rows within its section lie in the intersection of the runs of its groups, packed in
    /// one word (start in the low 32 bits, end in the high: one load on the fast path); empty
    /// without a `keep-among`.
    let amongRuns: [UInt64]
    /// Every `admission`, in rule order, then one per `capacity` with `rows` whose `max` some
    /// section has reached (SPEC §12: full for the rows it counts); per admission × section
    /// whether `from` selects it.
    var admissions: [Admission]
    var admissionFrom: [Bool]
    /// Per `capacity` with `rows` whose `min` some section has reached: the rows it counts
    /// may not leave those sections.
    var exitGuards: [ExitGuard]
    /// Per section, a bit per admission (the first 64) that guards it.
    var admissionMask: [UInt64]
    /// Open sections grouped by admission mask, each list ascending; nil when there are over 64 admissions.
    var openGroups: [(mask: UInt64, sections: [Int])]?

    // MARK: Section rules

    /// Per section rule, its effects: the sections it holds, and whether it pins them.
    var sectionEffects: [SectionEffects]
    /// Sections that cannot be picked up, in two parts: those a rule whose target reads
    /// indices alone, or nothing, holds (the same indices whatever moves), and those another rule holds
    /// (which a binding of the section rules alone follows through section moves).
    let fixedImmovable: [Bool]
    var movingImmovable: [Bool]
    /// Pinned sections, ascending, in the same two parts.
    let fixedPinned: [Int]
    var movingPinned: [Int]
    /// Whether the binding holds the section rules alone (``CompiledPolicy/bindSections(_:)``):
    /// it follows section moves, and only section moves may be asked of it.
    let sectionsOnly: Bool

    init(compiled: CompiledPolicy, table: Table, memo: RowContentMemo? = nil, sectionsOnly: Bool = false) {
        self.compiled = compiled
        self.boundTable = table
        self.sectionsOnly = sectionsOnly
        retargetCancel = compiled.policy.retarget == .cancel
        retargetSource = compiled.policy.retarget == .sourceSection

        // 1. Layout.
        let counts = table.sections.map { $0.rows.count }
        let sectionCount = counts.count
        self.counts = counts
        self.sectionCount = sectionCount
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

        // 2. Each rule's effects.
        var binder = RuleBinder(table: table, counts: counts, memo: memo)
        // Without row rules for a binding that decides section moves only (`bindSections`).
        let effects = sectionsOnly ? [] : compiled.rules.map { $0.bind(&binder) }
        self.effects = effects
        querySelectors = binder.querySelectors
        queryInSection = binder.queryInSection
        queryPlans = binder.queryPlans
        queryAttributes = binder.queryAttributes
        queryFollowers = binder.queryFollowers

        // 3. Their union, packed.
        let holds = PackedHolds(effects, counts: counts)
        immovable = holds.immovable
        pinnedAny = holds.pinned
        lastStartPinned = holds.lastStart
        firstEndPinned = holds.firstEnd
        inLo = holds.inLo
        inHi = holds.inHi
        let limits = PackedLimits(effects, counts: counts)
        canTake = limits.canTake
        openToDrops = (0..<sectionCount).map { limits.canTake[$0] && holds.inLo[$0] <= holds.inHi[$0] }
        stayingQueries = effects.compactMap { $0.staying }
        let amongGroups = effects.compactMap { $0.among }
        amongRuns = RowGroups.intersection(amongGroups)
        var fixedOrder = [Bool](repeating: false, count: sectionCount)
        for case let fixed? in effects.map({ $0.fixedOrder }) {
            for u in 0..<sectionCount where fixed[u] { fixedOrder[u] = true }
        }
        (admissions, exitGuards, admissionFrom, admissionMask, openGroups) = Self.admissions(effects, counts: counts, open: openToDrops)
        let summaries = Self.summaries(
            counts: counts, holds: holds, canGive: limits.canGive, fixedOrder: fixedOrder,
            staying: stayingQueries, plans: queryPlans, inSection: queryInSection, grouped: !amongGroups.isEmpty)
        self.summaries = summaries
        lanes = summaries.map(FastLane.init)

        // Section rules.
        let sections = Self.bindSectionRules(compiled, table: table)
        sectionEffects = sections.effects
        fixedImmovable = sections.fixedImmovable
        movingImmovable = sections.movingImmovable
        fixedPinned = sections.fixedPinned
        movingPinned = sections.movingPinned

        // A count of chosen rows (SPEC §12) that reads positions is counted again at the places
        // they name after a move (`follow`'s `countedRows`).
        followsMoves = binder.followsMoves
    }

    /// Every admission (the rules', then those `capacity` with `rows` derives from the counts),
    /// the exit guards, and what the fast path reads of them.
    static func admissions(_ effects: [RuleEffects], counts: [Int], open: [Bool]) -> (
        admissions: [Admission], exitGuards: [ExitGuard], from: [Bool], mask: [UInt64],
        groups: [(mask: UInt64, sections: [Int])]?
    ) {
        let rowLimits = PackedLimits.rowDependent(effects, counts: counts)
        let admissions = effects.compactMap { $0.admission } + rowLimits.admissions
        var mask = [UInt64](repeating: 0, count: counts.count)
        for (a, admission) in admissions.prefix(64).enumerated() {
            for u in counts.indices where admission.guarded[u] { mask[u] |= 1 << UInt64(a) }
        }
        return (admissions, rowLimits.exitGuards, admissions.flatMap { $0.from }, mask,
                openGroups(admissions: admissions.count, open: open, mask: mask))
    }

    /// Open sections grouped by admission mask, each list ascending; nil over 64 admissions.
    static func openGroups(admissions: Int, open: [Bool], mask: [UInt64]) -> [(mask: UInt64, sections: [Int])]? {
        guard admissions <= 64 else { return nil }
        var groups: [UInt64: [Int]] = [:]
        for u in open.indices where open[u] { groups[mask[u], default: []].append(u) }
        return groups.map { ($0.key, $0.value) }.sorted { $0.mask < $1.mask }
    }

    /// Per section: the edges of its held rows and whether every row must stay in it.
    private static func summaries(
        counts: [Int], holds: PackedHolds, canGive: [Bool], fixedOrder: [Bool],
        staying: [QueryID], plans: [QueryPlan], inSection: [Bool], grouped: Bool
    ) -> [SectionSummary] {
        let sectionCount = counts.count
        // Staying queries that hold every row of a section they select.
        let everywhere = staying.filter { plans[$0.index].position == .any && !plans[$0.index].filtersAttributes }
        var summaries: [SectionSummary] = []
        summaries.reserveCapacity(sectionCount)
        for u in 0..<sectionCount {
            let keepsAll = everywhere.contains { inSection[$0.index &* sectionCount &+ u] }
            let p = holds.pinned.edges(u, counts[u]), m = holds.immovable.edges(u, counts[u])
            summaries.append(SectionSummary(
                count: counts[u], pinnedSimple: p.simple, pinnedTop: p.top, pinnedBottom: p.bottom,
                immovableSimple: m.simple, immovableTop: m.top, immovableBottom: m.bottom,
                keepsAll: keepsAll, canGive: canGive[u], fixedOrder: fixedOrder[u], grouped: grouped))
        }
        return summaries
    }

    /// Each section rule's effects; which sections cannot be picked up; the pinned ones (each
    /// in two parts: rules whose target reads indices alone, the others).
    private static func bindSectionRules(_ compiled: CompiledPolicy, table: Table) -> (
        effects: [SectionEffects], fixedImmovable: [Bool], movingImmovable: [Bool], fixedPinned: [Int], movingPinned: [Int]
    ) {
        let sectionCount = table.sections.count
        // The two parts share one array until a rule holds a section (bound per request: no
        // allocation for a policy without section rules beyond this one).
        var fixedImmovable = [Bool](repeating: false, count: sectionCount), movingImmovable = fixedImmovable
        var fixedPinned: [Int] = [], movingPinned: [Int] = []
        let effects = compiled.sectionRules.map { $0.bind(table) }
        guard !effects.isEmpty else { return (effects, fixedImmovable, movingImmovable, fixedPinned, movingPinned) }
        let moves = compiled.sectionMoveEffects
        for u in 0..<sectionCount {
            var pinned = (fixed: false, moving: false)
            for (e, move) in zip(effects, moves) where e.held[u] {
                if move.stays {
                    fixedImmovable[u] = true
                    if e.pins { pinned.fixed = true }
                } else {
                    movingImmovable[u] = true
                    if e.pins { pinned.moving = true }
                }
            }
            if pinned.fixed { fixedPinned.append(u) }
            if pinned.moving { movingPinned.append(u) }
        }
        return (effects, fixedImmovable, movingImmovable, fixedPinned, movingPinned)
    }

    /// Whether query `q` selects the row at `s.i`.
    @inline(__always)
    func query(_ q: QueryID, _ s: Int, _ i: Int) -> Bool {
        let q = q.index
        guard queryPlace(q, s, i, counts[s]) else { return false }
        guard queryPlans[q].filtersAttributes else { return true }
        // The flags are in the order the rows were bound; after `follow`, the tree knows
        // where each row went.
        if let rowOrder { return queryAttributes[q][rowOrder.node(in: s, at: i)] }
        return queryAttributes[q][rowBase[s] &+ i]
    }

    /// Whether query `q` chooses section `s` and its position test passes at index `i` of `n`
    /// rows (the place alone; ids, kinds and tags are its flags).
    @inline(__always)
    func queryPlace(_ q: Int, _ s: Int, _ i: Int, _ n: Int) -> Bool {
        guard queryInSection[q &* sectionCount &+ s] else { return false }
        let plan = queryPlans[q]
        switch plan.position {
        case .any: return true
        case .first: return i < plan.count
        case .last: return i >= n - plan.count
        case .indices: return querySelectors[q].matchesPosition(i, of: n).matches
        }
    }

    /// Whether admission `a` lets rows in from section `s` (its `from`).
    @inline(__always)
    func admitsFrom(_ a: Int, _ s: Int) -> Bool { admissionFrom[a &* sectionCount &+ s] }

    /// Whether admission `a` lets the row at `s.i` into the sections it guards.
    @inline(__always)
    func admits(_ a: Int, _ s: Int, _ i: Int) -> Bool {
        admitsFrom(a, s) && query(admissions[a].rows, s, i) != admissions[a].refusesSelected
    }
}

/// The union of every rule's held rows, per section, and the pin model's numbers from it.
struct PackedHolds {
    var immovable = SectionRanges()
    var pinned = SectionRanges()
    var lastStart: [Int] = []
    var firstEnd: [Int] = []
    var inLo: [Int] = []
    var inHi: [Int] = []

    init(_ effects: [RuleEffects], counts: [Int]) {
        let held = effects.compactMap { $0.held }
        let sectionCount = counts.count
        lastStart.reserveCapacity(sectionCount)
        firstEnd.reserveCapacity(sectionCount)
        inLo.reserveCapacity(sectionCount)
        inHi.reserveCapacity(sectionCount)
        var immovableBuffer: [(Int, Int)] = [], pinnedBuffer: [(Int, Int)] = []
        for u in 0..<sectionCount {
            immovableBuffer.removeAll(keepingCapacity: true)
            pinnedBuffer.removeAll(keepingCapacity: true)
            var ls = -1, fe = Int.max
            // Borrowed through the buffer, not copied: a copy of a rule's held rows retains
            // every array it holds.
            held.withUnsafeBufferPointer { held in
                for h in held.indices {
                    held[h].start.appendRanges(of: u, to: &immovableBuffer)
                    held[h].end.appendRanges(of: u, to: &immovableBuffer)
                    if held[h].pins {
                        held[h].start.appendRanges(of: u, to: &pinnedBuffer)
                        held[h].end.appendRanges(of: u, to: &pinnedBuffer)
                        ls = Swift.max(ls, held[h].lastStart(u))
                        fe = Swift.min(fe, held[h].firstEnd(u))
                    }
                }
            }
            immovable.appendSection(immovableBuffer)
            pinned.appendSection(pinnedBuffer)
            lastStart.append(ls)
            firstEnd.append(fe)
            let entry = PinModel.entry(lastStart: ls, firstEnd: fe, count: counts[u])
            inLo.append(entry.lo)
            inHi.append(entry.hi)
        }
    }
}

/// Per section, whether every rule's limits let one row in and one row out.
struct PackedLimits {
    var canTake: [Bool]
    var canGive: [Bool]

    init(_ effects: [RuleEffects], counts: [Int]) {
        canTake = [Bool](repeating: true, count: counts.count)
        canGive = canTake
        for u in counts.indices { (canTake[u], canGive[u]) = Self.section(u, count: counts[u], effects) }
    }

    /// Section `u`'s two flags alone, holding `count` rows (a binding following a move).
    static func section(_ u: Int, count: Int, _ effects: [RuleEffects]) -> (canTake: Bool, canGive: Bool) {
        var take = true, give = true
        for e in effects {
            guard let limits = e.limits, limits.rows == nil else { continue }
            if !limits.allowsEntry(u, count: count, adding: 1) { take = false }
            if !limits.allowsExit(u, count: count, removing: 1) { give = false }
        }
        return (take, give)
    }
}

extension PackedLimits {
    /// The limits of `capacity` rules with `rows` (SPEC §12), which bind only the rows they
    /// count: a full section becomes an admission refusing those rows, a section at its
    /// minimum an exit guard keeping them. Limits that no section has reached add nothing.
    static func rowDependent(_ effects: [RuleEffects], counts: [Int]) -> (admissions: [Admission], exitGuards: [ExitGuard]) {
        var admissions: [Admission] = [], guards: [ExitGuard] = []
        let everywhere = [Bool](repeating: true, count: counts.count)
        for case let limits? in effects.map({ $0.limits }) {
            guard let q = limits.rows else { continue }
            let full = counts.indices.map { !limits.allowsEntry($0, count: limits.count($0, rows: counts[$0]), adding: 1) }
            let low = counts.indices.map { !limits.allowsExit($0, count: limits.count($0, rows: counts[$0]), removing: 1) }
            if full.contains(true) { admissions.append(Admission(guarded: full, from: everywhere, rows: q, refusesSelected: true)) }
            if low.contains(true) { guards.append(ExitGuard(rows: q, closed: low)) }
        }
        return (admissions, guards)
    }
}

/// Rows a row query selects may not leave the sections marked `closed` (a `capacity` with
/// `rows` whose `min` those sections have reached).
struct ExitGuard: Sendable {
    let rows: QueryID
    let closed: [Bool]
}

/// A section's facts for the hot path. When its held rows are only a run at the top and a
/// run at the bottom (headers, footers, add-rows: the usual case), the nearest pinned rows
/// around any movable row are those runs' edges, and no binary search is needed.
struct SectionSummary: Sendable {
    /// Rows are kept in this section and held rows sit only at its top and bottom: the
    /// fast path of ``BoundPolicy/target(from:proposed:)`` needs nothing else.
    var fast: Bool { keepsAll && pinnedSimple && immovableSimple && !fixedOrder }
    let count: Int
    /// True when pinned rows form at most a top run `0...pinnedTop` and a bottom run `pinnedBottom..<count`.
    let pinnedSimple: Bool
    let pinnedTop: Int
    let pinnedBottom: Int
    /// The same for rows that cannot be picked up.
    let immovableSimple: Bool
    let immovableTop: Int
    let immovableBottom: Int
    /// A staying rule holds every row of this section.
    let keepsAll: Bool
    /// A row may leave without breaking a limit.
    let canGive: Bool
    /// No row may move to another index of this section.
    let fixedOrder: Bool
    /// A `keep-among` limits moves within this section (the fast path narrows `lo...hi` to the
    /// row's run, ``BoundPolicy/amongRuns``).
    var grouped = false
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
    /// A `keep-among`: a row's `lo...hi` is narrowed to its run (``BoundPolicy/amongRuns``).
    let grouped: Bool

    init(_ s: SectionSummary) {
        let fits = s.count < Int(Int32.max)
        count = Int32(truncatingIfNeeded: s.count)
        let own = PinModel.own(below: s.pinnedTop, above: s.pinnedBottom, count: s.count)
        lo = Int32(truncatingIfNeeded: own.lo)
        hi = Int32(truncatingIfNeeded: own.hi)
        top = Int32(truncatingIfNeeded: s.immovableTop)
        bottom = Int32(truncatingIfNeeded: s.immovableBottom)
        fast = s.fast && fits
        grouped = s.grouped
    }
}
