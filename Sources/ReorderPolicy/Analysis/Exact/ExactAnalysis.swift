import ReorderEngine

/// The §10 properties of one policy's row rules, decided by ``MoveSearch`` (docs/ANALYSIS.md).
/// A property is reported only when the search answered: `.unknown` (work budget spent, or a
/// candidate the engine did not confirm) gives no claim either way.
struct ExactAnalysis {
    /// A rule whose selector (`rows`, `section`, `accept.section`, `accept.rows`) selects nothing.
    var selectsNothing: [(rule: Int, what: String)] = []
    /// Rules whose deletion changes no decision on any table.
    var dead: [Int] = []
    /// Accepts under which no row from another section ever enters.
    var admitsNothing: [Int] = []
    /// The largest row position constant (``Vocabulary/rowConstant``): a row further in than
    /// this from both ends is at no place a selector names.
    let rowConstant: Int
    /// The same for section positions.
    let sectionConstant: Int
    /// Whether no row can move anywhere on any table (every move of every row that can be picked
    /// up is refused): then no lock's row is ever shifted either.
    var nothingMoves = false
    /// What went unanswered (budget or an unconfirmed candidate), per property: the rules
    /// (indices) whose finding of that property was not decided. SPEC §10.1: said once, in
    /// the one `analysis-budget` finding, naming these; nothing is claimed about them.
    var undecided: [AnalysisClaim.Property: Set<Int>] = [:]
    /// Section rules (indices) not decided dead or alive.
    var undecidedSectionRules: Set<Int> = []
    /// Whether some question went unanswered.
    var incomplete: Bool { !undecided.isEmpty || !undecidedSectionRules.isEmpty }

    /// Records that `property` was not decided for `rules` (none: for no rule in particular).
    mutating func leave(_ property: AnalysisClaim.Property, _ rules: some Sequence<Int>) {
        undecided[property, default: []].formUnion(rules)
    }
    /// Why the search answered nothing at all, when it did not start: the position constants
    /// call for more frames than its work budget (``MoveSearch/searchable``).
    var unsearchable: (rowConstant: Int, sectionConstant: Int)? = nil
    /// The number of section tag classes, when there are more than the search builds sections
    /// for (``MoveSearch/maxSectionTagClasses``): then it did not start either.
    var tooManySectionTags: Int? = nil
    /// Whether some section rule was not decided dead or alive (section moves are not searched
    /// by segments yet: a section constant of 12 or more leaves them undecided).
    var sectionRulesUndecided = false
    /// Whether the work budget ran out (some question then went unanswered).
    var budgetSpent = false
    /// Row positions from which no row ever moves (SPEC §10.4).
    var frozen: [Frozen] = []
    /// How many runs' questions found a witness that does not show every place of the run
    /// movable (each left undecided, in `undecided`; for the tests).
    var runsLeftUndecided = 0
    /// Pairs of capacity rules (the one with `max`, the later one with `min`) that count the
    /// same rows and both select some section, with `min` above `max` (SPEC §10.5).
    var capacityConflicts: [(max: Int, min: Int)] = []
    /// Section rules whose selector selects no section on any table.
    var sectionSelectsNothing: [Int] = []
    /// Section rules whose deletion changes no section move's decision on any table.
    var deadSectionRules: [Int] = []
    /// Pairs of pins or reserves that hold one row at different anchors on some table (SPEC
    /// §10.5, "rows held at both ends"), each with the table and the row; nil when the search
    /// could not answer for every pair (the enumeration stands in then).
    var doublyHeld: [DoublyHeld]? = []

    struct DoublyHeld {
        var first: Int
        var second: Int
        var table: Table
        var row: Position
    }

    /// A frozen row position: the row `index` from the start (or the end) of its section, in
    /// the sections `section` selects (nil: every section). On some table a row there can be
    /// picked up, and on no table can such a row move anywhere; `rule` is the last rule
    /// without which it could, and `witness` a move of such a row that `rule` alone refuses
    /// (a move that only picks it up when no single rule frees it).
    struct Frozen {
        var index: Int
        /// The last place of a range of places (`index` for one place); a range is a run's
        /// interior in segment mode, every place of which is frozen.
        var last: Int
        var fromEnd: Bool
        /// Every place at least `index` rows from both ends (the places no positional test
        /// tells apart; with no position constant, every place).
        var middle = false
        var section: SectionSelector?
        /// The rule whose selector names those sections.
        var sectionRule: Int?
        var rule: Int
        var witness: MoveWitness
        /// The place is frozen in every such section of at least this many rows, and in none
        /// shorter (SPEC §10.1, "Frozen once a section is large enough"); 1: on every table.
        var minRows = 1
    }

    /// The default work budget per policy (constraint evaluations and programme steps).
    static let defaultWork = 16_000_000

    /// How many intersections of two named classes of sections the frozen question is asked
    /// for at most (``SectionClasses``); past it, frozen places are said to be undecided.
    static let maxSectionMeets = 64

    /// Whether segment mode asks frozen places by runs (false: one question per place, as
    /// the explicit shapes do; for tests that compare the two).
    private let frozenRuns: Bool

