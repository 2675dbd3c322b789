import ReorderEngine

extension MoveSearch {
    /// Whether rule `r` holds the moving row `x` at `site`.
    func holdsRow(_ r: Int, _ site: RowSite, _ x: PartialRow) -> Tri {
        Self.holdsRow(rules[r].meaning, site, x)
    }

    static func holdsRow(_ meaning: RuleMeaning, _ site: RowSite, _ x: PartialRow) -> Tri {
        switch meaning {
        case .hold(let rows, _, _): return site.match(rows, x).matches
        case .reserve(let edge, let count, let sections):
            guard sections.map(site.section.selected) ?? true else { return .no }
            return Tri(edge == .start ? site.k < count : site.k >= site.n - count)
        case .keepInSection, .accept, .capacity, .keepOrder, .keepAmong: return .no
        }
    }

    /// Whether a holding rule may hold some row of a section at `site` (false only when its
    /// `section` keys, or a reserve's sections, do not select the section: a cheap, sure test).
    static func mayHoldRows(_ meaning: RuleMeaning, in site: SectionSite) -> Bool {
        switch meaning {
        case .hold(let rows, _, _): rows.mayHoldRows(in: site)
        case .reserve(_, _, let sections): sections.map(site.selected(by:)) ?? true
        case .keepInSection, .accept, .capacity, .keepOrder, .keepAmong: true
        }
    }

    /// Whether a rule other than a pin or a capacity refuses moving `x` from `s` to `t`.
    func refuses(_ r: Int, _ xSite: RowSite, _ t: SectionSite, cross: Bool, _ x: PartialRow) -> Tri {
        Self.refuses(rules[r].meaning, xSite, t, cross: cross, x)
    }

    static func refuses(_ meaning: RuleMeaning, _ xSite: RowSite, _ t: SectionSite, cross: Bool, _ x: PartialRow) -> Tri {
        switch meaning {
        case .keepInSection(let rows): return Tri(cross) && xSite.match(rows, x).matches
        case .accept(let section, let from, let rows):
            guard cross, t.selected(by: section) else { return .no }
            return !xSite.section.selected(by: from) ? .yes : !xSite.match(rows, x).matches
        case .keepOrder(let section): return Tri(!cross && xSite.section.selected(by: section))
        // Not searched: which rows a move passes is not followed by the programme; a search
        // counts it as refusing nothing (every answer "none" holds as well with it, and every
        // witness is confirmed on the engine), and a question that needs it broken is not
        // asked (``findMove(_:)``: unknown). docs/ANALYSIS.md, "keep-among".
        case .keepAmong: return .no
        case .hold, .reserve, .capacity: return .no
        }
    }

    /// The constraints on the moving row: who holds it, and the verdicts that depend on it.
    /// A constraint that a row with nothing chosen already settles (three-valued evaluation is
    /// monotone: every row then gives the same) is decided here, once: a true one is dropped,
    /// a false one makes the whole set unsatisfiable.
    func movingRowConstraints(_ roles: [(Int, UInt8)], _ xSite: RowSite, _ t: SectionSite, cross: Bool) -> [(PartialRow) -> Tri] {
        // What the row must be first, what it must not be after: the solver stops at the first
        // false constraint, and the few rules the query needs broken or holding rule out most
        // rows (the row found is the same in any order; only the work differs).
        var out: [(PartialRow) -> Tri] = [], after: [(PartialRow) -> Tri] = []
        let blank = blankRow
        /// Settles `value` on the blank row (negated when `negate`): true is dropped, false
        /// makes the set unsatisfiable, unknown becomes a constraint (made only then).
        func add(_ value: Tri, negate: Bool, _ c: @escaping (PartialRow) -> Tri) -> Bool {
            switch negate ? !value : value {
            case .yes: return true
            case .no: return false
            case .unknown:
                if negate { after.append { !c($0) } } else { out.append(c) }
                return true
            }
        }
        let never: [(PartialRow) -> Tri] = [{ _ in .no }]
        for (r, role) in roles {
            let m = rules[r].meaning
            if rules[r].holds {
                guard role & (Self.roleMustHold | Self.roleMustNotHold) != 0 else { continue }
                let value = Self.holdsRow(m, xSite, blank)
                let c: (PartialRow) -> Tri = { Self.holdsRow(m, xSite, $0) }
                if role & Self.roleMustHold != 0, !add(value, negate: false, c) { return never }
                if role & Self.roleMustNotHold != 0, !add(value, negate: true, c) { return never }
            } else {
                if case .capacity = m { continue }
                guard role & (Self.roleMustBreak | Self.roleMustNotBreak) != 0 else { continue }
                let value = Self.refuses(m, xSite, t, cross: cross, blank)
                let c: (PartialRow) -> Tri = { Self.refuses(m, xSite, t, cross: cross, $0) }
                if role & Self.roleMustBreak != 0, !add(value, negate: false, c) { return never }
                if role & Self.roleMustNotBreak != 0, !add(value, negate: true, c) { return never }
            }
        }
        return out + after
    }

    static let roleMustHold: UInt8 = 1, roleMustNotHold: UInt8 = 2, roleMustBreak: UInt8 = 4, roleMustNotBreak: UInt8 = 8

    /// The rules `q` names with their roles, computed once per query (so the sets are not
    /// looked up per place): those that must hold or break first, in rule order, then the rest.
    /// A place where a required rule cannot apply is then given up before the other rules are
    /// asked.
    func queryRoles(_ q: MoveQuery) -> [(Int, UInt8)] {
        var roles: [(Int, UInt8)] = []
        for r in rules.indices {
            var role: UInt8 = 0
            if q.mustHold.contains(r) { role |= Self.roleMustHold }
            if q.mustNotHold.contains(r) { role |= Self.roleMustNotHold }
            if q.mustBreak.contains(r) { role |= Self.roleMustBreak }
            if q.mustNotBreak.contains(r) { role |= Self.roleMustNotBreak }
            if role != 0 { roles.append((r, role)) }
        }
        let required = Self.roleMustHold | Self.roleMustBreak
        return roles.filter { $0.1 & required != 0 } + roles.filter { $0.1 & required == 0 }
    }

