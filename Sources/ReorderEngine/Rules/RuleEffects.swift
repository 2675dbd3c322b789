/// What one row rule does on one table, in the engine's vocabulary — SPEC §2.2 restated as
/// the interval model (ARCHITECTURE.md, "The interval model"). A rule unit produces its
/// effects when bound; ``BoundPolicy`` packs the union of all rules' effects into per-section
/// tables for the fast path, and reads one rule's effects alone to say whether that rule is
/// violated (``BoundPolicy/breaks(_:_:_:)``). The same values and the same model functions
/// serve both, so "valid" and "which rule forbids it" cannot drift apart.
package struct RuleEffects: Sendable {
    /// Rows that cannot be picked up; when they `pin`, also rows whose section and anchored
    /// position no move may change.
    var held: HeldRows?
    /// Per-section row-count bounds for moves between sections.
    var limits: SectionLimits?
    /// Rows that may not leave their section.
    var staying: QueryID?
    /// Which rows from which sections may enter the guarded sections.
    var admission: Admission?
    /// Sections in which no row may move to another index of the same section.
    var fixedOrder: [Bool]?
    /// Groups of rows a move within a section may not pass from another group (`keep-among`).
    var among: RowGroups?

    init(held: HeldRows? = nil, limits: SectionLimits? = nil, staying: QueryID? = nil,
         admission: Admission? = nil, fixedOrder: [Bool]? = nil, among: RowGroups? = nil) {
        self.held = held
        self.limits = limits
        self.staying = staying
        self.admission = admission
        self.fixedOrder = fixedOrder
        self.among = among
    }
}