    init(_ policy: Policy, _ compiled: CompiledPolicy, work: Int = defaultWork, segments: Bool? = nil, sectionSegments: Bool? = nil, frozenRuns: Bool = true, sharesFrames: Bool = true, exactCapacities: Int = MoveSearch.exactCapacityLimit) {
        self.frozenRuns = frozenRuns
        let rules = policy.rules.enumerated().map { AnalysedRule(policy: 0, index: $0.offset, meaning: $0.element.kind.meaning) }
        let vocabulary = Vocabulary([policy])
        rowConstant = vocabulary.rowConstant
        sectionConstant = vocabulary.sectionConstant
        var search = MoveSearch(rules: rules, policies: [compiled], vocabulary: vocabulary, budget: work, segments: segments, sectionSegments: sectionSegments, exactCapacities: exactCapacities)
        search.sharesFrames = sharesFrames
        search.findRowsWithin()
        if !search.searchable {
            if vocabulary.sectionTags.count > MoveSearch.maxSectionTagClasses {
                tooManySectionTags = vocabulary.sectionTags.count
            } else {
                unsearchable = (vocabulary.rowConstant, vocabulary.sectionConstant)
            }
        }
        // Last to first: a rule found dead is left out of the questions about the rules before
        // it, so of two copies only the later is reported, and the dead rules can be deleted
        // together (rules only ever add refusals, so the decisions are squeezed between those
        // of the policy and of the policy without them: docs/ANALYSIS.md).
        var all = Set(rules.indices)
        // Kept as rules are found dead (not recomputed per question: a policy of thousands of
        // rules would spend its time there).
        var holders = Set(rules.indices.filter { rules[$0].holds })
        var meanings: [RuleMeaning: Int] = [:]
        for rule in rules { meanings[rule.meaning, default: 0] += 1 }
        var capacities = rules.indices.filter { if case .capacity = rules[$0].meaning { true } else { false } }
        func remove(_ r: Int) {
            all.remove(r)
            holders.remove(r)
            meanings[rules[r].meaning, default: 1] -= 1
            capacities.removeAll { $0 == r }
        }
        for r in rules.indices.reversed() {
            // 1. Selectors that choose which rows or sections the rule is about.
            var empty: String? = nil
            var unanswered = false
            for (what, selector) in Self.subjects(rules[r].meaning) {
                let answer: Bool?
                switch selector {
                case .rows(let s): answer = search.rowSelectorSelectsSomething(s)
                case .sections(let s): answer = search.sectionSelectorSelectsSomething(s)
                }
                if answer == false { empty = what; break }
                if answer == nil { unanswered = true }
            }
            if let empty {
                selectsNothing.insert((r, empty), at: 0)
                continue
            }
            if unanswered { leave(.selectsNothing, [r]); leave(.dead, [r]); continue }
            // 3. Accepts that admit nothing (when `from` selects some section somewhere).
            if case .accept(let section, let from, _) = rules[r].meaning {
                if search.sectionSelectorSelectsSomething(from) == true {
                    var q = MoveQuery()
                    q.crossSection = true
                    q.destination = { $0.selected(by: section) }
                    q.mustNotBreak = all
                    q.mustNotHold = holders
                    switch search.findMove(q) {
                    case .none:
                        admitsNothing.append(r)
                        continue
                    case .unknown: leave(.admitsNothing, [r])
                    case .found: break
                    }
                }
            }
            // 2. Dead: no row held by it alone, no move refused by it alone. A rule with the
            // same meaning as another still in the policy is dead without a search (the other
            // holds and refuses exactly what it does).
            if meanings[rules[r].meaning, default: 0] > 1 {
                dead.append(r)
                remove(r)
                continue
            }
            // A rule whose every refusal and held row another live rule's words contain
            // (`pin: { index: 0, tag: urgent }` beside `pin: { first: 3 }`): dead without a
            // search, which would spend its most work proving just that (SPEC §10.1: the same
            // question is not searched again for rules that cannot change a decision). Pairs
            // only up to the text proofs' limit of rules.
            if rules.count <= PolicyAnalyzer.textProofRuleLimit,
               all.contains(where: { $0 != r && AnalysisProofs.covers(rules[$0].meaning, rules[r].meaning) }) {
                dead.append(r)
                remove(r)
                continue
            }
            // A capacity another live capacity covers (SPEC §10.1: the same question is not
            // searched again for rules that cannot change a decision): every move it refuses,
            // the other refuses too, so deleting it changes no decision and no target.
            if case .capacity = rules[r].meaning, Self.capacityCovered(r, by: capacities.filter { $0 != r }, rules, &search) {
                dead.append(r)
                remove(r)
                continue
            }
            var alive = false, unknown = false
            if case .keepAmong(let groups) = rules[r].meaning {
                // Not searched for as a rule that breaks (the programme does not follow which
                // rows a move passes; docs/ANALYSIS.md, "keep-among"). Dead when its selector
                // selects every row (one group), or when no row can move within its section
                // under the other rules (it refuses only such moves); alive when a small table
                // shows a move it alone refuses; else undecided.
                var oneGroup = false
                if case .rows(let selector) = groups, search.rowSelectorSelectsSomething(RowSelector(not: selector)) == false { oneGroup = true }
                var within = MoveQuery()
                within.crossSection = false
                within.mustNotBreak = all.subtracting([r])
                within.mustNotHold = holders
                if oneGroup {
                    // Neither alive nor unknown: dead below.
                } else if case .none = search.findMove(within) {
                    // No row moves within a section at all: dead below.
                } else if Self.keepAmongRefusesAlone(r, groups, all: all, holders: holders, &search) {
                    alive = true
                } else {
                    unknown = true
                }
            }
            if rules[r].holds {
                switch search.findHeldRow(mustHold: [r], mustNotHold: holders.subtracting([r]), largestFirst: true) {
                case .found: alive = true
                case .unknown: unknown = true
                case .none: break
                }
            }
            let keepsAmong = if case .keepAmong = rules[r].meaning { true } else { false }
            if !alive && !keepsAmong && (!rules[r].holds || rules[r].pins) {
                var q = MoveQuery()
                q.mustBreak = [r]
                q.mustNotBreak = all.subtracting([r])
                q.mustNotHold = holders
                switch search.findMove(q) {
                case .found: alive = true
                case .unknown: unknown = true
                case .none: break
                }
            }
            if unknown { leave(.dead, [r]) } else if !alive {
                dead.append(r)
                remove(r)
            }
        }
        var anyMove = MoveQuery()
        anyMove.mustNotBreak = all
        anyMove.mustNotHold = holders
        // A row seen moving on a concrete table answers at once; else the search decides. The
        // places seen moving in any section are the frozen question's first class's too.
        let places = frozenPlaces(&search, all: all)
        let moving = search.searchable ? Self.placesThatMove(places, &search, in: anyMove, c: search.vocabulary.rowConstant) : []
        if search.searchable, moving.isEmpty, case .none = search.findMove(anyMove) { nothingMoves = true }
        findFrozen(&search, rules, all: all, holders: holders, places: places, movingEverywhere: moving)
        findDeadSectionRules(policy, &search)
        findCapacityConflicts(rules, &search)
        findDoublyHeld(rules, &search, alive: all)
        budgetSpent = search.exhausted
    }