    /// ``queryRoles(_:)``, kept for the last query's sets: the frozen places ask many row
    /// questions with the same sets (only the place differs), and two copies of one set compare
    /// equal at once (they share storage).
    mutating func cachedRoles(_ q: MoveQuery) -> [(Int, UInt8)] {
        if let m = rolesMemo, m.sets == [q.mustHold, q.mustNotHold, q.mustBreak, q.mustNotBreak] { return m.roles }
        let roles = queryRoles(q)
        rolesMemo = ([q.mustHold, q.mustNotHold, q.mustBreak, q.mustNotBreak], roles)
        return roles
    }

    /// The counters a cross-section move needs for the capacity rules the query names.
    func counters(_ q: MoveQuery, _ s: SectionSite, _ t: SectionSite) -> [Counter] {
        var out: [Counter] = []
        for r in rules.indices where q.mustBreak.contains(r) || q.mustNotBreak.contains(r) {
            guard case .capacity(let section, let max, let min, _) = rules[r].meaning else { continue }
            if let max, t.selected(by: section) { out.append(Counter(rule: r, max: true, cap: cap(max, max: true), open: isOpen(max))) }
            if let min, s.selected(by: section) { out.append(Counter(rule: r, max: false, cap: cap(min, max: false), open: isOpen(min))) }
        }
        return out
    }

    /// How far a count is followed for a bound: a `max` of b needs counts up to b, a `min` of
    /// b up to b + 1; a value bound above ``exactCapacities`` up to that (at least 1), open
    /// there; an attribute bound up to ``attributeCap``.
    func cap(_ bound: CapacityBound, max isMax: Bool) -> Int {
        switch bound {
        case .value(let v): v > exactCapacities ? Swift.max(exactCapacities, 1) : isMax ? v : v + 1
        case .attribute: Self.attributeCap
        }
    }

    /// Whether a count at the bound's cap stands for any larger count (``Counter/open``).
    func isOpen(_ bound: CapacityBound) -> Bool {
        switch bound {
        case .value(let v): v > exactCapacities
        case .attribute: true
        }
    }

    /// Counts of attribute-bound limits are followed up to this many rows; beyond, the check is
    /// relaxed (never stricter than the truth) and the concrete table decides.
    static var attributeCap: Int { 4 }

    /// Finds a row move that does what `q` asks, on any table (docs/ANALYSIS.md).
    mutating func findMove(_ q: MoveQuery) -> SearchResult {
        guard searchable, !exhausted else { return .unknown }
        // The programme does not follow which rows a move passes, so a `keep-among` that must
        // break is not searched for (a search would find none, and "none" would be a claim).
        if q.mustBreak.contains(where: { if case .keepAmong = rules[$0].meaning { true } else { false } }) { return .unknown }
        // No row that the query lets move exists at all (every row is held): no move either.
        // The rows tried by ``findRow(_:)`` are the moving rows of every frame. A keep-in-section
        // that must break needs a row it keeps that no keep-in-section that must not break keeps
        // too (the move leaves the section); and when no row the query lets move is left free to
        // leave its section by those that must not break (`{ kind: note }` beside `{ not: { kind:
        // note } }`), no move between sections is tried at all (``crossBlocked``).
        func keeps(_ r: Int) -> Bool { if case .keepInSection = rules[r].meaning { true } else { false } }
        func kept(_ r: Int) -> RowSelector { if case .keepInSection(let rows) = rules[r].meaning { rows } else { .all } }
        let leaving = q.mustBreak.filter(keeps).sorted()
        let staying = q.crossSection == false ? [] : q.mustNotBreak.filter(keeps).sorted()
        func someRow(leaving: [Int], staying: [Int], anywhere: Bool = false) -> SearchResult {
            var rowQuery = MoveQuery()
            rowQuery.mustHold = q.mustHold
            rowQuery.mustNotHold = q.mustNotHold
            if !anywhere {
                rowQuery.source = q.source
                rowQuery.sourceSection = q.sourceSection
            }
            rowQuery.movingRows = leaving.map { (kept($0), true) } + staying.map { (kept($0), false) }
            let key = rowQuery.source == nil && rowQuery.sourceSection == nil ? [q.mustHold.sorted(), [-1], q.mustNotHold.sorted(), [-2], leaving, [-3], staying] : nil
            if let key, let cached = rowExists[key] { return cached }
            let exists = findRow(rowQuery)
            if let key { rowExists[key] = exists }
            return exists
        }
        if !q.mustNotHold.isEmpty || !q.mustHold.isEmpty || !leaving.isEmpty {
            if case .none = someRow(leaving: leaving, staying: leaving.isEmpty ? [] : staying) { return .none }
        }
        // (Asked of every place and section, so once per set of rules, not once per place.)
        crossBlocked = false
        if leaving.isEmpty && !staying.isEmpty, case .none = someRow(leaving: [], staying: staying, anywhere: true) {
            if q.crossSection == true { return .none }
            crossBlocked = true
        }
        if exhausted { return .unknown }
        // Segment mode: sections of up to `smallLayoutRows` rows first. A witness there is a
        // witness (each is confirmed on the engine like any other), and most questions have a
        // short one; only "none" or "unknown" needs every layout, long ones included.
        if segmentMode && smallLayoutRows == nil {
            smallLayoutRows = Self.smallLayoutLimit
            let early = frames(q)
            smallLayoutRows = nil
            if case .found = early { return early }
            if exhausted { return .unknown }
        }
        return frames(q)
    }

    /// Sections of at most this many rows are searched first in segment mode (``findMove(_:)``).
    static let smallLayoutLimit = 64