/// Rows a rule holds, per section, split by the anchor each keeps (locks put all in `start`).
package struct HeldRows: Sendable {
    private(set) var start: SectionRanges
    private(set) var end: SectionRanges
    /// False for `lock`: the rows cannot be picked up but may be shifted.
    let pins: Bool
    /// How reasons call a held row: `locked`, `pinned`, `reserved`.
    let word: String
    /// True when the rows are chosen by their content alone (ids, kinds, tags; no position):
    /// they keep their hold as they move, within a section and between sections the rule
    /// chooses alike; a row moved into a section the rule does not choose loses it, and one
    /// moved into a chosen section from one not chosen is tested (``joining``). False when
    /// chosen by position, alone (the same indices stay held) or with content (laid out again,
    /// ``layout``). A list or `not` that reads positions or sections is followed through
    /// ``retest``.
    let followsRows: Bool
    /// The sections the rule's selector chooses.
    let sections: [Bool]
    /// For rows chosen by position (`first`, `last`, `index`), alone or with ids, kinds and
    /// tags, by a plain selector: the selector and its plan. A section's held rows then follow
    /// from its row count and the rows now in the chosen places, and are laid out again after a
    /// move.
    let layout: (selector: CompiledRowSelector, plan: HoldPlan)?
    /// For rows chosen by content alone with a plain selector: the selector and its plan, to
    /// test a row that moves into a chosen section from one not chosen. (A list or `not`
    /// chosen by content alone has no `section` at any depth, ``CompiledRowSelector/isContentOnly``:
    /// it chooses every section, so no row moves between one it chooses and one it does not.)
    let joining: (selector: CompiledRowSelector, plan: HoldPlan)?
    /// For a list or `not` that reads positions or sections (`pin: [{ kind: header }, { last:
    /// 1 }]`, `lock: { not: { last: 1 } }`): what tests again the rows whose match a move
    /// can change (the moved row, and those at the places its positions name). The held rows
    /// otherwise go with their rows.
    private(set) var retest: HeldFollower? = nil

    /// A held selector's matcher and the places a move can change its match at, for
    /// ``HeldRows/retest`` (as ``QueryFollower`` does for queries).
    final class HeldFollower: @unchecked Sendable {
        // Unchecked: constants after init, and the matcher's tests read no memo.
        let follower: QueryFollower
        let plan: HoldPlan

        init(_ follower: QueryFollower, plan: HoldPlan) {
            self.follower = follower
            self.plan = plan
        }
    }

    /// Tests again the rows of section `u` (of `n` rows after the move) at the places the
    /// selector's positions name, and at `moved`: each is held or not, through the end or not,
    /// as the selector now matches it.
    private mutating func testAgain(_ u: Int, count n: Int, moved: Int?, rows: RowAt) {
        guard let retest else { return }
        var places: [Int] = []
        retest.follower.places(count: n, into: &places)
        if let moved { places.append(moved) }
        for k in places where k >= 0 && k < n {
            let m = withUnsafePointer(to: rows(u, k)) { retest.follower.matcher.match(u, k, n, $0) }
            let toEnd = m.matches && retest.plan.anchorsEnd(m.fromEnd)
            start.setMember(in: u, at: k, m.matches && !toEnd)
            end.setMember(in: u, at: k, toEnd)
        }
    }

    /// The row now at an index of a section, for laying held rows out again.
    typealias RowAt = (_ section: Int, _ index: Int) -> Row

    /// Follows a row moved from `a` to `b` within section `u` (BoundPolicy.follow): rows chosen
    /// by content move with it; rows chosen by position alone stay (the same indices); rows
    /// chosen by position and content are laid out again from the rows now in those places.
    mutating func followRow(in u: Int, from a: Int, to b: Int, count n: Int, rows: RowAt) {
        if followsRows {
            start.followRow(in: u, from: a, to: b)
            end.followRow(in: u, from: a, to: b)
        } else if retest != nil {
            start.followRow(in: u, from: a, to: b)
            end.followRow(in: u, from: a, to: b)
            testAgain(u, count: n, moved: b, rows: rows)
        } else if let layout, layout.selector.filtersAttributes {
            relayOut(u, layout, count: n, rows: rows)
        }
    }

    /// Whether the rule's held rows in `s` and `t` follow a row between them as its place
    /// does (rows chosen by content, in two sections the rule chooses alike).
    func keepsMembership(from s: Int, to t: Int) -> Bool { followsRows && sections[s] == sections[t] }

    /// Follows a row moved from `from` to `to` in another section: rows chosen by position
    /// are laid out again in both; a row chosen by content keeps its hold between sections the
    /// rule chooses alike, loses it in one not chosen, and is tested in a chosen one coming
    /// from one not chosen. `counts` are the row counts after the move.
    mutating func followRow(from: Position, to: Position, counts: [Int], rows: RowAt) {
        if retest != nil {
            start.removeRow(in: from.section, at: from.row)
            end.removeRow(in: from.section, at: from.row)
            start.insertRow(in: to.section, at: to.row, member: false)
            end.insertRow(in: to.section, at: to.row, member: false)
            testAgain(from.section, count: counts[from.section], moved: nil, rows: rows)
            testAgain(to.section, count: counts[to.section], moved: to.row, rows: rows)
        } else if let layout {
            for u in [from.section, to.section] { relayOut(u, layout, count: counts[u], rows: rows) }
        } else if followsRows {
            var inStart = start.removeRow(in: from.section, at: from.row)
            var inEnd = end.removeRow(in: from.section, at: from.row)
            if sections[from.section] != sections[to.section] {
                // Chosen in one of the two sections only: in the other the row's content decides.
                inStart = false
                inEnd = false
                if sections[to.section], let (selector, plan) = joining {
                    let row = rows(to.section, to.row)
                    if selector.matchesAttributes(row) {
                        if plan.anchorsEnd(false) { inEnd = true } else { inStart = true }
                    }
                }
            }
            start.insertRow(in: to.section, at: to.row, member: inStart)
            end.insertRow(in: to.section, at: to.row, member: inEnd)
        }
    }

    private mutating func relayOut(_ u: Int, _ layout: (selector: CompiledRowSelector, plan: HoldPlan), count n: Int, rows: RowAt) {
        let laid = Self.layOut(layout.selector, layout.plan, section: u, chosen: sections[u], count: n, rows: rows)
        start.replaceSection(u, normalized: laid.start)
        end.replaceSection(u, normalized: laid.end)
    }

    /// Calls `body` with each index of a section of `n` rows that `selector`'s position names
    /// (ascending; none without a position).
    static func forEachPlace(of selector: CompiledRowSelector, count n: Int, _ body: (Int) -> Void) {
        switch selector.position {
        case .indices(let list)?: for k in Set(list.map { $0 < 0 ? n + $0 : $0 }.filter { $0 >= 0 && $0 < n }).sorted() { body(k) }
        case .first(let c)?: for k in 0..<Swift.min(c, n) { body(k) }
        case .last(let c)?: for k in Swift.max(0, n - c)..<n { body(k) }
        case nil: break
        }
    }

    /// One section's held ranges, start and end, as `replaceSection` takes them.
    private static func normalized(_ start: [(Int, Int)], _ end: [(Int, Int)])
        -> (start: (lows: [Int], highs: [Int]), end: (lows: [Int], highs: [Int])) {
        var s = SectionRanges(), e = SectionRanges()
        s.appendSection(start)
        e.appendSection(end)
        return (SectionRanges.union([s], in: 0), SectionRanges.union([e], in: 0))
    }

    /// The rows a plain selector with a position holds in section `u` of `n` rows (`chosen`:
    /// whether it chooses the section): only the places its position names are looked at (the
    /// first or last `count`, the listed indices), and the rows there tested for ids, kinds and
    /// tags.
    static func layOut(
        _ selector: CompiledRowSelector, _ plan: HoldPlan, section u: Int, chosen: Bool, count n: Int, rows: RowAt
    ) -> (start: (lows: [Int], highs: [Int]), end: (lows: [Int], highs: [Int])) {
        var start: [(Int, Int)] = [], end: [(Int, Int)] = []
        // Not chosen, or its position alone lays the section out.
        guard chosen, !plan.positional(n, start: &start, end: &end) else { return normalized(start, end) }
        let test = AttributeTest(selector, memo: nil)
        forEachPlace(of: selector, count: n) { k in
            let (matches, fromEnd) = selector.matchesPosition(k, of: n)
            guard matches else { return }
            if selector.filtersAttributes {
                guard withUnsafePointer(to: rows(u, k), { test.matches(u, k, $0) }) else { return }
            }
            RuleBinder.append(k, end: plan.anchorsEnd(fromEnd), start: &start, endRanges: &end)
        }
        return normalized(start, end)
    }

    /// Whether the rule holds no row of section `u`.
    func isEmpty(_ u: Int) -> Bool { start.isEmpty(u) && end.isEmpty(u) }

    func contains(_ p: Position) -> Bool {
        start.contains(p.section, p.row) || end.contains(p.section, p.row)
    }

    /// The largest start-anchored held index of section `u`, or -1.
    func lastStart(_ u: Int) -> Int { start.last(u) ?? -1 }
    /// The smallest end-anchored held index of section `u`, or `Int.max`.
    func firstEnd(_ u: Int) -> Int { end.first(u) ?? Int.max }
}