    /// Whether a move that `keep-among` rule `r` alone refuses shows on a small table: a row
    /// moved one step past a row of another group, in a section of each class the search
    /// builds, of up to 2·C + 3 rows (at most 12), the other rows plain; each candidate
    /// confirmed on the engine. The rows of the two groups come from the row solver (matched by
    /// the selector at that place, and not), or for `kind` a row without a kind and one with a
    /// kind no selector names or with each named kind.
    static func keepAmongRefusesAlone(_ r: Int, _ groups: KeepAmongRule.Groups, all: Set<Int>, holders: Set<Int>, _ search: inout MoveSearch) -> Bool {
        guard search.searchable else { return false }
        var q = MoveQuery()
        q.mustBreak = [r]
        q.mustNotBreak = all.subtracting([r])
        q.mustNotHold = holders
        q.crossSection = false
        let plain = Row(id: search.vocabulary.plainID)
        let longest = min(2 * search.vocabulary.rowConstant + 3, 12)
        for g in search.geometries(cross: false) {
            for site in search.distinctSections(g.s, g.count) {
                for n in 2...max(2, longest) {
                    for i in 0..<(n - 1) {
                        // Two neighbours of different groups, at places i and i + 1.
                        let pairs: [(Row, Row)]
                        switch groups {
                        case .kind:
                            let kinds = search.vocabulary.rowKinds + [search.vocabulary.plainID + "-kind"]
                            pairs = kinds.flatMap { k in [(plain, Row(id: plain.id, kind: k)), (Row(id: plain.id, kind: k), plain)] }
                        case .rows(let selector):
                            let a = RowSite(section: site, k: i, n: n), b = RowSite(section: site, k: i + 1, n: n)
                            var found: [(Row, Row)] = []
                            for (inA, inB) in [(true, false), (false, true)] {
                                guard let x = search.solver.solve([{ inA ? a.match(selector, $0).matches : !a.match(selector, $0).matches }]),
                                      let y = search.solver.solve([{ inB ? b.match(selector, $0).matches : !b.match(selector, $0).matches }]) else { continue }
                                found.append((x, y))
                            }
                            pairs = found
                        }
                        for (x, y) in pairs {
                            if search.exhausted { return false }
                            var table = Table(sections: (0..<g.count).map { _ in Section(rows: []) })
                            var section = site.section
                            section.rows = Array(repeating: plain, count: n)
                            section.rows[i] = x
                            section.rows[i + 1] = y
                            table.sections[site.index] = section
                            for (from, to) in [(i, i + 1), (i + 1, i)] {
                                if search.reproduces(q, table, Position(section: site.index, row: from), Position(section: site.index, row: to)) { return true }
                            }
                        }
                    }
                }
            }
        }
        return false
    }

    /// Every pair of pins or reserves that hold one row at both ends on some table, decided on
    /// the abstract rows at every place. A pair of two dead rules is left out: each is
    /// reported dead, and deleting them is the fix (a `pin: all` makes every later pin dead,
    /// and the pairs among those would repeat one finding many times).
    private mutating func findDoublyHeld(_ rules: [AnalysedRule], _ search: inout MoveSearch, alive: Set<Int>) {
        let empty = Set(selectsNothing.map(\.rule))
        let pins = rules.indices.filter { rules[$0].pins && !empty.contains($0) }
        // Each pin's ends and liveness, once (not per pair: thousands of pins make millions).
        let ends = pins.map { Self.anchorEnds(rules[$0].meaning) }, live = pins.map { alive.contains($0) }
        var found: [DoublyHeld] = []
        for (i, a) in pins.enumerated() {
            for j in (i + 1)..<pins.count where live[i] || live[j] {
                let b = pins[j]
                // Two rules that can only anchor at one and the same end hold no row at both.
                let ea = ends[i], eb = ends[j]
                guard (ea.start && eb.end) || (ea.end && eb.start) else { continue }
                switch search.findDoublyHeldRow(a, b) {
                case .found(let table, let row): found.append(DoublyHeld(first: a, second: b, table: table, row: row))
                case .none: break
                case .unknown:
                    doublyHeld = nil
                    leave(.conflictingAnchors, pins)
                    return
                }
            }
        }
        doublyHeld = found
    }

    /// The ends a pin or reserve can anchor a row at: an explicit `anchor`, a reserve's edge, or
    /// by default the start, and the end where a key of the selector can select through the end
    /// (SPEC §7; `RowSelectorKey.countsFromEnd`).
    static func anchorEnds(_ meaning: RuleMeaning) -> (start: Bool, end: Bool) {
        switch meaning {
        case .hold(_, _, let anchor?): (anchor == .start, anchor == .end)
        case .hold(let rows, _, nil): (true, rows.mayCountFromEnd)
        case .reserve(let edge, _, _): (edge == .start, edge == .end)
        case .keepInSection, .accept, .capacity, .keepOrder, .keepAmong: (false, false)
        }
    }