    /// Every frame of `q`, with the layouts ``layouts(minimum:saturation:)`` gives now.
    private mutating func frames(_ q: MoveQuery) -> SearchResult {
        requiredPins = q.mustBreak.filter { rules[$0].pins }.sorted()
        solvedRows = [:]
        destinationCache = [:]
        closedSources = [:]
        currentRoles = cachedRoles(q)
        optionsCache = [:]
        inFindMove = true
        defer { inFindMove = false }
        var unknown = false
        // Rules whose verdict on a pair of sections no row or place changes: an accept that
        // must not break refuses every move into its sections from outside `from`; one that
        // must break needs a move into them; a capacity that must break needs its section on
        // the side it limits. A pair they rule out is skipped before any frame is built (each
        // frame would find nothing: SPEC §10.1, rules that cannot interact are not searched
        // again). Only whether, so the sets' order does not matter.
        let closingAccepts: [(SectionSelector, SectionSelector)] = q.mustNotBreak.compactMap {
            if case .accept(let section, let from, _) = rules[$0].meaning { return (section, from) }
            return nil
        }
        let breakingCapacities: [(SectionSelector, max: Bool, min: Bool)] = q.mustBreak.compactMap {
            if case .capacity(let section, let max, let min, _) = rules[$0].meaning { return (section, max != nil, min != nil) }
            return nil
        }
        let breakingAccepts: [SectionSelector] = q.mustBreak.compactMap {
            if case .accept(let section, _, _) = rules[$0].meaning { return section }
            return nil
        }
        // Rules that break only through the moving row itself: a lock by picking it up, a
        // keep-in-section by taking it out of its section (so only rows their selector may
        // select in the source section, SPEC §10.1), a keep-order only within its sections.
        let breakingMovers: [(rows: RowSelector, cross: Bool)] = q.mustBreak.compactMap {
            switch rules[$0].meaning {
            case .hold(let rows, pins: false, _): (rows, false)
            case .keepInSection(let rows): (rows, true)
            default: nil
            }
        }
        let breakingOrders: [SectionSelector] = q.mustBreak.compactMap {
            if case .keepOrder(let section) = rules[$0].meaning { return section }
            return nil
        }
        // Rules that must not break and refuse every move of a kind out of a section whatever
        // its rows: a keep-order every move within its sections (a row moved within a section
        // passes another), a keep-in-section of every row of a section every move out of it.
        let fixedOrders: [SectionSelector] = q.mustNotBreak.compactMap {
            if case .keepOrder(let section) = rules[$0].meaning { return section }
            return nil
        }
        // (Only selectors of `section` keys alone can keep every row of a section.)
        let wholeSections: [RowSelector] = q.mustNotBreak.compactMap {
            if case .keepInSection(let rows) = rules[$0].meaning, rows.selectsBySectionOnly { return rows }
            return nil
        }
        // What the source section alone rules out (asked once per source, not per pair).
        func sourceRuledOut(_ s: SectionSite, cross: Bool) -> Bool {
            if !cross, fixedOrders.contains(where: { s.selected(by: $0) }) { return true }
            if cross, wholeSections.contains(where: { $0.selectsEveryRow(in: s) }) { return true }
            for (rows, needsCross) in breakingMovers where (needsCross && !cross) || !rows.mayHoldRows(in: s) { return true }
            for section in breakingOrders where cross || !s.selected(by: section) { return true }
            return false
        }
        func ruledOut(_ s: SectionSite, _ t: SectionSite, cross: Bool) -> Bool {
            guard cross else { return !breakingCapacities.isEmpty || !breakingAccepts.isEmpty }
            // An accept breaks only on a move into its sections.
            for section in breakingAccepts where !t.selected(by: section) { return true }
            for (section, from) in closingAccepts where t.selected(by: section) && !s.selected(by: from) { return true }
            for (section, max, min) in breakingCapacities where !((max && t.selected(by: section)) || (min && s.selected(by: section))) { return true }
            return false
        }
        for g in geometries(cross: q.crossSection) {
            let cross = g.s != g.t
            if cross && crossBlocked { continue }
            let sSites = distinctSections(g.s, g.count)
            var tSitesCache: [SectionSite]? = nil
            for sSite in sSites {
                if let sourceSection = q.sourceSection, !sourceSection(sSite) { continue }
                budget -= 1
                if sourceRuledOut(sSite, cross: cross) { continue }
                let tSites: [SectionSite]
                if cross {
                    if tSitesCache == nil { tSitesCache = distinctSections(g.t, g.count) }
                    tSites = tSitesCache ?? []
                } else {
                    tSites = [sSite]
                }
                for tSite in tSites {
                    if exhausted { return .unknown }
                    if let destination = q.destination, !destination(tSite) { continue }
                    budget -= 1
                    if ruledOut(sSite, tSite, cross: cross) { continue }
                    // A move shifts rows of its two sections only: a pin that must break needs rows there.
                    if !requiredPins.allSatisfy({ Self.mayHoldRows(rules[$0].meaning, in: sSite) || Self.mayHoldRows(rules[$0].meaning, in: tSite) }) { continue }
                    switch frame(q, g.count, sSite, tSite, cross: cross) {
                    case .found(let w): return .found(w)
                    case .unknown: unknown = true
                    case .none: break
                    }
                }
            }
        }
        return unknown ? .unknown : .none
    }

    /// One arrangement of the source section that a frame tries: an explicit shape, or a
    /// layout with the moving row in one of its runs (segment mode).
    enum Arrangement {
        case shape([Cell])
        case layout(Layout, segment: Int)
    }

    /// The source arrangements of a frame, each with the moving row's place (its index among
    /// `n` rows); nil when the query names one place and segment mode was not given its
    /// thresholds (``extraBreakpoints``).
    private mutating func sourceArrangements(_ q: MoveQuery, cross: Bool, saturation t: Int) -> [(Arrangement, k: Int, n: Int)]? {
        if segmentMode {
            if q.source != nil && extraBreakpoints.isEmpty { return nil }
            // Only sections longer than every layout but the longest: that one alone.
            let candidates: [Layout]
            if q.sourceMinRows > 1, case let long = longLayout, q.sourceMinRows >= long.n {
                candidates = smallLayoutRows == nil ? [long] : []
            } else {
                candidates = layouts(minimum: 1, saturation: t)
            }
            return candidates.flatMap { layout in
                layout.segments.enumerated().compactMap { i, segment in
                    // A place a query names is a run of one row of its own (or any run, when
                    // the query names whole runs).
                    if let source = q.source, !((segment.length == 1 || sourceIsRun) && source(segment.k, layout.n)) { return nil }
                    return (Arrangement.layout(layout, segment: i), k: segment.k, n: layout.n)
                }
            }
        }
        return shapes(x: true, slot: !cross).compactMap { shape in
            let rowCells = shape.filter { $0 != .slot }
            guard let xk = rowCells.firstIndex(of: .x) else { return nil }
            if let source = q.source, !source(xk, rowCells.count) { return nil }
            return (Arrangement.shape(shape), k: xk, n: rowCells.count)
        }
    }