/// Per-section bounds on a section's row count for moves between sections (nil: unbounded).
/// With `rows` (SPEC §12) a section's count is the rows the query selects (`counted`), and
/// only a moving row the query selects is limited: the limit is row-dependent, so the packed
/// tables treat it as an admission (entry) and an exit guard, not as a per-section flag.
package struct SectionLimits: Sendable {
    let max: [Int?]
    let min: [Int?]
    /// The rows that are counted and limited; nil: every row (SPEC §2.2).
    let rows: QueryID?
    /// Per section, the rows `rows` selects (on the table before the move); nil with `rows` nil.
    var counted: [Int]?

    init(max: [Int?], min: [Int?], rows: QueryID? = nil, counted: [Int]? = nil) {
        self.max = max
        self.min = min
        self.rows = rows
        self.counted = counted
    }

    /// The count this limit reads for section `u`, whose row count is `n`.
    @inline(__always)
    func count(_ u: Int, rows n: Int) -> Int { counted?[u] ?? n }

    /// Whether section `u`, holding `count` rows, may take `m` more.
    func allowsEntry(_ u: Int, count: Int, adding m: Int) -> Bool { max[u].map { count + m <= $0 } ?? true }
    /// Whether section `u`, holding `count` rows, may give `m` away.
    func allowsExit(_ u: Int, count: Int, removing m: Int) -> Bool { min[u].map { count - m >= $0 } ?? true }

    /// Whether `m` counted rows may move from section `s` to another section `t` (counts before
    /// the move, taken with ``count(_:rows:)``). Moving no counted row is never limited.
    func allowsMove(from s: Int, to t: Int, moving m: Int, counts: [Int]) -> Bool {
        m == 0 || (allowsEntry(t, count: count(t, rows: counts[t]), adding: m)
                   && allowsExit(s, count: count(s, rows: counts[s]), removing: m))
    }
}

