import ReorderEngine

/// Sections laid out as *segments* (docs/ANALYSIS.md, "Large position constants"): a policy
/// with `last: 80000` tells a row's place apart only by which thresholds its index and its
/// distance from the end have passed, so a section is a short sequence of runs of rows that no
/// positional test tells apart, and a run matters only up to a *saturation* length. The
/// programme places the moving row and the drop slot inside the runs itself, instead of
/// enumerating their places, so the work no longer grows with the constants.
extension MoveSearch {
    /// One arrangement of a section: its runs in order, each with the index of its first row
    /// in a section of `n` rows and its length (nil: the middle run, of any length, whose rows
    /// are past every threshold from both ends).
    struct Layout {
        var n: Int
        var segments: [(k: Int, length: Int?)]
    }

    /// Every arrangement of a section of at least `minimum` rows that the programme must see,
    /// ascending by size, the one with a middle run last.
    ///
    /// With thresholds `p₁ < … < pₘ`, a section of `n` rows is cut at each `pᵢ` (from the start)
    /// and at each `n − pᵢ` (from the end). Their order, and the lengths between them, depend on
    /// `n` only through `n − (pᵢ + pⱼ)`; and a run longer than the saturation reaches what a run
    /// of the saturation length reaches (``runLayout``). So `n` within `saturation` of some
    /// `pᵢ + pⱼ` (p₀ = 0 included) is taken as it is, one `n` stands for each gap between such
    /// windows, and every `n ≥ 2·pₘ` is the layout with a middle run.
    mutating func layouts(minimum: Int, saturation t: Int) -> [Layout] {
        let key = [minimum, t, smallLayoutRows ?? -1] + effectiveExtraBreakpoints
        if let cached = layoutCache[key] { return cached }
        var made = makeLayouts(minimum: minimum, saturation: t)
        // (The middle run stands for sections of any length past 2·pₘ: never a short one.)
        if let limit = smallLayoutRows { made.removeAll { $0.n > limit || $0.segments.contains { $0.length == nil } } }
        layoutCache[key] = made
        return made
    }

    /// The extra thresholds that are not among the policy's own (a place asked about whose
    /// thresholds the policy already has lays out the same): the layouts' cache key.
    var effectiveExtraBreakpoints: [Int] {
        guard !extraBreakpoints.isEmpty else { return [] }
        let own = vocabulary.rowBreakpoints
        return Array(Set(extraBreakpoints.filter { $0 > 0 && !Self.sortedContains(own, $0) })).sorted()
    }