    /// The programme over the source section in one arrangement (nil: out of work).
    private mutating func runSource(_ a: Arrangement, _ sSite: SectionSite, cross: Bool, _ q: MoveQuery, _ counters: [Counter], xCounts: [Bool], saturation t: Int) -> [Outcome]? {
        switch a {
        case .shape(let shape): run(shape, sSite, role: (true, !cross), same: !cross, q, counters, xCounts: xCounts)
        case .layout(let layout, let i): runLayout(layout, sSite, role: (true, !cross), xSegment: i, same: !cross, q, counters, xCounts: xCounts, saturation: t)
        }
    }

    /// What the destination section can end as, the slot anywhere (nil: out of work).
    private mutating func destinationOutcomes(_ tSite: SectionSite, _ q: MoveQuery, _ counters: [Counter], saturation t: Int) -> [Outcome]? {
        let none = counters.map { _ in false }
        guard segmentMode else {
            return shapes(x: false, slot: true).flatMap { run($0, tSite, role: (false, true), same: false, q, counters, xCounts: none) }
        }
        var all: [Outcome] = []
        for layout in layouts(minimum: 0, saturation: t) {
            guard let o = runLayout(layout, tSite, role: (false, true), xSegment: nil, same: false, q, counters, xCounts: none, saturation: t) else { return nil }
            all += o
        }
        return all
    }

    /// One frame (section count, source and destination data and places): every source
    /// arrangement, with the moving row solved once per place and capacity branch, and the
    /// programme over the source and the destination; the first candidate the engine confirms.
    private mutating func frame(_ q: MoveQuery, _ count: Int, _ sSite: SectionSite, _ tSite: SectionSite, cross: Bool) -> SearchResult {
        let counters = cross ? counters(q, sSite, tSite) : []
        let capacityRules = Array(Set(counters.map(\.rule))).sorted()
        // A capacity rule that must break needs a counter on some side.
        for r in q.mustBreak {
            if case .capacity = rules[r].meaning, !capacityRules.contains(r) { return .none }
        }
        let tCounters = counters.filter(\.max), sCounters = counters.filter { !$0.max }
        let t = saturation(counters)
        // The moving row depends on its place (index, count), the capacity branch and the
        // sections' profiles only, not on where the slot is: solved once per place and branch
        // for every frame of the same profiles (``solvedRows``). The arrangements depend on the
        // saturation, which the profiles fix too.
        let pair = sharesFrames ? siteProfiles[sSite].flatMap { s in siteProfiles[tSite].map { ProfilePair(source: s, destination: $0, cross: cross) } } : nil
        let sourceProfile = pair?.source
        // A source no row can leave (or move within) for this query is so whatever the
        // destination: asked once per source profile and kind of move, with no counters (they
        // only follow counts, never take an option away) and the saturation of no counter
        // (every saturation lays out every length: whether any outcome exists is the tables').
        // Only for a question about one place (a frozen place's), where that is the usual
        // answer; elsewhere a source usually has a way out and the check would be work lost.
        if let sourceProfile, q.source != nil {
            let key = [sourceProfile, cross ? 1 : 0]
            if closedSources[key] == nil {
                let t0 = saturation([])
                guard let arrangements = sourceArrangements(q, cross: cross, saturation: t0) else { return .unknown }
                var closed = true
                for (arrangement, _, _) in arrangements {
                    guard let outcomes = runSource(arrangement, sSite, cross: cross, q, [], xCounts: [], saturation: t0) else { return .unknown }
                    // (Within one section, only an outcome with a row between the moving row and
                    // the slot, and every required pin broken, is a move.)
                    if outcomes.contains(where: { cross || ($0.state.between && coversPins($0.state.broken)) }) {
                        closed = false
                        break
                    }
                }
                // A programme cut short by the work budget returns no outcome: never "closed".
                if exhausted { return .unknown }
                closedSources[key] = closed
            }
            if closedSources[key] == true { return .none }
        }
        var cache: SolvedRows
        if let pair, let cached = solvedRows.removeValue(forKey: pair) {
            cache = cached
        } else {
            guard let arrangements = sourceArrangements(q, cross: cross, saturation: t) else { return .unknown }
            var places: [[Int]: Int] = [:]
            let place = arrangements.map { a in
                let id = places[[a.k, a.n]] ?? places.count
                places[[a.k, a.n]] = id
                return id
            }
            cache = SolvedRows(arrangements: arrangements, place: place, rows: Array(repeating: nil, count: places.count << capacityRules.count))
        }
        defer { if let pair { solvedRows[pair] = cache } }
        if cache.barren { return .none }
        var tOutcomes: [Outcome]? = nil
        var unknown = false, checked = false
        // The relaxed capacity verdicts per pair of counts and branch.
        var capacityMemo: [[Int]: Bool] = [:]
        // Per capacity branch, once per frame: which capacity rules count the moving row, whether
        // the branch is possible at all (a capacity the query needs broken must count it), and
        // which source counters the moving row adds to.
        let branches = 0..<(1 << capacityRules.count)
        let countedByBranch: [[Int: Bool]] = branches.map { branch in
            Dictionary(uniqueKeysWithValues: capacityRules.enumerated().map { ($1, branch & (1 << $0) != 0) })
        }
        let branchPossible = countedByBranch.map { counted in !q.mustBreak.contains { counted[$0] == false } }
        let xCountsByBranch = countedByBranch.map { counted in sCounters.map { counted[$0.rule] ?? false } }
        for (a, (arrangement, xk, n)) in cache.arrangements.enumerated() {
            // Out of work: no "none" may come from a programme cut short.
            if exhausted { return .unknown }
            let xSite = RowSite(section: sSite, k: xk, n: n)
            var base: [(PartialRow) -> Tri]? = nil, baseRow: Row?? = nil
            for branch in branches {
                let counted = countedByBranch[branch]
                // A capacity the query needs broken must count the moving row.
                if !branchPossible[branch] { continue }
                let key = cache.place[a] << capacityRules.count + branch
                let x: Row
                if let cached = cache.rows[key] {
                    guard let cached else { continue }
                    x = cached
                } else {
                    if base == nil {
                        base = movingRowConstraints(currentRoles, xSite, tSite, cross: cross)
                        // Each rule the query names is asked once of the blank row: work.
                        budget -= currentRoles.count
                    }
                    // A capacity that counts every row (or none) at this place settles its branch
                    // on the blank row: the other branch has no row, and this one the base's.
                    var constraints = base ?? [], settled = true, impossible = false
                    for (b, r) in capacityRules.enumerated() {
                        let want = branch & (1 << b) != 0
                        let m = rules[r].meaning
                        switch Self.counts(m, xSite, blankRow) {
                        case .yes: impossible = impossible || !want
                        case .no: impossible = impossible || want
                        case .unknown:
                            settled = false
                            constraints.append {
                                let v = Self.counts(m, xSite, $0)
                                return want ? v : !v
                            }
                        }
                    }
                    let row: Row?
                    if impossible {
                        row = nil
                    } else if settled {
                        if baseRow == nil { baseRow = .some(solver.solve(base ?? [])) }
                        row = baseRow ?? nil
                    } else {
                        row = solver.solve(constraints)
                    }
                    cache.rows[key] = .some(row)
                    guard let row else { continue }
                    x = row
                }
                guard let sOutcomes = runSource(arrangement, sSite, cross: cross, q, sCounters,
                                                xCounts: xCountsByBranch[branch], saturation: t) else { return .unknown }
                if !cross {
                    for compact in sOutcomes where compact.state.between && coversPins(compact.state.broken) {
                        let o = compact.expanded()
                        guard let xIndex = o.xIndex, let slot = o.slot else { continue }
                        let j = slot > xIndex ? slot - 1 : slot
                        var rows = o.rows
                        rows[xIndex] = x
                        checked = true
                        switch verify(q, count, sSite, rows, tSite, [], from: xIndex, to: j, cross: false) {
                        case .found(let w): return .found(w)
                        case .none, .unknown: unknown = true
                        }
                    }
                    continue
                }
                // No way to leave the source: nothing for any destination to take.
                if sOutcomes.isEmpty { continue }
                if tOutcomes == nil {
                    let key = pair.map { [$0.destination, t] }
                    if let key, let cached = destinationCache[key] {
                        tOutcomes = cached
                    } else {
                        guard let made = destinationOutcomes(tSite, q, tCounters, saturation: t) else { return .unknown }
                        tOutcomes = made
                        if let key { destinationCache[key] = made }
                    }
                }
                for compactS in sOutcomes {
                    // Each pair is charged (with large capacity bounds there are as many
                    // outcomes on each side as counts).
                    budget -= tOutcomes?.count ?? 0
                    if exhausted { return .unknown }
                    for compactT in tOutcomes ?? [] where coversPins(compactS.state.broken | compactT.state.broken) {
                        let memoKey = compactS.state.counts + [-1] + compactT.state.counts + [-1, branch]
                        let holds: Bool
                        if let known = capacityMemo[memoKey] {
                            holds = known
                        } else {
                            holds = relaxedCapacityHolds(q, counters, compactS.state.counts, compactT.state.counts, sCounters, tCounters, counted, sSite, tSite)
                            capacityMemo[memoKey] = holds
                        }
                        guard holds else { continue }
                        let so = compactS.expanded(), to = compactT.expanded()
                        guard let xIndex = so.xIndex, let slot = to.slot else { continue }
                        var rows = so.rows
                        rows[xIndex] = x
                        checked = true
                        switch verify(q, count, sSite, rows, tSite, to.rows, from: xIndex, to: slot, cross: true) {
                        case .found(let w): return .found(w)
                        case .none, .unknown: unknown = true
                        }
                    }
                }
            }
        }
        if unknown || exhausted { return .unknown }
        if !checked { cache.barren = true }
        return .none
    }