    /// Two capacity rules (or one, `min` above its own `max` is the text check) whose bounds no
    /// section selected by both can meet (SPEC §10 property 5): numbers with `min` above `max`,
    /// rows counted by the `min` that are among those the `max` counts on every table (then a
    /// section's count for the `min` is at most its count for the `max`), and a section that
    /// both select on some table (the abstract sections at every place). The subset is decided
    /// from the selectors' meanings, however they are written (`rows: all` spelled out, a list,
    /// a `not`; issue #61), not from their words: at most 2 rows and at least 5 cards conflict,
    /// at most 2 cards and at least 5 rows do not.
    private mutating func findCapacityConflicts(_ rules: [AnalysedRule], _ search: inout MoveSearch) {
        // A capacity whose `rows` selects nothing limits no row: it conflicts with nothing (it is
        // reported as selecting nothing).
        let empty = Set(selectsNothing.map(\.rule))
        for a in rules.indices where !empty.contains(a) {
            guard case .capacity(let sa, .value(let max)?, _, let rowsA) = rules[a].meaning else { continue }
            for b in rules.indices where b != a && !empty.contains(b) {
                guard case .capacity(let sb, _, .value(let min)?, let rowsB) = rules[b].meaning, min > max else { continue }
                switch Self.counts(rowsB, within: rowsA, &search) {
                case false?: continue
                case nil:
                    leave(.contradictory, [a, b])
                    continue
                case true?: break
                }
                switch search.sectionSelectorSelectsSomething(.some([.matching(SectionFilter(not: .some([.matching(SectionFilter(not: sa)), .matching(SectionFilter(not: sb))])))])) {
                case true?: capacityConflicts.append((max: a, min: b))
                case nil: leave(.contradictory, [a, b])
                case false?: break
                }
            }
        }
    }

    /// Whether capacity rule `r` refuses no move that some rule of `others` does not refuse too
    /// (nil-free: false when unknown). A capacity refuses a move between two sections when the
    /// moving row is one it counts and, in a section it selects, the destination's count plus
    /// one is above its `max`, or the source's count minus one below its `min` (Capacity.swift).
    /// So its `max` of a is covered by a capacity `max` of b ≤ a that selects every section it
    /// selects and counts every row it counts (that count is at least its count); its `min` of
    /// a by a `min` of b ≥ a over the same sections that counts exactly its rows (the same
    /// count, and the moving row counted by both). Numbers only: an attribute bound is the
    /// search's question.
    static func capacityCovered(_ r: Int, by others: [Int], _ rules: [AnalysedRule], _ search: inout MoveSearch) -> Bool {
        guard case .capacity(let section, let max, let min, let rows) = rules[r].meaning else { return false }
        func within(_ a: SectionSelector, _ b: SectionSelector) -> Bool {
            switch (a, b) {
            case (_, .all): true
            case (.some(let x), .some(let y)): x.allSatisfy(y.contains)
            case (.all, .some): false
            }
        }
        func covered(max isMax: Bool, _ bound: Int) -> Bool {
            others.contains { o in
                guard case .capacity(let oSection, let oMax, let oMin, let oRows) = rules[o].meaning, within(section, oSection) else { return false }
                if isMax {
                    guard case .value(let b)? = oMax, b <= bound else { return false }
                    return counts(rows, within: oRows, &search) == true
                }
                guard case .value(let b)? = oMin, b >= bound else { return false }
                return counts(rows, within: oRows, &search) == true && counts(oRows, within: rows, &search) == true
            }
        }
        if let max {
            guard case .value(let a) = max, covered(max: true, a) else { return false }
        }
        // A min of 0 refuses nothing: the moving row is one of the counted rows it leaves.
        if let min {
            guard case .value(let a) = min, a <= 0 || covered(max: false, a) else { return false }
        }
        return max != nil || min != nil
    }

    /// Whether every row that `inner` counts is counted by `outer` too, on every table (nil
    /// counts every row; nil: unknown, out of budget). Decided as "no row of any table matches
    /// `inner` and not `outer`".
    static func counts(_ inner: RowSelector?, within outer: RowSelector?, _ search: inout MoveSearch) -> Bool? {
        guard let outer else { return true }         // the outer counts every row
        if let inner, inner == outer { return true }  // the same words
        return search.rowSelectorSelectsSomething(Self.selector(inner ?? .all, without: outer)).map { !$0 }
    }

    /// `selector` and not `excluded`: each mapping of `selector` (a list is the union of its
    /// items) with `excluded` added to its `not` (`not: [its own not, excluded]`).
    static func selector(_ selector: RowSelector, without excluded: RowSelector) -> RowSelector {
        if let items = selector.alternatives {
            return .anyOf(items.map { Self.selector($0, without: excluded) })
        }
        var narrowed = selector
        narrowed.not = selector.not.map { .anyOf([$0, excluded]) } ?? excluded
        return narrowed
    }

    /// Section rules (SPEC §2.5): a selector that selects no section, decided on the abstract
    /// sections; and dead rules, last to first, decided as `compare` decides section moves of
    /// the policy with and without the rule (docs/ANALYSIS.md, "Comparing two policies":
    /// exact on up to 2·Cs + 2 sections).
    private mutating func findDeadSectionRules(_ policy: Policy, _ search: inout MoveSearch) {
        var kept = policy
        for i in policy.sectionRules.indices.reversed() {
            if case .sections(let s) = policy.sectionRules[i].target {
                switch search.sectionSelectorSelectsSomething(s) {
                case false?:
                    sectionSelectsNothing.insert(i, at: 0)
                    continue
                case nil:
                    undecidedSectionRules.insert(i)
                    continue
                case true?: break
                }
            }
            var without = kept
            guard let position = without.sectionRules.firstIndex(of: policy.sectionRules[i]) else { continue }
            without.sectionRules.remove(at: position)
            guard let a = try? CompiledPolicy(kept), let b = try? CompiledPolicy(without) else { continue }
            var finder = ChangeFinder(old: a, new: b, work: search.budget)
            finder.sectionDifferences()
            if finder.undecided {
                undecidedSectionRules.insert(i)
                sectionRulesUndecided = true
                continue
            }
            if finder.seeds.isEmpty {
                deadSectionRules.insert(i, at: 0)
                kept = without
            }
        }
    }

    /// A place (or a range of places) the frozen question is asked about: index `index`
    /// through `last` from the start or the end of its section, or the middle (every place at
    /// least `index` rows from both ends).
    struct FrozenPlace {
        var index: Int
        var last: Int
        var fromEnd = false
        var middle = false
        /// Thresholds that make the place a run of its own in segment mode.
        var breakpoints: [Int]
        /// Whether the place is a whole run (segment mode asks it as one).
        var isRun = false