/// Who may enter the guarded sections from another section: rows selected by `rows` coming
/// from a section selected by `from`.
package struct Admission: Sendable {
    let guarded: [Bool]
    let from: [Bool]
    let rows: QueryID
    /// False for `accept` (only selected rows get in). True for the admissions the bound
    /// policy derives from a `capacity` with `rows` (SPEC §12): the guarded sections are full,
    /// so rows the query selects are refused and every other row gets in.
    var refusesSelected = false
}

/// A row selector registered with the binder; ``BoundPolicy/query(_:_:_:)`` answers it in constant time.
package struct QueryID: Hashable, Sendable {
    let index: Int
}

/// The interval model of pinned rows (SPEC §2.2 and §7), the one place its formulas live. Both
/// the packed tables (over every pinning rule) and one rule's verdict (over its own rows) use it.
enum PinModel {
    /// Valid rows within its own section for a row whose nearest pinned rows are `below` and
    /// `above`: strictly between them (a move past one would shift it).
    @inline(__always)
    static func own(below: Int?, above: Int?, count n: Int) -> (lo: Int, hi: Int) {
        ((below ?? -1) + 1, (above ?? n) - 1)
    }

    /// A row at `i` may leave its section iff no start-anchored pin lies after it (it would
    /// move up) and no end-anchored pin before it (its distance from the end would shrink).
    @inline(__always)
    static func mayLeave(_ i: Int, lastStart: Int, firstEnd: Int) -> Bool { lastStart < i && firstEnd > i }

    /// Where a row from another section may be dropped: after every start-anchored pin, and at
    /// or before every end-anchored one (its distance from the end stays as the count grows).
    @inline(__always)
    static func entry(lastStart: Int, firstEnd: Int, count n: Int) -> (lo: Int, hi: Int) {
        (lastStart + 1, Swift.min(firstEnd, n))
    }
}