    private func coversPins(_ broken: UInt64) -> Bool {
        requiredPins.isEmpty || broken == (UInt64(1) << requiredPins.count) - 1
    }

    /// The capacity verdicts the query asks for, on the counters (saturated counts of attribute
    /// bounds relaxed): true when some attribute values could give them.
    private func relaxedCapacityHolds(
        _ q: MoveQuery, _ counters: [Counter], _ sCounts: [Int], _ tCounts: [Int],
        _ sCounters: [Counter], _ tCounters: [Counter], _ counted: [Int: Bool], _ s: SectionSite, _ t: SectionSite
    ) -> Bool {
        var sides: [(counter: Counter, count: Int, saturated: Bool)] = []
        for (i, c) in sCounters.enumerated() { sides.append((c, sCounts[i], sCounts[i] >= c.cap)) }
        for (i, c) in tCounters.enumerated() { sides.append((c, tCounts[i], tCounts[i] >= c.cap)) }
        return Self.attributeChoice(rules, q, sides, counted, exact: false, within: rowsWithin) != nil
    }

    /// Attribute values (per side: source `false`, destination `true`) that give the verdicts
    /// the query asks of its capacity rules, or nil when none do. With `exact` false, counts
    /// at their cap stand for any larger count.
    static func attributeChoice(
        _ rules: [AnalysedRule], _ q: MoveQuery, _ sides: [(counter: Counter, count: Int, saturated: Bool)],
        _ counted: [Int: Bool], exact: Bool, within: Set<[Int]> = []
    ) -> [Bool: [String: Int]]? {
        let capacityRules = Array(Set(sides.map(\.counter.rule))).sorted()
        // Which side must break, for each rule that must break (branch over both when it has two).
        let mustRules = capacityRules.filter { q.mustBreak.contains($0) }
        let choices = mustRules.map { r in sides.indices.filter { sides[$0].counter.rule == r } }
        var pick = [Int](repeating: 0, count: choices.count)
        while true {
            var breakSide = Set<Int>()
            for (i, c) in choices.enumerated() where !c.isEmpty { breakSide.insert(c[pick[i]]) }
            if choices.allSatisfy({ !$0.isEmpty }), let values = resolve(rules, q, sides, counted, breakSide, exact: exact, within: within) {
                return values
            }
            var i = 0
            while i < pick.count {
                pick[i] += 1
                if pick[i] < choices[i].count { break }
                pick[i] = 0
                i += 1
            }
            if i == pick.count { return nil }
        }
    }