        func contains(_ i: Int, _ n: Int) -> Bool {
            if middle { return i >= index && n - 1 - i >= index }
            let k = fromEnd ? n - 1 - i : i
            return k >= index && k <= last
        }
    }

    /// The places frozen questions are asked about, in the order findings are listed: below C
    /// from the start, then from the end (one by one; in segment mode, by runs), then the middle.
    private func frozenPlaces(_ search: inout MoveSearch, all: Set<Int>) -> [FrozenPlace] {
        let c = search.vocabulary.rowConstant
        var places: [FrozenPlace] = []
        if !search.segmentMode || !frozenRuns {
            // One question per place below C (explicit shapes keep C small; in segment mode
            // this is the tests' reference for asking by runs).
            for fromEnd in [false, true] {
                places += (0..<c).map { FrozenPlace(index: $0, last: $0, fromEnd: fromEnd, breakpoints: [$0, $0 + 1]) }
            }
        } else {
            // Segment mode: the places below C lie in runs between the thresholds. The W places
            // nearest each end of a run are asked one by one; the rest of a longer run, its
            // interior, is one question whose source is the whole interior (docs/ANALYSIS.md,
            // "Frozen places in long runs": with W above the programme's saturation, every
            // interior place is frozen or none is).
            let w = search.frozenWindow(all)
            let cuts = Array(Set([0, c] + search.vocabulary.rowBreakpoints.filter { $0 < c } + Self.crossingPoints(search.vocabulary.rowBreakpoints, below: c))).sorted()
            for fromEnd in [false, true] {
                func place(_ k: Int) -> FrozenPlace { FrozenPlace(index: k, last: k, fromEnd: fromEnd, breakpoints: [k, k + 1]) }
                for (a, b) in zip(cuts, cuts.dropFirst()) {
                    guard b - a > 2 * w + 1 else {
                        places += (a..<b).map(place)
                        continue
                    }
                    places += (a..<(a + w)).map(place)
                    places.append(FrozenPlace(index: a + w, last: b - w - 1, fromEnd: fromEnd, breakpoints: [a + w, b - w], isRun: true))
                    places += ((b - w)..<b).map(place)
                }
            }
        }
        // Every other place: at least C rows on each side, where no positional test tells one
        // place from another (with no position constant, every place). One question at any C.
        places.append(FrozenPlace(index: c, last: c, middle: true, breakpoints: [c], isRun: true))
        return places
    }

    /// Where a run counted from one end stops being uniform (issue #62, item 2): a cut counted
    /// from the other end, n − pⱼ, falls inside it for some n, and the layouts change where n
    /// passes a sum pᵢ + pₗ; so the places frozen in some sections and movable in others meet
    /// near pᵢ + pₗ − pⱼ (p₀ = 0 included). Cutting the runs there as well makes their
    /// interiors uniform in the usual case; where it does not, the run's question sees it and
    /// says the run is undecided (``ExactAnalysis/findFrozen``, `covers`). At most
    /// `maxCrossingPoints` such points (none past that: the check still speaks).
    static func crossingPoints(_ thresholds: [Int], below c: Int) -> [Int] {
        let p = [0] + thresholds
        guard p.count * p.count * p.count <= 64 * 64 * 64 else { return [] }
        var points = Set<Int>()
        for i in p { for l in p where l >= i { for j in p where j > 0 {
            let q = i + l - j
            if q > 0, q < c, !p.contains(q) { points.insert(q) }
        } } }
        return points.count <= maxCrossingPoints ? Array(points) : []
    }

    static let maxCrossingPoints = 64