/// What a rule unit can ask for while binding: the table, section selections, held rows and
/// registered row queries (whose per-row answers the bound policy keeps flat).
package struct RuleBinder {
    let table: Table
    let counts: [Int]
    var sectionCount: Int { counts.count }

    // Row queries, flattened: per query × section whether the section matches, a plan for the
    // position test, and (only for id/kind/tag filters) per query × row whether the row matches.
    private(set) var querySelectors: [CompiledRowSelector] = []
    private(set) var queryInSection: [Bool] = []
    private(set) var queryPlans: [QueryPlan] = []
    private(set) var queryAttributes: [[Bool]] = []
    /// For each list or `not` whose flags hold the whole match, position or sections included:
    /// what re-tests the rows whose match a move can change (``QueryFollower``).
    private(set) var queryFollowers: [QueryFollower] = []

    // Scratch buffers reused across rules and sections, so binding allocates per rule, not per section.
    private var startBuffer: [(Int, Int)] = []
    private var endBuffer: [(Int, Int)] = []

    /// Classes of equal rows, when one policy is bound to many orderings of the same rows.
    private let memo: RowContentMemo?
    /// The next id/kind/tag test site (``RowContentMemo``).
    private var nextSite = 0
    /// False once a rule asks for rows through selector keys the fast paths do not know (none
    /// is built in): moving a row can then change which rows are held or selected in ways the
    /// bound policy does not track, and ``BoundPolicy/follow(_:)`` declines (the caller binds
    /// again).
    private(set) var followsMoves = true

    init(table: Table, counts: [Int], memo: RowContentMemo? = nil) {
        self.table = table
        self.counts = counts
        self.memo = memo
    }

    /// The id/kind/tag test of `selector` on this table (a memo site when binding with one).
    mutating func attributeTest(_ selector: CompiledRowSelector) -> AttributeTest {
        guard let memo, selector.hasAttributeKeys else { return AttributeTest(selector, memo: nil) }
        nextSite += 1
        return AttributeTest(selector, memo: memo.site(nextSite - 1, .attributes(selector.attributeKeys)))
    }

    /// The whole match of a list or `not` that reads rows' content only
    /// (``CompiledRowSelector/isContentOnly``), for every row in table order, from the memo
    /// (asked once per class of equal rows, and moved with the rows across binds); nil without
    /// a memo or for any other selector.
    mutating func contentFlags(_ selector: CompiledRowSelector) -> [Bool]? {
        guard let memo, !selector.isPlain, selector.isContentOnly else { return nil }
        nextSite += 1
        return memo.flags(memo.site(nextSite - 1, .content(selector)), selector)
    }

    /// Which sections `selector` selects (every section when nil).
    func sections(_ selector: SectionSelector?) -> [Bool] {
        selector?.selected(in: table) ?? Array(repeating: true, count: sectionCount)
    }

    /// Makes ``BoundPolicy/follow(_:)`` decline, so the caller binds again after a move: for
    /// effects that `follow` does not update (`keep-among`'s groups, read on the table before
    /// each move).
    mutating func declineFollowing() { followsMoves = false }

    /// Registers a row selector whose match on a moving row is needed per call.
    mutating func query(_ selector: CompiledRowSelector) -> QueryID {
        let id = QueryID(index: querySelectors.count)
        querySelectors.append(selector)
        queryInSection += sections(selector.section)
        queryPlans.append(QueryPlan(selector))
        if let flags = contentFlags(selector) {
            // A list or a `not` of content keys only, bound again (`diff`): the memo's flags.
            queryAttributes.append(flags)
        } else if !selector.isPlain {
            // A list or a `not`: the flags are the whole match, position included (QueryPlan: any).
            // After a move only rows at the places its positions name change their match, and
            // the moved row: a follower tests those again (keys the fast paths do not know are
            // not followed).
            if selector.readsOtherKeys {
                followsMoves = false
            } else {
                queryFollowers.append(QueryFollower(query: id.index, selector, RowMatcher(selector, &self, memo: false)))
            }
            let matcher = RowMatcher(selector, &self)
            var flags = [Bool]()
            flags.reserveCapacity(counts.reduce(0, +))
            for u in table.sections.indices {
                // Rows are borrowed through the buffer: copying a Row retains its id, kind and tags.
                table.sections[u].rows.withUnsafeBufferPointer { rows in
                    guard let base = rows.baseAddress else { return }
                    for k in rows.indices { flags.append(matcher.match(u, k, rows.count, base + k).matches) }
                }
            }
            queryAttributes.append(flags)
        } else if selector.filtersAttributes {
            let test = attributeTest(selector)
            if let cached = test.allFlags() {
                // Binding the same rows again (`diff`): the memo's flags, moved with the rows.
                queryAttributes.append(cached)
                return id
            }
            var flags = [Bool]()
            flags.reserveCapacity(counts.reduce(0, +))
            for u in table.sections.indices {
                table.sections[u].rows.withUnsafeBufferPointer { rows in
                    guard let base = rows.baseAddress else { return }
                    for k in rows.indices { flags.append(test.matches(u, k, base + k)) }
                }
            }
            queryAttributes.append(flags)
        } else {
            queryAttributes.append([])
        }
        return id
    }

    /// Per section, how many rows the registered query `q` selects (SPEC §12's counts):
    /// positional plans are counted without a look at the rows, the rest read the query's flags.
    func selectedCounts(_ q: QueryID) -> [Int] {
        let plan = queryPlans[q.index], selector = querySelectors[q.index]
        let flags = queryAttributes[q.index]
        var base = 0
        var result = [Int]()
        result.reserveCapacity(sectionCount)
        for u in 0..<sectionCount {
            let n = counts[u]
            defer { base += n }
            guard queryInSection[q.index * sectionCount + u] else {
                result.append(0)
                continue
            }
            let candidates: [Int]
            switch plan.position {
            case .any: candidates = []
            case .first: candidates = Array(0..<Swift.min(plan.count, n))
            case .last: candidates = Array(Swift.max(0, n - plan.count)..<n)
            case .indices: candidates = (0..<n).filter { selector.matchesPosition($0, of: n).matches }
            }
            if plan.position == .any {
                result.append(plan.filtersAttributes ? flags[base..<(base + n)].reduce(0) { $0 + ($1 ? 1 : 0) } : n)
            } else {
                result.append(plan.filtersAttributes ? candidates.reduce(0) { $0 + (flags[base + $1] ? 1 : 0) } : candidates.count)
            }
        }
        return result
    }

    /// The rows `selector` selects, split by anchor: `anchor` when given, else `end` for rows
    /// selected through `last` or a negative index (SPEC §7). Without `pins` every row goes to `start`.
    mutating func held(_ selector: CompiledRowSelector, anchor: Anchor?, pins: Bool, word: String) -> HeldRows {
        // By content alone (the rows follow moves), by position alone (the indices stay), or both.
        let byContent = selector.isPlain ? selector.filtersAttributes && selector.position == nil : selector.isContentOnly
        // Position and content together: a plain selector's rows are laid out again after a
        // move (HeldRows.layout, the places its position names). A list or `not`: the rows whose
        // match a move can change are tested again (HeldRows.retest), unless it has keys the
        // fast paths do not know.
        let plan = HoldPlan(selector, anchor: anchor, pins: pins)
        var retest: HeldRows.HeldFollower?
        if !byContent && !selector.isPlain {
            if selector.readsOtherKeys {
                followsMoves = false
            } else {
                // -1: the follower stands for no query (its flags are the held ranges).
                retest = HeldRows.HeldFollower(QueryFollower(query: -1, selector, RowMatcher(selector, &self, memo: false)), plan: plan)
            }
        }
        let chosen = sections(selector.section)
        let contentFlags = contentFlags(selector)
        let matcher = selector.isPlain || contentFlags != nil ? nil : RowMatcher(selector, &self)
        let test = selector.isPlain ? attributeTest(selector) : AttributeTest(selector, memo: nil)
        let cachedFlags = selector.isPlain && selector.position == nil ? test.allFlags() : contentFlags
        var start = SectionRanges(), end = SectionRanges()
        for u in 0..<sectionCount {
            startBuffer.removeAll(keepingCapacity: true)
            endBuffer.removeAll(keepingCapacity: true)
            if let matcher {
                // A list or a `not`: every row is looked at, with the section known.
                table.sections[u].rows.withUnsafeBufferPointer { rows in
                    guard let base = rows.baseAddress else { return }
                    for k in rows.indices {
                        let m = matcher.match(u, k, rows.count, base + k)
                        if m.matches { Self.append(k, end: plan.anchorsEnd(m.fromEnd), start: &startBuffer, endRanges: &endBuffer) }
                    }
                }
            } else if chosen[u], selector.position == nil, let flags = cachedFlags {
                // The memo's flags for the whole table: runs found eight rows at a time.
                // (Cached flags come from the memo, so there is one.)
                let rows = memo!.rows(of: u)
                let toEnd = plan.anchorsEnd(false)
                flags.withUnsafeBufferPointer { flags in
                    var k = rows.lowerBound
                    while let lo = Self.firstIndex(of: true, in: flags, from: k, to: rows.upperBound) {
                        let hi = Self.firstIndex(of: false, in: flags, from: lo, to: rows.upperBound) ?? rows.upperBound
                        if toEnd { endBuffer.append((lo - rows.lowerBound, hi - 1 - rows.lowerBound)) } else { startBuffer.append((lo - rows.lowerBound, hi - 1 - rows.lowerBound)) }
                        k = hi
                    }
                }
            } else if chosen[u] && !plan.positional(counts[u], start: &startBuffer, end: &endBuffer) {
                // Positional selectors need no look at the rows; the rest go row by row.
                table.sections[u].rows.withUnsafeBufferPointer { rows in
                    Self.heldRows(selector, test, plan, u, rows, start: &startBuffer, end: &endBuffer)
                }
            }
            start.appendSection(startBuffer)
            end.appendSection(endBuffer)
        }
        return HeldRows(start: start, end: end, pins: pins, word: word, followsRows: byContent, sections: chosen,
                        layout: byContent || !selector.isPlain ? nil : (selector, plan),
                        joining: byContent && selector.isPlain ? (selector, plan) : nil,
                        retest: retest)
    }

    /// The first index in `from..<to` whose flag is `value`, reading eight flags per load (a
    /// `Bool` is one byte, 0 or 1): `diff` scans every held selector's flags once per move, and
    /// the standard library's `firstIndex(of:)` over a slice was a third of its time.
    package static func firstIndex(of value: Bool, in flags: UnsafeBufferPointer<Bool>, from: Int, to: Int) -> Int? {
        guard let base = flags.baseAddress, from < to else { return nil }
        let raw = UnsafeRawPointer(base)
        let skip: UInt64 = value ? 0 : 0x0101_0101_0101_0101
        var k = from
        // Thirty-two flags a step while all are skipped (sparse held rows: most of a section),
        // then eight, then one.
        while k + 32 <= to {
            let a = raw.loadUnaligned(fromByteOffset: k, as: UInt64.self) ^ skip
            let b = raw.loadUnaligned(fromByteOffset: k + 8, as: UInt64.self) ^ skip
            let c = raw.loadUnaligned(fromByteOffset: k + 16, as: UInt64.self) ^ skip
            let d = raw.loadUnaligned(fromByteOffset: k + 24, as: UInt64.self) ^ skip
            if a | b | c | d != 0 { break }
            k += 32
        }
        while k + 8 <= to {
            let word = raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)
            if word != skip { break }
            k += 8
        }
        while k < to {
            if flags[k] == value { return k }
            k += 1
        }
        return nil
    }

    /// The rows of one section that a selector with an index list or an id/kind/tag filter
    /// holds, appended in ascending order (every candidate row is looked at).
    private static func heldRows(
        _ selector: CompiledRowSelector, _ test: AttributeTest, _ plan: HoldPlan, _ u: Int, _ rows: UnsafeBufferPointer<Row>,
        start: inout [(Int, Int)], end: inout [(Int, Int)]
    ) {
        let n = rows.count
        guard let base = rows.baseAddress else { return }
        func consider(_ k: Int) {
            let (matches, fromEnd) = selector.matchesPosition(k, of: n)
            if matches && test.matches(u, k, base + k) {
                append(k, end: plan.anchorsEnd(fromEnd), start: &start, endRanges: &end)
            }
        }
        switch selector.position {
        case .indices(let list):
            for k in Set(list.map { $0 < 0 ? n + $0 : $0 }.filter { $0 >= 0 && $0 < n }).sorted() { consider(k) }
        case .first(let count): for k in 0..<Swift.min(count, n) { consider(k) }
        case .last(let count): for k in Swift.max(0, n - count)..<n { consider(k) }
        case nil: for k in 0..<n { consider(k) }
        }
    }
}