    private static func resolve(
        _ rules: [AnalysedRule], _ q: MoveQuery, _ sides: [(counter: Counter, count: Int, saturated: Bool)],
        _ counted: [Int: Bool], _ breakSide: Set<Int>, exact: Bool, within: Set<[Int]>
    ) -> [Bool: [String: Int]]? {
        // Per (side, attribute): needs presence, and the interval of values.
        struct Need { var present = false; var lo = 0; var hi = Int.max; var absentOK = true }
        var needs: [Bool: [String: Need]] = [true: [:], false: [:]]
        for (i, side) in sides.enumerated() {
            let r = side.counter.rule
            guard counted[r] == true, case .capacity(_, let max, let min, _) = rules[r].meaning else { continue }
            let mustBreak = breakSide.contains(i)
            let mustNot = q.mustNotBreak.contains(r)
            guard mustBreak || mustNot else { continue }
            let bound = side.counter.max ? max : min
            let relaxed = side.saturated && !exact
            switch bound {
            case .value(let v)?:
                // An open count at its cap stands for any larger one: either verdict.
                if relaxed && side.counter.open { continue }
                let broken = side.counter.max ? side.count + 1 > v : side.count - 1 < v
                if mustBreak && !broken { return nil }
                if mustNot && broken { return nil }
            case .attribute(let name)?:
                var need = needs[side.counter.max]?[name] ?? Need()
                if mustBreak {
                    need.present = true
                    need.absentOK = false
                    // max: A <= count; min: A >= count.
                    if side.counter.max { if !relaxed { need.hi = Swift.min(need.hi, side.count) } }
                    else { need.lo = Swift.max(need.lo, side.count) }
                } else {
                    // max: absent or A >= count + 1; min: absent or A <= count - 1.
                    if side.counter.max { need.lo = Swift.max(need.lo, side.count + 1) }
                    else if !relaxed { need.hi = Swift.min(need.hi, side.count - 1) }
                }
                needs[side.counter.max, default: [:]][name] = need
            case nil:
                if mustBreak { return nil }
            }
        }
        // Counts are not independent: a capacity that counts every row of a section counts at
        // least as many as any other on it, and two that count the same rows count alike. Past
        // the cap each count is relaxed on its own, which forgets that; so it is said here. A
        // `max` on one attribute broken by the smaller count but kept by the larger
        // (A ≤ c_small ≤ c_large < A), or a `min` broken by the larger but kept by the smaller,
        // happens on no table. The same holds of open value bounds past their caps: a `max` of
        // a broken (c_a ≥ a) while one of b ≤ a is kept on as many rows or more (c_b < b), or a
        // `min` of a broken (c_a ≤ a) while one of b ≥ a is kept on as few or fewer (c_b > b).
        for (i, a) in sides.enumerated() where breakSide.contains(i) && counted[a.counter.rule] == true {
            guard case .capacity(_, let aMax, let aMin, let aRows) = rules[a.counter.rule].meaning,
                  let aBound = a.counter.max ? aMax : aMin else { continue }
            for (j, b) in sides.enumerated() where j != i && !breakSide.contains(j) && b.counter.max == a.counter.max
                && q.mustNotBreak.contains(b.counter.rule) && counted[b.counter.rule] == true {
                guard case .capacity(_, let bMax, let bMin, let bRows) = rules[b.counter.rule].meaning,
                      let bBound = b.counter.max ? bMax : bMin else { continue }
                switch (aBound, bBound) {
                case (.attribute(let name), .attribute(let other)) where other == name: break
                case (.value(let va), .value(let vb)) where a.saturated && b.saturated && !exact && a.counter.open && b.counter.open:
                    if a.counter.max ? vb > va : vb < va { continue }
                default: continue
                }
                // "Counts at least as many" from the selectors' meanings (`rowsWithin`, issue #62),
                // not only from equal words.
                let atMost = bRows == nil || aRows == bRows || within.contains([a.counter.rule, b.counter.rule])
                let atLeast = aRows == nil || aRows == bRows || within.contains([b.counter.rule, a.counter.rule])
                if a.counter.max ? atMost : atLeast { return nil }
            }
        }
        var out: [Bool: [String: Int]] = [true: [:], false: [:]]
        for (side, byName) in needs {
            for (name, need) in byName {
                if !need.present { continue }
                if need.lo > need.hi { return nil }
                out[side, default: [:]][name] = need.lo
            }
        }
        return out
    }