    /// SPEC §10.4: for each place a selector can tell apart (index k < C from either end, and
    /// the middle: every place with at least C rows on each side), in every section or in the
    /// sections a pin, reserve, keep-order or keep-in-section names: a row there that no rule
    /// holds exists on some table, and no such row on any table has a valid move.
    ///
    /// With explicit shapes the places are asked together: a move of a row at any of them
    /// removes its places, until no place left can move (one complete search, not one per
    /// place); each frozen place's cause likewise, rule by rule. Segment mode asks each place
    /// (or run) on its own, since each needs its own thresholds.
    /// `places`: ``frozenPlaces(_:all:)``; `movingEverywhere`: those ``placesThatMove`` finds
    /// in any section (computed once, for the question whether anything moves at all).
    private mutating func findFrozen(_ search: inout MoveSearch, _ rules: [AnalysedRule], all: Set<Int>, holders: Set<Int>,
                                     places: [FrozenPlace], movingEverywhere: Set<Int>) {
        guard search.searchable else {
            leave(.frozen, [])
            return
        }
        defer {
            search.extraBreakpoints = []
            search.sourceIsRun = false
        }
        // Only a pin, reserve, keep-in-section, accept, capacity or keep-order refuses a move:
        // with locks alone, a row that can be picked up can go to any other slot of a table
        // with two rows at that place, so no place is frozen.
        guard all.contains(where: { rules[$0].pins || !rules[$0].holds }) else { return }
        // The classes of sections (SectionClasses): every section, then the sections each rule
        // names however it words them, then the intersections of two of those.
        // `parents`: the two classes a meet is the intersection of (a place frozen in either
        // from no more rows is reported there, not again in the meet).
        var classes: [SectionSelector?] = [nil], namedBy: [Int?] = [nil], parents: [[Int]] = [[]]
        func add(_ named: SectionSelector?, _ r: Int, parents meetOf: [Int] = []) {
            if let named, named != .all, named != .some([]), !classes.contains(named) {
                classes.append(named)
                namedBy.append(r)
                parents.append(meetOf)
            }
        }
        for (r, rule) in rules.enumerated() where all.contains(r) {
            switch rule.meaning {
            // Sections whose order is fixed, or that rows may not leave: with the other kind
            // of rule on every section, their rows are frozen there and nowhere else.
            case .hold(let rows, pins: true, _), .keepInSection(let rows): for item in rows.alternatives ?? [rows] { add(item.section, r) }
            case .reserve(_, _, let sections): add(sections, r)
            case .keepOrder(let sections): add(sections, r)
            // Rows may not come into any section from the sections `from` does not select.
            case .accept(let section, let from, _) where SectionClasses.selectsEverySection(section): add(SectionClasses.complement(from), r)
            case .hold, .accept, .capacity, .keepAmong: break
            }
        }
        let named = classes.count
        meets: for a in 1..<max(named, 1) {
            for b in (a + 1)..<max(named, a + 1) where namedBy[a] != namedBy[b] {
                guard case .selector(let both) = SectionClasses.meet(classes[a]!, classes[b]!), both != classes[a], both != classes[b] else { continue }
                // Beyond this many, the classes left out are said to be undecided, never dropped.
                if classes.count >= named + Self.maxSectionMeets {
                    leave(.frozen, [])
                    break meets
                }
                add(both, namedBy[a]!, parents: [a, b])
            }
        }
        let together = !search.segmentMode, c = search.vocabulary.rowConstant
        let w = search.frozenWindow(all)
        /// Whether `stuck` checks that a run's witness covers the run, and the runs where it did not.
        var checksRuns = false, undecidedRuns = Set<Int>()
        /// Points the search at `subset` (not empty) of the places: one place (segment mode), or
        /// any of them.
        /// The search asks the source of every shape it builds, so several places become a
        /// lookup by index from each end, not a scan of the places.
        func aim(_ q: inout MoveQuery, _ subset: [Int], minRows: Int = 1, maxRows: Int = .max) {
            guard subset.count > 1 else {
                let only = places[subset[0]]
                q.source = { i, n in n >= minRows && n <= maxRows && only.contains(i, n) }
                q.sourceMinRows = minRows
                if !together {
                    search.extraBreakpoints = only.breakpoints
                    search.sourceIsRun = only.isRun
                }
                return
            }
            // Several places only with explicit shapes, where every place but the middle lies
            // below C from its end.
            var start = [Bool](repeating: false, count: c), end = start, middle: Int? = nil
            for p in subset.map({ places[$0] }) {
                if p.middle { middle = p.index } else { for k in p.index...p.last { if p.fromEnd { end[k] = true } else { start[k] = true } } }
            }
            q.source = { i, n in
                let d = n - 1 - i
                return (i < c && start[i]) || (d < c && end[d]) || middle.map { i >= $0 && d >= $0 } ?? false
            }
        }
        /// Of `open`, the places that no row of any table can leave under `q`: asked together
        /// (a witness removes the places its row stands at) or one by one. nil: out of work.
        func stuck(_ q: MoveQuery, _ open: [Int], found: (Int, MoveWitness) -> Void = { _, _ in }) -> [Int]? {
            // (Sections of every size: `aim` without a size.)
            var open = open
            if together {
                while !open.isEmpty {
                    var ask = q
                    aim(&ask, open)
                    switch search.findMove(ask) {
                    case .found(let w):
                        let n = w.table.sections[w.from.section].rows.count
                        let moved = open.filter { places[$0].contains(w.from.row, n) }
                        // The witness's row stands at one of the places asked about.
                        guard !moved.isEmpty else { return nil }
                        for p in moved { found(p, w) }
                        open.removeAll { moved.contains($0) }
                    case .unknown: return nil
                    case .none: return open
                    }
                }
                return []
            }
            var out: [Int] = []
            for p in open {
                var ask = q
                aim(&ask, [p])
                // A run's interior stands for all its places only where a witness shows that
                // (see `covers`): first in sections long enough that no cut counted from the
                // other end falls inside the run, where one does; then in sections of any size.
                let run = checksRuns && places[p].isRun && !places[p].middle
                if run {
                    var long = q
                    aim(&long, [p], minRows: places[p].last + 1 + w + (search.vocabulary.rowBreakpoints.max() ?? 0))
                    if case .found(let found1) = search.findMove(long), covers(places[p], found1) {
                        found(p, found1)
                        continue
                    }
                    aim(&ask, [p])
                }
                switch search.findMove(ask) {
                case .found(let witness) where run && !covers(places[p], witness): undecidedRuns.insert(p)
                case .found(let witness): found(p, witness)
                case .unknown: return nil
                case .none: out.append(p)
                }
            }
            return out
        }
        /// Whether a witness's row, at its place in its section, shows every place of the
        /// run `place` movable: the run of the witness's layout (between two cuts of the
        /// policy's thresholds, counted from either end) holds the interior with `w` rows to
        /// spare on each side, so the row can be moved step by step to each of its places
        /// (docs/ANALYSIS.md, "Frozen places in long runs").
        func covers(_ place: FrozenPlace, _ witness: MoveWitness) -> Bool {
            let n = witness.table.sections[witness.from.section].rows.count
            let k = place.fromEnd ? n - 1 - witness.from.row : witness.from.row
            let p = [0] + search.vocabulary.rowBreakpoints
            let cuts = p + p.map { n - $0 }
            let s = cuts.filter { $0 <= k }.max() ?? 0, e = cuts.filter { $0 > k }.min() ?? n
            return s + w <= place.index && e - w >= place.last + 1
        }
        var reported = Set<Int>(), rowless = Set<Int>()
        var results: [(place: Int, cls: Int, frozen: Frozen)] = []
        for (cls, (section, sectionRule)) in zip(classes, namedBy).enumerated() {
            var base = MoveQuery()
            base.mustNotHold = holders
            base.sourceSection = section.map { s in { $0.selected(by: s) } }
            // Places where a row no rule holds exists on some table (frozen in every section
            // already: the narrower classes say nothing more).
            var open: [Int] = [], rowWitness: [Int: MoveWitness] = [:]
            let moves = section == nil ? movingEverywhere : Self.placesThatMove(places, &search, in: base, c: search.vocabulary.rowConstant)
            for p in places.indices where !reported.contains(p) && !moves.contains(p) && !rowless.contains(p) {
                var q = base
                aim(&q, [p])
                switch search.findRow(q) {
                case .found(let w): open.append(p); rowWitness[p] = w
                case .unknown: leave(.frozen, sectionRule.map { [$0] } ?? [])
                case .none:
                    // No row there that no rule holds, in any section: in none of a narrower
                    // class either (the first class is every section).
                    if section == nil { rowless.insert(p) }
                }
            }
            var move = base
            move.mustNotBreak = all
            // The longest section a row at each place was seen to leave.
            var leftAt: [Int: Int] = [:]
            checksRuns = true
            undecidedRuns = []
            let stuckHere = stuck(move, open, found: { p, w in leftAt[p] = max(leftAt[p] ?? 0, w.table.sections[w.from.section].rows.count) })
            checksRuns = false
            if !undecidedRuns.isEmpty {
                runsLeftUndecided += undecidedRuns.count
                leave(.frozen, sectionRule.map { [$0] } ?? [])
            }
            guard let frozenHere = stuckHere else {
                leave(.frozen, sectionRule.map { [$0] } ?? [])
                continue
            }
            // The cause of each: the last pin (else the last rule) without which a row there
            // could move, with its move, refused by that rule alone, as the evidence (SPEC §10:
            // the named rule among the violations).
            var cause: [Int: (rule: Int, move: MoveWitness)] = [:]
            let preferred = all.sorted().filter { rules[$0].pins }.reversed() + all.sorted().filter { !rules[$0].holds }.reversed()
            var unexplained = frozenHere
            for r in preferred where !unexplained.isEmpty {
                var without = move
                without.mustNotBreak.remove(r)
                guard stuck(without, unexplained, found: { p, w in if cause[p] == nil { cause[p] = (r, w) } }) != nil else {
                    leave(.frozen, [r])
                    break
                }
                unexplained.removeAll { cause[$0] != nil }
            }
            let pinning = all.sorted().filter { rules[$0].pins }
            for p in frozenHere {
                let found: (rule: Int, move: MoveWitness)
                if let c = cause[p] {
                    found = c
                } else if let rule = pinning.last, let w = rowWitness[p] {
                    found = (rule, w)
                } else {
                    continue
                }
                // A meet's place frozen in one of its two classes is reported there.
                if parents[cls].contains(where: { q in results.contains { $0.place == p && $0.cls == q && $0.frozen.minRows == 1 } }) { continue }
                let place = places[p]
                results.append((p, cls, Frozen(index: place.index, last: place.last, fromEnd: place.fromEnd, middle: place.middle, section: section, sectionRule: sectionRule, rule: found.rule, witness: found.move)))
                if section == nil { reported.insert(p) }
            }
            // Frozen once a section is large enough (SPEC §10.1): a place whose rows were seen
            // to leave only short sections is asked again in the layouts of every long one
            // (the explicit shapes of 2C rows and more; in segment mode, sections past 2·pₘ),
            // where a row that moves (the usual case) ends the question. If none does, the
            // sections of at least one row more than the longest witness are asked: frozen in
            // all of them is the usual answer (the row that holds it is missing from shorter
            // sections). Otherwise, with explicit shapes, the shortest length from which it is
            // frozen is found by bisection (whether a row leaves a section of length in
            // [m, 2C) only grows as m falls). The explicit shapes take every length below 2C
            // as it is, so these questions are exact. Segment mode takes lengths by windows
            // and gaps: "at least m rows" is exact only where m lies within the narrowest
            // window of a sum of two thresholds (MoveSearch.isExactLength); elsewhere, and
            // where the first answer is not the last, the size is said to be undecided
            // (docs/ANALYSIS.md, "Not done yet"), never left unsaid.
            places: for p in open where !frozenHere.contains(p) && !places[p].middle {
                let thresholds = search.vocabulary.rowBreakpoints + places[p].breakpoints.filter { $0 > 0 }
                let long = together ? 2 * c : 2 * (thresholds.max() ?? 0) + 1
                guard let longest = leftAt[p], longest < long - (together ? 0 : 1) else { continue }
                var large = move
                aim(&large, [p], minRows: long)
                switch search.findMove(large) {
                case .found: continue places
                case .unknown:
                    leave(.frozen, sectionRule.map { [$0] } ?? [])
                    continue places
                case .none: break
                }
                if !together && !MoveSearch.isExactLength(longest + 1, thresholds) {
                    leave(.frozen, sectionRule.map { [$0] } ?? [])
                    continue places
                }
                var low = longest + 1, size = long
                while low < size {
                    var ranged = move
                    let mid = low == longest + 1 ? low : (low + size) / 2
                    aim(&ranged, [p], minRows: mid, maxRows: long - 1)
                    switch search.findMove(ranged) {
                    case .found(let w) where together: low = max(mid, w.table.sections[w.from.section].rows.count) + 1
                    case .none: size = mid
                    case .found, .unknown:
                        leave(.frozen, sectionRule.map { [$0] } ?? [])
                        continue places
                    }
                }
                var row = base, sized = move
                aim(&row, [p], minRows: size)
                aim(&sized, [p], minRows: size)
                // A row there that no rule holds, in a section of that size or longer.
                let rowWitness: MoveWitness
                switch search.findRow(row) {
                case .found(let w): rowWitness = w
                case .none: continue places
                case .unknown:
                    leave(.frozen, sectionRule.map { [$0] } ?? [])
                    continue places
                }
                // Its cause, as above: the last pin (else the last rule) without which a row
                // there could move, in sections of that size or longer; the rules whose
                // sections meet the class's first (a pin of another section rarely frees it,
                // and each rule asked is a whole search).
                func meets(_ r: Int) -> Bool {
                    guard let section else { return true }
                    let named: [SectionSelector?]
                    switch rules[r].meaning {
                    case .hold(let rows, _, _), .keepInSection(let rows): named = (rows.alternatives ?? [rows]).map(\.section)
                    case .reserve(_, _, let sections): named = [sections]
                    case .keepOrder(let sections): named = [sections]
                    case .accept, .capacity, .keepAmong: return true
                    }
                    return named.contains { $0.map { SectionClasses.meet($0, section) != .empty } ?? true }
                }
                // First the row's own table: a move of it there that one rule alone refuses
                // names that rule (without it the row could move), at the cost of one binding.
                var found: (rule: Int, move: MoveWitness)? = nil
                if let policy = search.policies.first {
                    let table = rowWitness.table, from = rowWitness.from
                    let n = table.sections[from.section].rows.count
                    var targets = [0, n - 1, from.row - 1, from.row + 1].filter { $0 >= 0 && $0 < n && $0 != from.row }.map { Position(section: from.section, row: $0) }
                    targets += table.sections.indices.filter { $0 != from.section }.flatMap { [Position(section: $0, row: 0), Position(section: $0, row: table.sections[$0].rows.count)] }
                    search.budget -= rules.count
                    let bound = policy.bind(table)
                    var alone: [Int: MoveWitness] = [:]
                    for to in targets {
                        let broken = bound.brokenRules(from: from, to: to)
                        if broken.count == 1, all.contains(broken[0]), alone[broken[0]] == nil { alone[broken[0]] = MoveWitness(table: table, from: from, to: to) }
                    }
                    // As above, the last pin first, then the last rule.
                    if let r = preferred.first(where: { alone[$0] != nil }), let w = alone[r] { found = (r, w) }
                }
                for r in preferred.filter(meets) + preferred.filter({ !meets($0) }) where found == nil {
                    var without = sized
                    without.mustNotBreak.remove(r)
                    switch search.findMove(without) {
                    case .found(let w): found = (r, w)
                    case .none: continue
                    case .unknown:
                        leave(.frozen, [r])
                        continue places
                    }
                    break
                }
                guard let cause = found ?? pinning.last.map({ ($0, rowWitness) }) else { continue places }
                // Reported in every section, or in a meet's parent, from as few rows or fewer.
                if results.contains(where: { $0.place == p && ($0.cls == 0 || parents[cls].contains($0.cls)) && $0.frozen.minRows <= size }) { continue places }
                let place = places[p]
                results.append((p, cls, Frozen(index: place.index, last: place.last, fromEnd: place.fromEnd, middle: place.middle, section: section, sectionRule: sectionRule, rule: cause.rule, witness: cause.move, minRows: size)))
            }
        }
        frozen += results.sorted { ($0.place, $0.cls) < ($1.place, $1.cls) }.map(\.frozen)
    }