extension RuleBinder {
    /// Adds row `k` (rows come in ascending order) to the start or end ranges, joining runs.
    @inline(__always)
    static func append(_ k: Int, end: Bool, start: inout [(Int, Int)], endRanges: inout [(Int, Int)]) {
        if end {
            if let last = endRanges.last, last.1 == k - 1 { endRanges[endRanges.count - 1].1 = k } else { endRanges.append((k, k)) }
        } else {
            if let last = start.last, last.1 == k - 1 { start[start.count - 1].1 = k } else { start.append((k, k)) }
        }
    }
}

/// A held selector's positional part as plain values, so binding copies nothing per section.
struct HoldPlan: Sendable {
    enum Position: UInt8, Sendable { case all, first, last, other }
    let position: Position
    let count: Int
    let pins: Bool
    /// The explicit anchor, or nil for the default.
    let anchor: Anchor?

    init(_ selector: CompiledRowSelector, anchor: Anchor?, pins: Bool) {
        self.pins = pins
        self.anchor = anchor
        if selector.filtersAttributes {
            (position, count) = (.other, 0)
            return
        }
        switch selector.position {
        case nil: (position, count) = (.all, 0)
        case .first(let n)?: (position, count) = (.first, n)
        case .last(let n)?: (position, count) = (.last, n)
        case .indices?: (position, count) = (.other, 0)
        }
    }

    /// Whether a row selected (through the end or not) keeps its distance from the end.
    @inline(__always)
    func anchorsEnd(_ fromEnd: Bool) -> Bool {
        pins && (anchor ?? (fromEnd ? .end : .start)) == .end
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
        if anchorsEnd(fromEnd) { end.append(range) } else { start.append(range) }
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
        guard s.isPlain else {
            // Lists and `not`: the per-row flags hold the whole match.
            (position, count, filtersAttributes) = (.any, 0, true)
            return
        }
        switch s.position {
        case nil: (position, count) = (.any, 0)
        case .first(let n)?: (position, count) = (.first, n)
        case .last(let n)?: (position, count) = (.last, n)
        case .indices?: (position, count) = (.indices, 0)
        }
        filtersAttributes = s.filtersAttributes
    }
}