    /// Builds the table, picks attribute values from the exact counts, and checks on the
    /// engine that the move does what the query asks. Anything else is `.unknown`.
    private mutating func verify(
        _ q: MoveQuery, _ count: Int, _ sSite: SectionSite, _ sRows: [Row], _ tSite: SectionSite, _ tRows: [Row],
        from i: Int, to j: Int, cross: Bool
    ) -> SearchResult {
        var table = Table(sections: (0..<count).map { _ in Section(rows: []) })
        var s = sSite.section
        s.rows = sRows
        table.sections[sSite.index] = s
        if cross {
            var t = tSite.section
            t.rows = tRows
            table.sections[tSite.index] = t
        }
        let cs = cross ? counters(q, sSite, tSite) : []
        var i = i, j = j
        func countedRows(_ c: Counter) -> [Bool] {
            let u = c.max ? tSite.index : sSite.index
            let rows = table.sections[u].rows
            let site = SectionSite(section: table.sections[u], index: u, count: count)
            return rows.indices.map { counts(c.rule, RowSite(section: site, k: $0, n: rows.count), PartialRow(rows[$0], tagNames: vocabulary.rowTags)) == .yes }
        }
        // Open value bounds (``Counter/open``): the programme followed a count only up to its
        // cap, which stands for any larger count; the count the query needs (a `max` of b
        // broken: b rows before the move; a `min` of b kept: b + 1) is reached by repeating
        // the counted row nearest the section's middle, as the programme's loop would. The
        // engine then confirms the table, or the answer is unknown.
        func movingRowCounted() -> [Int: Bool] {
            let x = table.sections[sSite.index].rows[i]
            let xSite = RowSite(section: SectionSite(section: table.sections[sSite.index], index: sSite.index, count: count), k: i, n: table.sections[sSite.index].rows.count)
            var counted: [Int: Bool] = [:]
            for c in cs { counted[c.rule] = counts(c.rule, xSite, PartialRow(x, tagNames: vocabulary.rowTags)) == .yes }
            return counted
        }
        let countedBefore = cs.contains(where: \.open) ? movingRowCounted() : [:]
        for c in cs where c.open && countedBefore[c.rule] == true {
            guard case .capacity(_, let max, let min, _) = rules[c.rule].meaning, case .value(let v)? = c.max ? max : min,
                  c.max ? q.mustBreak.contains(c.rule) : q.mustNotBreak.contains(c.rule) else { continue }
            let u = c.max ? tSite.index : sSite.index
            let marks = countedRows(c)
            let need = c.max ? v : v + 1
            guard marks.count(where: { $0 }) < need else { continue }
            let n = marks.count
            let candidates = marks.indices.filter { marks[$0] && !(u == sSite.index && $0 == i) }
            guard let k = candidates.min(by: { abs(2 * $0 - n) < abs(2 * $1 - n) }) else { return .unknown }
            let m = need - marks.count(where: { $0 })
            budget -= m
            if exhausted { return .unknown }
            table.sections[u].rows.insert(contentsOf: repeatElement(table.sections[u].rows[k], count: m), at: k + 1)
            if u == sSite.index, k < i { i += m }
            if u == tSite.index, k < j { j += m }
        }
        // Exact counts, then attribute values.
        let counted = movingRowCounted()
        var sides: [(counter: Counter, count: Int, saturated: Bool)] = []
        for c in cs { sides.append((c, countedRows(c).count(where: { $0 }), false)) }
        if !cs.isEmpty {
            guard let values = Self.attributeChoice(rules, q, sides, counted, exact: true, within: rowsWithin) else { return .unknown }
            for (name, v) in values[true] ?? [:] where cross { table.sections[tSite.index].attributes[name] = v }
            for (name, v) in values[false] ?? [:] { table.sections[sSite.index].attributes[name] = v }
        }
        let from = Position(section: sSite.index, row: i), to = Position(section: tSite.index, row: j)
        guard reproduces(q, table, from, to) else { return .unknown }
        return .found(MoveWitness(table: table, from: from, to: to))
    }

    /// Whether the engine agrees that the move does what `q` asks.
    mutating func reproduces(_ q: MoveQuery, _ table: Table, _ from: Position, _ to: Position) -> Bool {
        // The engine's work is charged: a unit per rule of each policy bound (so a policy of
        // thousands of rules pays for its confirmations; rows are not charged, since a witness
        // of `index: -1000000` has a million of them and is still one confirmation).
        budget -= policies.count * rules.count
        var held = Set<Int>(), broken = Set<Int>()
        for (p, policy) in policies.enumerated() {
            let bound = policy.bind(table)
            let local = rules.indices.filter { rules[$0].policy == p }
            let holding = Set(bound.rulesHolding(from))
            for r in local where holding.contains(rules[r].index) { held.insert(r) }
            let breaking = Set(bound.brokenRules(from: from, to: to))
            for r in local where breaking.contains(rules[r].index) { broken.insert(r) }
        }
        if let cross = q.crossSection, cross != (from.section != to.section) { return false }
        return q.mustHold.isSubset(of: held) && q.mustNotHold.isDisjoint(with: held)
            && q.mustBreak.isSubset(of: broken) && q.mustNotBreak.isDisjoint(with: broken)
    }

    /// A table of `count` empty sections but `site`'s, which holds `n` plain rows with `x` at
    /// `k`: the witness of a question about one row's place.
    func placedTable(_ count: Int, _ site: SectionSite, _ n: Int, _ x: Row, at k: Int) -> Table {
        var table = Table(sections: (0..<count).map { _ in Section(rows: []) })
        var section = site.section
        section.rows = Array(repeating: Row(id: vocabulary.plainID), count: n)
        section.rows[k] = x
        table.sections[site.index] = section
        return table
    }

    /// A row that the rules in `mustHold` hold and those in `mustNotHold` do not, on some table.
    /// `largestFirst`: the places of the largest sections are tried first, for a caller that
    /// needs only whether such a row exists (the largest layout has a run for every class of
    /// place, so a row is usually found at once); its witness may be long.
    mutating func findHeldRow(mustHold: Set<Int>, mustNotHold: Set<Int>, largestFirst: Bool = false) -> SearchResult {
        var q = MoveQuery()
        q.mustHold = mustHold
        q.mustNotHold = mustNotHold
        return findRow(q, largestFirst: largestFirst)
    }