    /// The places of `places` that a row is seen to leave on a few concrete tables, before any
    /// search: a section of the query's class (the first the search's geometries offer, alone
    /// and among others) with 2·C + 1 plain rows, where every place below C from either end and
    /// the middle has a row; each row that can be picked up is tried at the ends of its section,
    /// next to its place and at the start of each other section, on the engine. A place seen
    /// moving is not frozen (for a run or the middle, one place of it moving makes none frozen:
    /// docs/ANALYSIS.md, "Frozen places in long runs"), so its questions are not asked; a place
    /// not seen moving is asked as before. Skipped where such a table would be too long for
    /// the work it saves (C above 5,000 or 2·C + 1 rows times the rules above 1,000,000: a
    /// 300-rule policy with a pin at index 5,000 bound tables of 10,001 rows per class, a
    /// quarter of its time, where the search answers the same places for less).
    static func placesThatMove(_ places: [FrozenPlace], _ search: inout MoveSearch, in q: MoveQuery, c: Int) -> Set<Int> {
        let n = 2 * c + 1
        guard c <= 5000, n * (search.rules.count + 1) <= 1_000_000, let policy = search.policies.first else { return [] }
        var sites: [SectionSite] = []
        for g in search.geometries(cross: false) where sites.count < 2 {
            // One section alone, then one among others.
            guard sites.isEmpty ? true : g.count > 1 && sites[0].count == 1 else { continue }
            if let site = search.distinctSections(g.s, g.count).first(where: { q.sourceSection?($0) ?? true }) { sites.append(site) }
        }
        var moved = Set<Int>()
        for site in sites {
            var table = Table(sections: (0..<site.count).map { _ in Section(rows: []) })
            var section = site.section
            section.rows = Array(repeating: Row(id: search.vocabulary.plainID), count: n)
            table.sections[site.index] = section
            let bound = policy.bind(table)
            for (index, place) in places.enumerated() where !moved.contains(index) {
                let i = place.middle ? c : place.fromEnd ? n - 1 - place.index : place.index
                let from = Position(section: site.index, row: i)
                guard bound.canMove(from) else { continue }
                var targets = [0, n - 1, i - 1, i + 1].filter { $0 >= 0 && $0 < n && $0 != i }.map { Position(section: site.index, row: $0) }
                targets += table.sections.indices.filter { $0 != site.index }.map { Position(section: $0, row: 0) }
                if targets.contains(where: { bound.isValid(from: from, to: $0) }) { moved.insert(index) }
            }
        }
        return moved
    }

    enum Subject {
        case rows(RowSelector)
        case sections(SectionSelector)
    }

    /// The selectors that choose what a rule applies to (SPEC §10.1; not `accept.from`).
    static func subjects(_ meaning: RuleMeaning) -> [(String, Subject)] {
        switch meaning {
        case .hold(let rows, _, _), .keepInSection(let rows): [("its rows", .rows(rows))]
        case .reserve(_, _, let sections): sections.map { [("its 'section'", .sections($0))] } ?? []
        case .accept(let section, _, let rows): [("its 'section'", .sections(section)), ("its 'rows'", .rows(rows))]
        case .capacity(let section, _, _, let rows):
            [("its 'section'", .sections(section))] + (rows.map { [("its 'rows'", .rows($0))] } ?? [])
        case .keepOrder(let section): [("its sections", .sections(section))]
        case .keepAmong(.rows(let rows)): [("its rows", .rows(rows))]
        case .keepAmong(.kind): []
        }
    }
}