    static func sortedContains(_ sorted: [Int], _ x: Int) -> Bool {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < x { lo = mid + 1 } else { hi = mid }
        }
        return lo < sorted.count && sorted[lo] == x
    }

    private func makeLayouts(minimum: Int, saturation t: Int) -> [Layout] {
        let p = thresholds
        let top = p.last ?? 0
        return Self.sizesNearSums(p, window: t, minimum: minimum, below: 2 * top).map { n in
            Layout(n: n, segments: Self.runs(p, n).map { (k: $0.k, length: $0.length) })
        } + [longLayout]
    }

    /// The policy's thresholds with the extra ones of the place asked about, ascending.
    private var thresholds: [Int] {
        let extra = effectiveExtraBreakpoints
        return extra.isEmpty ? vocabulary.rowBreakpoints : Array(Set(vocabulary.rowBreakpoints + extra).filter { $0 > 0 }).sorted()
    }

    /// Sections of n ≥ 2·pₘ rows: the head runs, the middle, the tail runs (mirrored), in a
    /// representative section of 2·pₘ + 1 rows whose middle row stands for the whole middle run.
    var longLayout: Layout {
        let p = thresholds
        let top = p.last ?? 0, q = [0] + p
        let n = 2 * top + 1
        var segments: [(k: Int, length: Int?)] = []
        for (a, b) in zip(q, q.dropFirst()) { segments.append((a, b - a)) }
        segments.append((top, nil))
        for (a, b) in zip(q, q.dropFirst()).reversed() { segments.append((n - b, b - a)) }
        return Layout(n: n, segments: segments)
    }

    /// The runs of `n` places cut at each threshold of `p` from the start and from the end (at
    /// `x` and `n − x`): places of one run pass the same thresholds both ways. Each run as its
    /// first place and its length, in order; none is empty.
    static func runs(_ p: [Int], _ n: Int) -> [(k: Int, length: Int)] {
        var cuts = Set([0, n])
        for x in p where x < n {
            cuts.insert(x)
            cuts.insert(n - x)
        }
        let sorted = cuts.sorted()
        return zip(sorted, sorted.dropFirst()).map { (k: $0, length: $1 - $0) }
    }

    /// Whether layouts take sections of exactly `n` rows as they are for every question, so
    /// that "at least n rows" splits no gap: `n` lies within the narrowest window of a sum of
    /// two thresholds (a saturation of 1, as the places of a row question are laid out).
    static func isExactLength(_ n: Int, _ thresholds: [Int]) -> Bool {
        let q = [0] + thresholds.filter { $0 > 0 }
        return q.contains { a in q.contains { b in abs(a + b - n) <= 1 } }
    }

    /// The sizes a run of places cut at thresholds `p` (from both ends) must be tried at: the
    /// order of the cuts `p` and `n − p`, and the lengths between them up to `window`, change
    /// only near a sum of two thresholds (0 included). So every size within `window` of such a
    /// sum, at least `minimum` and below `limit`, and one size inside each gap between them,
    /// ascending. Row layouts and section geometries both take their sizes from here.
    static func sizesNearSums(_ p: [Int], window: Int, minimum: Int, below limit: Int) -> [Int] {
        let q = [0] + p
        // The windows as intervals, merged in order (a set of every size in every window hashed
        // each of them once per sum: a quarter of a 300-rule policy's time in segment mode).
        var windows: [(low: Int, high: Int)] = []
        for a in q.indices {
            for b in a..<q.count {
                let sum = q[a] + q[b]
                let low = Swift.max(minimum, sum - window), high = Swift.min(Swift.max(minimum, sum + window), limit - 1)
                if low <= high { windows.append((low, high)) }
            }
        }
        windows.sort { $0.low < $1.low }
        var sizes: [Int] = [], last: Int? = nil
        for (low, high) in windows {
            let start = last.map { Swift.max(low, $0 + 1) } ?? low
            guard start <= high else { continue }
            // One size for the gap before this window.
            if let last, start > last + 1 { sizes.append(last + 1) }
            sizes.append(contentsOf: start...high)
            last = high
        }
        return sizes
    }

    /// The places of a moving row that the search tries, each as its index among the rows of
    /// a section of `n` (the rest plain rows): one per explicit shape, or one per run of each
    /// layout in segment mode.
    mutating func xPlaces() -> [(k: Int, n: Int)] {
        if segmentMode {
            // (A run of one row when it is the only one a `source` query may name: its place's
            // thresholds are among ``extraBreakpoints`` then.)
            let onlySingles = !extraBreakpoints.isEmpty && !sourceIsRun
            if let last = lastXPlaces, last.onlySingles == onlySingles, last.small == smallLayoutRows, last.extra == extraBreakpoints { return last.places }
            let key = [onlySingles ? 1 : 0, smallLayoutRows ?? -1] + effectiveExtraBreakpoints
            let made = xPlacesCache[key] ?? layouts(minimum: 1, saturation: 1).flatMap { layout in
                layout.segments.filter { !onlySingles || $0.length == 1 }.map { (k: $0.k, n: layout.n) }
            }
            xPlacesCache[key] = made
            lastXPlaces = (extraBreakpoints, onlySingles, smallLayoutRows, made)
            return made
        }
        return shapes(x: true, slot: false).compactMap { shape in shape.firstIndex(of: .x).map { (k: $0, n: shape.count) } }
    }

    /// The programme's state in a layout: the shape programme's, and whether the moving row and
    /// the slot are placed yet.
    struct PlacedState: Hashable {
        var core: State
        var x = false
        var slot = false
    }

    enum Event {
        case row(Row)
        case x
        case slot
    }

    struct Node {
        var state: PlacedState
        var parent: Int
        var event: Event?
        var segment: Int
        /// A row that changed nothing (the state before is the state after).
        var stationary: Bool
    }

    /// Runs the programme over one layout of a section. `xSegment`: the run that holds the
    /// moving row, when the section holds it; the slot (when `role.slot`) may fall anywhere.
    /// A run of exact length L takes `min(L, saturation)` steps: every step either changes the
    /// state (a pin broken, a count raised below its cap, the moving row or the slot placed,
    /// a row found between them), which happens at most `saturation − 1` times, or repeats it;
    /// so a longer run reaches the same states, and its rows are the path's with a repeated
    /// row copied (docs/ANALYSIS.md). Nil when the work budget ran out.
    mutating func runLayout(
        _ layout: Layout, _ section: SectionSite, role: (x: Bool, slot: Bool), xSegment: Int?, same: Bool,
        _ query: MoveQuery, _ counters: [Counter], xCounts: [Bool], saturation t: Int
    ) -> [Outcome]? {
        var nodes = [Node(state: PlacedState(core: State(counts: Array(repeating: 0, count: counters.count))), parent: -1, event: nil, segment: -1, stationary: false)]
        // A layer: its states in the order they were reached (so that every run picks the same
        // path), and where each is among the nodes.
        var order: [PlacedState] = [nodes[0].state]
        var index: [PlacedState: Int] = [nodes[0].state: 0]
        var truncated: [(segment: Int, extra: Int)] = []

        func add(_ s: PlacedState, _ o: (broken: UInt64, adds: [Bool], row: Row)) -> PlacedState {
            var next = s
            next.core.broken |= o.broken
            for i in counters.indices where o.adds[i] { next.core.counts[i] = min(next.core.counts[i] + 1, counters[i].cap) }
            if same && s.x != s.slot { next.core.between = true }
            return next
        }

        func record(_ state: PlacedState, from parent: Int, _ event: Event, segment i: Int, into order: inout [PlacedState], _ index: inout [PlacedState: Int]) {
            guard index[state] == nil else { return }
            let stationary: Bool = if case .row = event { nodes[parent].state == state } else { false }
            nodes.append(Node(state: state, parent: parent, event: event, segment: i, stationary: stationary))
            index[state] = nodes.count - 1
            order.append(state)
            // A node holds its state's counts: memory, charged as work.
            budget -= 4 + counters.count
        }
        // The slot placed without a row: within the same layer.
        func closeSlots(segment i: Int, _ order: inout [PlacedState], _ index: inout [PlacedState: Int]) {
            guard role.slot else { return }
            var k = 0
            while k < order.count {
                let s = order[k]
                if !s.slot, let id = index[s] {
                    var u = s
                    u.slot = true
                    record(u, from: id, .slot, segment: i, into: &order, &index)
                }
                k += 1
            }
        }

        for (i, segment) in layout.segments.enumerated() {
            let site = RowSite(section: section, k: segment.k, n: layout.n)
            var optionCache: [[Bool]: [(broken: UInt64, adds: [Bool], row: Row)]] = [:]
            func opts(_ s: PlacedState) -> [(broken: UInt64, adds: [Bool], row: Row)] {
                if let cached = optionCache[[s.x, s.slot]] { return cached }
                // Which anchors a row here shifts under (SPEC §2.2), as in ``run``.
                let shifts: (start: Bool, end: Bool)
                if same { shifts = s.x != s.slot ? (true, true) : (false, false) }
                else if role.x { shifts = s.x ? (true, false) : (false, true) }
                else { shifts = s.slot ? (true, false) : (false, true) }
                let made = options(site, start: shifts.start, end: shifts.end, query, counters)
                budget -= made.count + 1
                optionCache[[s.x, s.slot]] = made
                return made
            }
            // Successors of one state: a row, the moving row (in its run), the slot (no row).
            func successors(_ s: PlacedState) -> [(PlacedState, Event)] {
                var out: [(PlacedState, Event)] = []
                if role.slot && !s.slot {
                    var u = s
                    u.slot = true
                    out.append((u, .slot))
                }
                if role.x && xSegment == i && !s.x {
                    var u = s
                    u.x = true
                    for c in counters.indices where xCounts[c] { u.core.counts[c] = min(u.core.counts[c] + 1, counters[c].cap) }
                    out.append((u, .x))
                }
                for o in opts(s) { out.append((add(s, o), .row(o.row))) }
                return out
            }
            closeSlots(segment: i, &order, &index)
            if let length = segment.length {
                let steps = min(length, t)
                if length > t { truncated.append((i, length - t)) }
                for _ in 0..<steps {
                    var nextOrder: [PlacedState] = [], nextIndex: [PlacedState: Int] = [:]
                    for s in order {
                        guard let id = index[s] else { continue }
                        for (u, event) in successors(s) {
                            budget -= 1
                            if case .slot = event { continue }
                            record(u, from: id, event, segment: i, into: &nextOrder, &nextIndex)
                        }
                        if budget <= 0 { return nil }
                    }
                    closeSlots(segment: i, &nextOrder, &nextIndex)
                    order = nextOrder
                    index = nextIndex
                }
            } else {
                // The middle run: any number of rows, so every state reachable from the layer.
                var k = 0
                while k < order.count {
                    let s = order[k]
                    if let id = index[s] {
                        for (u, event) in successors(s) {
                            budget -= 1
                            record(u, from: id, event, segment: i, into: &order, &index)
                        }
                    }
                    k += 1
                    if budget <= 0 { return nil }
                }
            }
            // The moving row is in its run, or nowhere yet.
            if xSegment == i {
                order = order.filter(\.x)
                index = index.filter { $0.key.x }
            }
        }
        // A section without rows (or a slot after its last row): the slot placed at the end.
        closeSlots(segment: layout.segments.count, &order, &index)
        if role.slot { order = order.filter(\.slot) }
        if role.x { order = order.filter(\.x) }

        // Each end state's rows, the copies of a repeated row put back into long runs.
        var out: [Outcome] = []
        var seen = Set<State>()
        for end in order {
            guard let id = index[end], seen.insert(end.core).inserted else { continue }
            var path: [Node] = []
            var n = id
            while n > 0 {
                path.append(nodes[n])
                n = nodes[n].parent
            }
            path.reverse()
            var rows: [Row] = [], xIndex: Int? = nil, slot: Int? = nil
            var pending = truncated, inserts: [(index: Int, count: Int)] = []
            for node in path {
                switch node.event {
                case .row(let row)?:
                    rows.append(row)
                    if node.stationary, let p = pending.firstIndex(where: { $0.segment == node.segment }) {
                        inserts.append((rows.count - 1, pending[p].extra))
                        pending.remove(at: p)
                    }
                case .x?:
                    xIndex = rows.count
                    rows.append(Row(id: ""))
                case .slot?:
                    slot = rows.count
                case nil:
                    break
                }
            }
            // (Not reached when the saturation is right: a path that long repeats a step.)
            guard pending.isEmpty else { continue }
            out.append(Outcome(state: end.core, rows: rows, xIndex: xIndex, slot: slot, inserts: inserts))
        }
        return out
    }

    /// The saturation length of a run for a query: one more than the number of times a state
    /// can change (each required pin broken, each count raised to its cap, the moving row and
    /// the slot placed, a row found between them).
    func saturation(_ counters: [Counter]) -> Int {
        requiredPins.count + counters.reduce(0) { $0 + $1.cap } + 4
    }

    /// A window above the saturation of every question about a row move that breaks none of
    /// `rules` (no pin must break, so ``saturation(_:)`` without pins, with every capacity of
    /// theirs counted on both sides): places of one run at least this far from both its ends
    /// are alike to the programme.
    func frozenWindow(_ rules: Set<Int>) -> Int {
        let caps = rules.reduce(0) { sum, r in
            guard case .capacity(_, let max, let min, _) = self.rules[r].meaning else { return sum }
            return sum + (max.map { cap($0, max: true) } ?? 0) + (min.map { cap($0, max: false) } ?? 0)
        }
        return caps + 4 + 1
    }
}