    /// A row that meets the query's hold conditions, its `source` place and `sourceSection`,
    /// on some table; the witness moves it to the other end of its section.
    mutating func findRow(_ q: MoveQuery, largestFirst: Bool = false) -> SearchResult {
        guard searchable, !exhausted else { return .unknown }
        // A query about one place (the frozen positions) needs that place's thresholds.
        if segmentMode && q.source != nil && extraBreakpoints.isEmpty { return .unknown }
        // The places the query's `source` names, once (not once per section).
        var places = largestFirst ? Array(xPlaces().reversed()) : xPlaces()
        if let source = q.source {
            budget -= places.count / 16
            places = places.filter { source($0.k, $0.n) }
        }
        let roles = cachedRoles(q)
        // Each place is first asked of a blank row, rule by rule: a rule that must hold and
        // cannot, or must not hold and holds every row there, gives the place up at the cost of
        // the rules asked so far. The rule that gave a place up is asked first at the next one
        // (places in a row are mostly given up by the same rule), so a 300-pin policy asks one
        // rule per place, not 300. The order changes only the work, never the answer.
        // (The rules are reordered as indices: moving a meaning would copy it.)
        let screen = roles.filter { rules[$0.0].holds }.map { (meaning: rules[$0.0].meaning, must: $0.1 & Self.roleMustHold != 0, mustNot: $0.1 & Self.roleMustNotHold != 0) }
        var order = Array(screen.indices)
        func screened(_ site: RowSite) -> Bool {
            for i in order.indices {
                let rule = order[i]
                let value = Self.holdsRow(screen[rule].meaning, site, blankRow)
                if (screen[rule].must && value == .no) || (screen[rule].mustNot && value == .yes) {
                    budget -= i + 1
                    if i > 0 { order.insert(order.remove(at: i), at: 0) }
                    return true
                }
            }
            budget -= screen.count
            return false
        }
        // A section a rule that must hold cannot hold a row of (its `section` keys do not select
        // it) is given up at once, not place by place.
        let mustHoldMeanings = roles.filter { $0.1 & Self.roleMustHold != 0 && rules[$0.0].holds }.map { rules[$0.0].meaning }
        // A place with no row in a section of some profile has none in any section of it.
        var rowless = Set<[Int]>()
        for g in geometries(cross: false) {
            for site in distinctSections(g.s, g.count) {
                if let sourceSection = q.sourceSection, !sourceSection(site) { continue }
                budget -= 1
                if mustHoldMeanings.contains(where: { !Self.mayHoldRows($0, in: site) }) { continue }
                let profile = siteProfiles[site]
                for (xk, n) in places {
                    if exhausted { return .unknown }
                    let xSite = RowSite(section: site, k: xk, n: n)
                    if screened(xSite) { continue }
                    if let profile, rowless.contains([profile, xk, n]) { continue }
                    budget -= roles.count + q.movingRows.count
                    if q.movingRows.contains(where: { xSite.match($0.0, blankRow).matches == ($0.1 ? .no : .yes) }) { continue }
                    let matching: [(PartialRow) -> Tri] = q.movingRows.map { selector, must in
                        { let m = xSite.match(selector, $0).matches; return must ? m : !m }
                    }
                    guard let x = solver.solve(matching + movingRowConstraints(roles, xSite, site, cross: false)) else {
                        if let profile { rowless.insert([profile, xk, n]) }
                        continue
                    }
                    let table = placedTable(g.count, site, n, x, at: xk)
                    let p = Position(section: site.index, row: xk)
                    // Moved to the other end of its section (or kept in place when alone).
                    let to = Position(section: site.index, row: n > 1 ? (xk == 0 ? n - 1 : 0) : xk)
                    var check = MoveQuery()
                    check.mustHold = q.mustHold
                    check.mustNotHold = q.mustNotHold
                    if reproduces(check, table, p, to) { return .found(MoveWitness(table: table, from: p, to: to)) }
                    return .unknown
                }
            }
        }
        return .none
    }

    /// A row held by pin or reserve `a` at one anchor and by `b` at the other (SPEC §10.5, "rows
    /// held at both ends"), on some table: the table (the row among plain ones) and its place.
    /// A row's anchor under a rule depends only on the row and its place (SPEC §7), so the
    /// sites the search knows (every section class at every place, every row place up to the
    /// shapes' length) decide it; the candidate is confirmed on the engine.
    mutating func findDoublyHeldRow(_ a: Int, _ b: Int) -> HeldRowResult {
        guard searchable else { return .unknown }
        let ma = rules[a].meaning, mb = rules[b].meaning
        let places = xPlaces()
        for g in geometries(cross: false) {
            for site in distinctSections(g.s, g.count) {
                for (xk, n) in places {
                    if exhausted { return .unknown }
                    let xSite = RowSite(section: site, k: xk, n: n)
                    for (first, second) in [(true, false), (false, true)] {
                        let constraints: [(PartialRow) -> Tri] = [
                            { Self.pinBreaks(ma, xSite, $0, start: first, end: !first) },
                            { Self.pinBreaks(mb, xSite, $0, start: second, end: !second) },
                            { !Self.pinBreaks(ma, xSite, $0, start: !first, end: first) },
                            { !Self.pinBreaks(mb, xSite, $0, start: !second, end: second) },
                        ]
                        guard let x = solver.solve(constraints) else { continue }
                        let table = placedTable(g.count, site, n, x, at: xk)
                        let p = Position(section: site.index, row: xk)
                        if Self.heldAtBothEnds(p, rules[a], rules[b], policies[rules[a].policy].bind(table)) {
                            return .found(table, p)
                        }
                        return .unknown
                    }
                }
            }
        }
        return .none
    }

    /// Whether `a` and `b` (rules of one policy) hold the row at `p` at different anchors.
    static func heldAtBothEnds(_ p: Position, _ a: AnalysedRule, _ b: AnalysedRule, _ bound: BoundPolicy) -> Bool {
        let anchorA = bound.rowsHeld(byRule: a.index).first { $0.position == p }?.anchor
        let anchorB = bound.rowsHeld(byRule: b.index).first { $0.position == p }?.anchor
        guard let anchorA, let anchorB else { return false }
        return anchorA != anchorB
    }

    enum HeldRowResult {
        case found(Table, Position)
        case none
        case unknown
    }

    /// Whether some row of some table matches `selector` (nil: unknown, out of budget).
    mutating func rowSelectorSelectsSomething(_ selector: RowSelector) -> Bool? {
        guard searchable else { return nil }
        // Only whether: the largest sections first (every class of place has a run there), each
        // size tried in every section before the next size, so that a selector of one section
        // and one place is found in the first size, not after every size of every other section.
        let places = Array(xPlaces().reversed())
        let blank = blankRow
        var sites: [SectionSite] = []
        for g in geometries(cross: false) { sites += distinctSections(g.s, g.count) }
        var start = 0
        while start < places.count {
            var end = start + 1
            while end < places.count && places[end].n == places[start].n { end += 1 }
            for site in sites {
                if exhausted { return nil }
                for (xk, n) in places[start..<end] {
                    let xSite = RowSite(section: site, k: xk, n: n)
                    budget -= 1
                    if xSite.match(selector, blank).matches == .no { continue }
                    if solver.solve([{ xSite.match(selector, $0).matches }]) != nil { return true }
                }
            }
            start = end
        }
        return false
    }

    /// Whether some section of some table matches `selector`.
    mutating func sectionSelectorSelectsSomething(_ selector: SectionSelector) -> Bool? {
        guard searchable else { return nil }
        // Every section the vocabulary builds (not one per profile of the row rules' selectors:
        // a section rule's selector may tell apart sections those do not).
        for g in geometries(cross: false) {
            for section in sectionCandidates where SectionSite(section: section, index: g.s, count: g.count).selected(by: selector) { return true }
        }
        return false
    }
}
