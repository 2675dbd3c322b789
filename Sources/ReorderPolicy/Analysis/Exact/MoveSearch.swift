import ReorderEngine

/// One rule under analysis: which policy it belongs to, its index there, and its meaning.
struct AnalysedRule {
    var policy: Int
    var index: Int
    var meaning: RuleMeaning

    /// Whether the rule can hold a row (lock, pin, reserve).
    var holds: Bool {
        switch meaning {
        case .hold, .reserve: true
        case .keepInSection, .accept, .capacity, .keepOrder, .keepAmong: false
        }
    }

    /// Whether other rows' moves can break it through the rows it holds (pin, reserve).
    var pins: Bool {
        switch meaning {
        case .hold(_, let pins, _): pins
        case .reserve: true
        case .keepInSection, .accept, .capacity, .keepOrder, .keepAmong: false
        }
    }
}

/// What a row move must do: which rules it must break and which it must not, which rules must
/// and must not hold the moving row, and where it may go. Rules named in neither set are free.
struct MoveQuery {
    var mustBreak: Set<Int> = []
    var mustNotBreak: Set<Int> = []
    var mustHold: Set<Int> = []
    var mustNotHold: Set<Int> = []
    /// true: only moves into another section; false: only within the section; nil: both.
    var crossSection: Bool? = nil
    /// A condition on the destination section, if any.
    var destination: ((SectionSite) -> Bool)? = nil
    /// A condition on the moving row's place (its index among `n`), if any.
    var source: ((_ k: Int, _ n: Int) -> Bool)? = nil
    /// The fewest rows of the source section that `source` admits, when it says so: in segment
    /// mode a bound past every layout but the longest builds only that one.
    var sourceMinRows = 1
    /// A condition on the source section, if any.
    var sourceSection: ((SectionSite) -> Bool)? = nil
    /// Selectors the moving row must match (`true`) or must not match (`false`), asked by
    /// ``MoveSearch/findRow(_:largestFirst:)`` only (a move's pre-check: a keep-in-section
    /// that must break needs one of its rows to leave, which no other keeps).
    var movingRows: [(RowSelector, Bool)] = []
}

/// A table and a row move found by the search.
struct MoveWitness {
    var table: Table
    var from: Position
    var to: Position
}

/// The answer of a search: a witness, none on any table (the small-model theorem,
/// docs/ANALYSIS.md), or unknown when the work budget ran out or a candidate did not
/// reproduce on the engine (then no claim either way is made).
enum SearchResult {
    case found(MoveWitness)
    case none
    case unknown
}

/// The decision procedure behind the analysis (docs/ANALYSIS.md, "The decision procedure").
///
/// A row move's verdict under every rule depends on: the moving row (its id, kind, tags, its
/// place) and its source and destination sections (their data and their places), which are
/// chosen directly; and, for pins, on whether some *other* row a pin holds shifts, and for
/// `capacity`, on how many counted rows the two sections hold. The search therefore
/// enumerates *frames* — the number of sections up to `2·Cs + 2`, the two sections' data from
/// the vocabulary, and each section's *shape*: its rows explicitly when it has fewer than
/// `2·C` of them, else `C` explicit rows at each end with *runs* of interchangeable middle rows
/// between the moving row and the drop slot — and, per frame, runs a dynamic programme over
/// the section's rows whose state is what matters: which required pins are broken so far and
/// the counted rows per limit (capped where the bound stops mattering). Each row of the
/// programme is any row of the vocabulary that breaks no forbidden pin.
struct MoveSearch {
    let rules: [AnalysedRule]
    let policies: [CompiledPolicy]
    var solver: RowSolver
    let vocabulary: Vocabulary
    /// Work units left (constraint evaluations and programme steps); the budget is counted in
    /// work, never in time, so results are the same on every run and machine.
    var budget: Int
    /// Every section selector the rules use, for telling section data apart.
    private let sectionSelectors: [SectionSelector]

    init(rules: [AnalysedRule], policies: [CompiledPolicy], vocabulary: Vocabulary, budget: Int, segments: Bool? = nil, sectionSegments: Bool? = nil, exactCapacities: Int = MoveSearch.exactCapacityLimit) {
        self.rules = rules
        self.exactCapacities = exactCapacities
        self.policies = policies
        self.vocabulary = vocabulary
        solver = RowSolver(vocabulary)
        blankRow = PartialRow(tagNames: vocabulary.rowTags)
        self.budget = budget
        initialBudget = budget
        segmentMode = segments ?? (vocabulary.rowConstant >= Self.explicitRowConstantLimit
            || Self.shapeWork(vocabulary.rowConstant) > Double(budget))
        sectionSegmentMode = sectionSegments ?? (vocabulary.sectionConstant >= Self.explicitRowConstantLimit)
        sectionFrameWork = Self.sectionFrameWork(vocabulary, segments: sectionSegmentMode)
        var selectors: [SectionSelector] = []
        func row(_ s: RowSelector) {
            s.alternatives?.forEach(row)
            if let section = s.section { selectors.append(section) }
            if let not = s.not { row(not) }
        }
        for rule in rules {
            switch rule.meaning {
            case .hold(let rows, _, _), .keepInSection(let rows): row(rows)
            case .reserve(_, _, let sections): if let sections { selectors.append(sections) }
            case .accept(let section, let from, let rows): selectors += [section, from]; row(rows)
            case .capacity(let section, _, _, let rows): selectors.append(section); if let rows { row(rows) }
            case .keepOrder(let section): selectors.append(section)
            case .keepAmong(.rows(let rows)): row(rows)
            case .keepAmong(.kind): break
            }
        }
        sectionSelectors = selectors
    }

    var exhausted: Bool { budget <= 0 || solver.work > budget || cancellation?.isCancelled == true }
    /// The caller's token (``AnalysisCancellation``), read once when the search is made.
    let cancellation = AnalysisCancellation.current

    // MARK: Sections

    /// Every section the vocabulary can build (no rows, no attributes), in a fixed order.
    lazy var sectionCandidates: [Section] = {
        var out: [Section] = []
        let tags = vocabulary.sectionTags
        let subsets = tags.count <= Self.maxSectionTagClasses ? (0..<(1 << tags.count)).map { mask in tags.indices.filter { mask & (1 << $0) != 0 }.map { tags[$0] } } : [[]]
        for id in [nil] + vocabulary.sectionIDs.map(Optional.some) {
            for kind in [nil] + vocabulary.sectionKinds.map(Optional.some) {
                for tagSet in subsets { out.append(Section(id: id, kind: kind, tags: tagSet, rows: [])) }
            }
        }
        return out
    }()

    /// Whether the search covers every table up to the small-model bound: the vocabulary's
    /// sections are all built (more than 12 section tag classes are not), and the frames and
    /// shapes that the position constants call for fit in the work budget. Otherwise every
    /// question is answered *unknown* at once and nothing is claimed (docs/ANALYSIS.md, "Large
    /// position constants"): the shapes grow as C⁴ and the frames as Cs³, so `last: 80000`
    /// would otherwise build billions of them.
    var searchable: Bool {
        vocabulary.sectionTags.count <= Self.maxSectionTagClasses && sectionFrameWork <= Double(initialBudget)
            && (segmentMode || Self.shapeWork(vocabulary.rowConstant) <= Double(initialBudget))
    }

    /// Value bounds up to this are counted exactly (a state per count up to the bound). Above
    /// it a count is followed only up to a cap of as many (``cap(_:max:)``), where it stands for any larger
    /// count: a section that holds more rows than the programme's fixed steps can count only
    /// by repeating a row of its loop, and whatever state repeats reach once they reach all
    /// (docs/ANALYSIS.md, "Capacity bounds"). Counting every value up to `max: 100000` took
    /// states and rebuilt rows quadratic in the bound and aborted for memory (issue #62).
    static let exactCapacityLimit = 32

    /// Value bounds up to this are counted exactly; above it, counts are open at this cap
    /// (``exactCapacityLimit``, or less in the tests that compare open counts with exact ones).
    let exactCapacities: Int

    /// The most section tag classes the search builds sections for (every subset of them).
    static let maxSectionTagClasses = 12

    /// The budget this search started with.
    let initialBudget: Int

    /// Thresholds added to the policy's for one question about one place (segment mode: the
    /// frozen positions ask for a row at index k, so k and k + 1 cut the runs there).
    var extraBreakpoints: [Int] = []
    /// Whether the question's `source` names whole runs rather than one place (the frozen
    /// middle: every place at least C rows from both ends, which the thresholds already cut
    /// out, so the predicate is the same on every row of a run); else only a run of one row
    /// can be the source.
    var sourceIsRun = false

    /// Whether rows are laid out as *segments* between the position thresholds, each a run of
    /// rows no positional test tells apart (``layouts(minimum:saturation:)``), instead of the
    /// explicit shapes: when the explicit ones would not fit the work budget (a large position
    /// constant), or when a test asks for it.
    let segmentMode: Bool

    /// The position constant from which rows are laid out as segments even when the explicit
    /// shapes would fit the budget. Both layouts give the same verdicts
    /// (`ExactAnalysisTests.segmentsDecideAsExplicitShapes`); the explicit shapes find the
    /// smallest counterexamples, but their cost grows as C⁴ while the segments' grows with the
    /// number of thresholds. At C = 12 an explicit search of a frozen-heavy policy costs
    /// about twice the segments' (0.13 s against 0.05 s), at C = 20 seventeen times, at
    /// C = 40 a hundred and sixty (BENCHMARKS.md, "Frames alike by profile").
    static let explicitRowConstantLimit = 12

    /// About how many cells the explicit shapes (with the moving row and the slot) hold,
    /// `(2C)⁴/4`, computed before any is built.
    static func shapeWork(_ rowConstant: Int) -> Double {
        let n = 2 * Double(rowConstant) + 1
        return n * n * n * n / 4
    }

    /// Whether section places are taken by *segments* between the section thresholds (one
    /// section count per window around a sum of two thresholds, one place per run of places
    /// no section selector tells apart: ``geometries(cross:)``) instead of every count up to
    /// 2·Cs + 2 and every place: from the same constant as rows, or when a test asks for it.
    let sectionSegmentMode: Bool

    /// About how many frames the section places make: `(2Cs + 2)³`, or with section segments
    /// the geometries themselves (a few per pair of thresholds). Computed once, at the start:
    /// ``searchable`` asks it before every question.
    let sectionFrameWork: Double

    static func sectionFrameWork(_ vocabulary: Vocabulary, segments: Bool) -> Double {
        if segments { return Double(segmentGeometries(vocabulary.sectionBreakpoints, cross: nil).count) }
        let m = 2 * Double(vocabulary.sectionConstant) + 2
        return m * m * m
    }

    /// ``distinctSections(_:_:)`` per place: they depend on the rules only, not on the query.
    private var distinctCache: [[Int]: [SectionSite]] = [:]
    /// Each profile seen (which of the rules' section selectors select a section), numbered.
    private var profileIDs: [[Bool]: Int] = [:]
    /// The profile number of every site ``distinctSections(_:_:)`` returned.
    private(set) var siteProfiles: [SectionSite: Int] = [:]

    /// The sections at place `index` of `count` that differ for some selector: one per profile.
    mutating func distinctSections(_ index: Int, _ count: Int) -> [SectionSite] {
        if let cached = distinctCache[[index, count]] { return cached }
        defer { budget -= 1 }
        var seen = Set<[Bool]>(), out: [SectionSite] = []
        for section in sectionCandidates {
            let site = SectionSite(section: section, index: index, count: count)
            let profile = sectionSelectors.map(site.selected)
            budget -= sectionSelectors.count
            if seen.insert(profile).inserted {
                out.append(site)
                let id = profileIDs[profile] ?? profileIDs.count
                profileIDs[profile] = id
                siteProfiles[site] = id
            }
        }
        distinctCache[[index, count]] = out
        return out
    }

    /// What a frame's moving rows depend on besides the query: the profiles of its source and
    /// destination sections (a row selector sees a section only through the rules' section
    /// selectors, so two sites of one profile constrain the row alike) and the move's kind.
    struct ProfilePair: Hashable {
        var source: Int
        var destination: Int
        var cross: Bool
    }

    /// The moving rows of the frames of one profile pair: per place of the moving row (several
    /// arrangements share one) and capacity branch (`place << branches + branch`), unsolved
    /// (nil), solved with no row (`.some(nil)`), or the row.
    struct SolvedRows {
        var arrangements: [(Arrangement, k: Int, n: Int)]
        /// The place (index and section length) of the moving row of each arrangement, numbered.
        var place: [Int]
        var rows: [Row??]
        /// A frame of this pair found no candidate at all (nothing for the engine to check):
        /// every other frame of the pair finds none either, since only that check sees more
        /// of the sections than their profiles.
        var barren = false
    }

    /// The moving rows solved during one ``findMove(_:)`` (its query fixes the constraints),
    /// shared by every frame whose sections have the same profiles.
    var solvedRows: [ProfilePair: SolvedRows] = [:]

    /// Whether frames of one profile pair share their work (docs/ANALYSIS.md, "Frames alike by
    /// profile"); false only in the test that checks that sharing changes no answer.
    var sharesFrames = true

    /// Pairs `[inner, outer]` of capacity rules with bounds read from one attribute, where every
    /// row `inner` counts is counted by `outer` on every table (decided from the selectors'
    /// meanings, ``findRowsWithin()``): a section's count for `inner` is at most its count for
    /// `outer`, which the programme's capped counts forget (issue #62).
    var rowsWithin: Set<[Int]> = []

    /// Fills ``rowsWithin`` for the capacity rules whose bounds are attributes (the only ones the
    /// relation serves), before the questions are asked.
    mutating func findRowsWithin() {
        guard searchable else { return }
        let attributed = rules.indices.filter {
            guard case .capacity(_, let max, let min, _) = rules[$0].meaning else { return false }
            for case .attribute? in [max, min] { return true }
            return false
        }
        for a in attributed {
            for b in attributed where a != b {
                guard case .capacity(_, _, _, let inner) = rules[a].meaning, case .capacity(_, _, _, let outer) = rules[b].meaning else { continue }
                if ExactAnalysis.counts(inner, within: outer, &self) == true { rowsWithin.insert([a, b]) }
            }
        }
    }

    /// Per source profile and kind of move during one ``findMove(_:)``: whether no arrangement
    /// of the source has any outcome for its query (then no frame of that source has a move).
    var closedSources: [[Int]: Bool] = [:]

    /// During one ``findMove(_:)``: no row the query lets move may leave its section (the
    /// keep-in-section rules that must not break keep them all), so no frame between two
    /// sections is tried.
    var crossBlocked = false

    /// What the destination section can end as during one ``findMove(_:)``, per profile of
    /// the destination and saturation (its counters are the `max` limits the profile selects).
    var destinationCache: [[Int]: [Outcome]] = [:]

    /// The rules the current ``findMove(_:)`` query names, with their roles (``queryRoles(_:)``).
    var currentRoles: [(Int, UInt8)] = []
    /// Whether a ``findMove(_:)`` is running (its query fixes what the caches below hold).
    var inFindMove = false
    /// ``options(_:start:end:_:_:)`` during one ``findMove(_:)``, per section profile, place,
    /// shifts and counters.
    var optionsCache: [[Int]: [(broken: UInt64, adds: [Bool], row: Row)]] = [:]

    /// An empty abstract row (nothing chosen), for settling constraints that no row changes.
    let blankRow: PartialRow

    /// ``layouts(minimum:saturation:)`` per minimum, saturation and extra thresholds.
    var layoutCache: [[Int]: [Layout]] = [:]
    /// While set, ``layouts(minimum:saturation:)`` gives only sections of at most this many
    /// rows (``findMove(_:)``'s first pass).
    var smallLayoutRows: Int? = nil
    /// ``xPlaces()`` by the same key (whether only runs of one row count, and the extra thresholds).
    var xPlacesCache: [[Int]: [(k: Int, n: Int)]] = [:]
    /// The last answer of ``xPlaces()``, with what it was asked under (most calls repeat it).
    var lastXPlaces: (extra: [Int], onlySingles: Bool, small: Int?, places: [(k: Int, n: Int)])? = nil
    /// The forbidden pins of the last query's `mustNotBreak`, per section profile.
    var forbiddenMemo: (sets: Set<Int>, all: [Int], byProfile: [Int: [Int]])? = nil
    /// The last query's roles (``cachedRoles(_:)``).
    var rolesMemo: (sets: [Set<Int>], roles: [(Int, UInt8)])? = nil

    /// ``geometries(cross:)`` per kind of move (0: within, 1: across, 2: either).
    var geometryCache: [Int: [(count: Int, s: Int, t: Int)]] = [:]

    /// Section counts and the places of the source and destination, one per class of places
    /// (the index below `Cs`, or the distance from the end below it, or neither; with section
    /// segments, which thresholds the index and the distance from the end have passed).
    mutating func geometries(cross: Bool?) -> [(count: Int, s: Int, t: Int)] {
        let key = cross.map { $0 ? 1 : 0 } ?? 2
        if let cached = geometryCache[key] { return cached }
        let made = sectionSegmentMode ? Self.segmentGeometries(vocabulary.sectionBreakpoints, cross: cross) : explicitGeometries(cross: cross)
        geometryCache[key] = made
        return made
    }

    /// The geometries by section segments (docs/ANALYSIS.md, "Large position constants"). A
    /// section selector sees a section's place only through which thresholds `p` its index
    /// and its distance from the end have passed, so two places with the same passes are
    /// alike, and a frame depends on its source and destination only through their passes and
    /// their order. With `n` sections, the places are cut at each `p` and each `n − p`; their
    /// order changes only where `n` crosses a sum of two thresholds (0 included), so the
    /// counts within 2 of such a sum, one count in each gap between them, and one past every
    /// threshold twice give every combination. In each run of places, its first and its last
    /// stand for all (two distinct places of one run, in either order, when it has two).
    static func segmentGeometries(_ p: [Int], cross: Bool?) -> [(count: Int, s: Int, t: Int)] {
        let top = p.last ?? 0
        let counts = Self.sizesNearSums(p, window: 2, minimum: 1, below: Int.max) + [2 * top + 3]
        func passes(_ i: Int) -> Int {
            var lo = 0, hi = p.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if p[mid] <= i { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        var seen = Set<[Int]>(), out: [(Int, Int, Int)] = []
        for n in Set(counts).sorted() {
            var places: [Int] = []
            for run in runs(p, n) {
                places.append(run.k)
                if run.length > 1 { places.append(run.k + run.length - 1) }
            }
            for s in places {
                for t in places {
                    if let cross, cross != (s != t) { continue }
                    let key = [passes(s), passes(n - 1 - s), passes(t), passes(n - 1 - t), s == t ? 0 : (s < t ? 1 : 2)]
                    if seen.insert(key).inserted { out.append((n, s, t)) }
                }
            }
        }
        return out
    }

    /// Every section count up to 2·Cs + 2 and every place, one per class.
    private func explicitGeometries(cross: Bool?) -> [(count: Int, s: Int, t: Int)] {
        let cs = vocabulary.sectionConstant
        var seen = Set<[Int]>(), out: [(Int, Int, Int)] = []
        for count in 1...(2 * cs + 2) {
            for s in 0..<count {
                for t in 0..<count {
                    if let cross, cross != (s != t) { continue }
                    let key = [min(s, cs), min(count - 1 - s, cs), min(t, cs), min(count - 1 - t, cs), s == t ? 0 : (s < t ? 1 : 2)]
                    if seen.insert(key).inserted { out.append((count, s, t)) }
                }
            }
        }
        return out
    }

    // MARK: Shapes

    enum Cell: Hashable { case row, x, slot, loop }

    /// Whether a row with given holds exists (``findRow(_:)``), per (must hold, must not hold).
    var rowExists: [[[Int]]: SearchResult] = [:]

    /// ``shapes(x:slot:)``, computed once per kind.
    private var shapeCache: [[Bool]: [[Cell]]] = [:]

    /// The shapes of a section: every arrangement of its rows that a selector or a pin can tell
    /// apart (docs/ANALYSIS.md). `x`: it holds the moving row; `slot`: the drop slot.
    mutating func shapes(x: Bool, slot: Bool) -> [[Cell]] {
        if let cached = shapeCache[[x, slot]] { return cached }
        let made = makeShapes(x: x, slot: slot)
        shapeCache[[x, slot]] = made
        return made
    }

    private func makeShapes(x: Bool, slot: Bool) -> [[Cell]] {
        let c = vocabulary.rowConstant
        var bases: [[Cell]] = []
        let minimum = x ? 1 : 0
        if 2 * c - 1 >= minimum {
            for n in minimum...(2 * c - 1) {
                if x {
                    for i in 0..<n { bases.append((0..<n).map { $0 == i ? .x : .row }) }
                } else {
                    bases.append(Array(repeating: .row, count: n))
                }
            }
        }
        // n >= 2C: C rows at each end, runs in the middle.
        let head = [Cell](repeating: .row, count: c), tail = head
        if x {
            for k in 0..<c {
                var h = head
                h[k] = .x
                bases.append(h + [.loop] + tail)
                var t = tail
                t[k] = .x
                bases.append(head + [.loop] + t)
            }
            bases.append(head + [.loop, .x, .loop] + tail)
        } else {
            bases.append(head + [.loop] + tail)
        }
        guard slot else { return bases }
        var seen = Set<[Cell]>(), out: [[Cell]] = []
        for base in bases {
            for gap in 0...base.count {
                var shape = base
                shape.insert(.slot, at: gap)
                // A slot inside the middle run: split it, so rows can lie on both sides.
                if gap > 0, base[gap - 1] == .loop { shape.insert(.loop, at: gap + 1) }
                if seen.insert(shape).inserted { out.append(shape) }
            }
        }
        return out
    }

    // MARK: The programme over one section

    /// One limit counted in a section: which rule, which side, its cap.
    struct Counter: Hashable {
        var rule: Int
        /// true: the destination's `max`; false: the source's `min`.
        var max: Bool
        var cap: Int
        /// Whether a count at the cap stands for any larger count (an attribute bound, or a
        /// value bound above ``MoveSearch/exactCapacityLimit``), so that either verdict is
        /// possible there and the witness is padded to the count it needs; otherwise the cap is
        /// the bound itself and a count at it decides the rule exactly.
        var open: Bool
    }

    struct State: Hashable {
        var broken: UInt64 = 0
        var counts: [Int]
        var between = false
    }

    struct Back {
        var previous: State?
        var row: Row?
        var sameLayer: Bool
    }

    /// What a section can end as: each reachable state with the rows that reach it.
    struct Outcome {
        var state: State
        var rows: [Row]
        var xIndex: Int?
        var slot: Int?
        /// Copies of a row still to be put back after `rows[index]` (a long run, segment mode):
        /// kept apart so that only the outcomes a witness is built from hold every row.
        var inserts: [(index: Int, count: Int)] = []

        /// The outcome with every row in place.
        func expanded() -> Outcome {
            guard !inserts.isEmpty else { return self }
            var rows: [Row] = []
            var k = 0
            for (index, count) in inserts.sorted(by: { $0.index < $1.index }) {
                rows += self.rows[k...index]
                rows += repeatElement(self.rows[index], count: count)
                k = index + 1
            }
            rows += self.rows[k...]
            func shifted(_ g: Int) -> Int { g + inserts.filter { $0.index < g }.reduce(0) { $0 + $1.count } }
            return Outcome(state: state, rows: rows, xIndex: xIndex.map(shifted), slot: slot.map(shifted))
        }
    }

    /// The pins that must break, in a fixed order (bit positions of ``State/broken``).
    var requiredPins: [Int] = []

    /// Whether pin rule `p` is broken by the row `row` at `site` when it shifts as given.
    func pinBreaks(_ p: Int, _ site: RowSite, _ row: PartialRow, start: Bool, end: Bool) -> Tri {
        Self.pinBreaks(rules[p].meaning, site, row, start: start, end: end)
    }

    /// Whether a rule of this meaning is broken by the row `row` at `site` when it shifts as given.
    /// (Static, so that the search's closures capture a meaning, not the whole search.)
    static func pinBreaks(_ meaning: RuleMeaning, _ site: RowSite, _ row: PartialRow, start: Bool, end: Bool) -> Tri {
        switch meaning {
        case .hold(let selector, _, let anchor):
            let m = site.match(selector, row)
            switch anchor {
            case .start?: return m.matches && Tri(start)
            case .end?: return m.matches && Tri(end)
            case nil: return (m.fromEnd && Tri(end)) || (m.matches && !m.fromEnd && Tri(start))
            }
        case .reserve(let edge, let count, let sections):
            guard sections.map(site.section.selected) ?? true else { return .no }
            if edge == .start { return Tri(site.k < count && start) }
            return Tri(site.k >= site.n - count && end)
        case .keepInSection, .accept, .capacity, .keepOrder, .keepAmong: return .no
        }
    }

    /// Whether capacity rule `c` counts the row.
    func counts(_ c: Int, _ site: RowSite, _ row: PartialRow) -> Tri {
        Self.counts(rules[c].meaning, site, row)
    }

    static func counts(_ meaning: RuleMeaning, _ site: RowSite, _ row: PartialRow) -> Tri {
        guard case .capacity(_, _, _, let rows) = meaning else { return .no }
        guard let rows else { return .yes }
        return site.match(rows, row).matches
    }

    /// The pins `query` must not break that may hold rows of `section` (``mayHoldRows``: their
    /// `section` keys select it), in rule order; kept per section profile for the query's set.
    private mutating func forbiddenPins(_ query: MoveQuery, _ section: SectionSite) -> [Int] {
        if forbiddenMemo?.sets != query.mustNotBreak {
            forbiddenMemo = (query.mustNotBreak, rules.indices.filter { rules[$0].pins && query.mustNotBreak.contains($0) }, [:])
        }
        guard let memo = forbiddenMemo else { return [] }
        let profile = siteProfiles[section]
        if let profile, let cached = memo.byProfile[profile] { return cached }
        let made = memo.all.filter { Self.mayHoldRows(rules[$0].meaning, in: section) }
        if let profile { forbiddenMemo?.byProfile[profile] = made }
        return made
    }

    /// The distinct effects a row can have at `site`: which required pins it breaks and which
    /// counters it adds to, each with a row that has it; rows that break a forbidden pin are out.
    mutating func options(_ site: RowSite, start: Bool, end: Bool, _ query: MoveQuery, _ counters: [Counter]) -> [(broken: UInt64, adds: [Bool], row: Row)] {
        // The same place of a section of the same profile, under the same shifts and counters,
        // has the same options in every shape and frame of one ``findMove(_:)``.
        let key = !inFindMove ? nil : siteProfiles[site.section].map { [$0, site.k, site.n, start ? 1 : 0, end ? 1 : 0] + counters.flatMap { [$0.rule, $0.max ? 1 : 0, $0.cap] } }
        if let key, let cached = optionsCache[key] { return cached }
        let made = makeOptions(site, start: start, end: end, query, counters)
        if let key { optionsCache[key] = made }
        return made
    }

    private mutating func makeOptions(_ site: RowSite, start: Bool, end: Bool, _ query: MoveQuery, _ counters: [Counter]) -> [(broken: UInt64, adds: [Bool], row: Row)] {
        let blank = blankRow
        // Forbidden pins: decided once for a row with nothing chosen where that settles them.
        // Only the pins that may hold rows of this section (per profile, once per query), each
        // a unit of work: a policy of thousands of pins pays for the ones it asks.
        let forbidden = forbiddenPins(query, site.section)
        budget -= forbidden.count + 1
        var base: [(PartialRow) -> Tri] = []
        for p in forbidden {
            let meaning = rules[p].meaning
            switch Self.pinBreaks(meaning, site, blank, start: start, end: end) {
            case .no: continue
            case .yes: return []
            case .unknown: base.append { !Self.pinBreaks(meaning, site, $0, start: start, end: end) }
            }
        }
        // Per bit (a required pin broken, a counter added to): its test, and its value for a
        // row with nothing chosen.
        var tests: [(PartialRow) -> Tri] = []
        for p in requiredPins {
            let meaning = rules[p].meaning
            tests.append { Self.pinBreaks(meaning, site, $0, start: start, end: end) }
        }
        for c in counters.map(\.rule) {
            let meaning = rules[c].meaning
            tests.append { Self.counts(meaning, site, $0) }
        }
        let settled = tests.map { $0(blank) }
        var out: [(UInt64, [Bool], Row)] = []
        let bits = tests.count, required = requiredPins.count
        masks: for mask in 0..<(1 << bits) {
            var constraints = base
            for (b, test) in tests.enumerated() {
                let want = mask & (1 << b) != 0
                switch settled[b] {
                case .yes: if !want { continue masks }
                case .no: if want { continue masks }
                case .unknown: constraints.append { want ? test($0) : !test($0) }
                }
            }
            if let row = solver.solve(constraints) {
                out.append((UInt64(mask & ((1 << required) - 1)), (0..<(bits - required)).map { mask & (1 << (required + $0)) != 0 }, row))
            }
        }
        return out
    }

    /// Runs the programme over one section of the given shape. `xRow`: the moving row, when
    /// the section holds it; `xCounts`: which counters it adds to.
    mutating func run(
        _ shape: [Cell], _ section: SectionSite, role: (x: Bool, slot: Bool), same: Bool,
        _ query: MoveQuery, _ counters: [Counter], xCounts: [Bool]
    ) -> [Outcome] {
        // Representative places: each run as one row.
        let n = shape.filter { $0 != .slot }.count
        let start = State(counts: Array(repeating: 0, count: counters.count))
        var layer: [State: Back] = [start: Back(previous: nil, row: nil, sameLayer: false)]
        var history: [[State: Back]] = []
        var k = 0, seenX = false, seenSlot = false
        func add(_ s: State, _ o: (broken: UInt64, adds: [Bool], row: Row)) -> State {
            var next = s
            next.broken |= o.broken
            for i in counters.indices where o.adds[i] { next.counts[i] = min(next.counts[i] + 1, counters[i].cap) }
            if same && seenX != seenSlot { next.between = true }
            return next
        }
        for cell in shape {
            if budget <= 0 { return [] }
            switch cell {
            case .x:
                var next: [State: Back] = [:]
                for s in layer.keys {
                    var t = s
                    for i in counters.indices where xCounts[i] { t.counts[i] = min(t.counts[i] + 1, counters[i].cap) }
                    if let b = next[t], let p = b.previous, !Self.order(s, p) { continue }
                    next[t] = Back(previous: s, row: nil, sameLayer: false)
                }
                history.append(layer)
                layer = next
                seenX = true
                k += 1
            case .slot:
                seenSlot = true
            case .row, .loop:
                let site = RowSite(section: section, k: k, n: n)
                // Which anchors a row here shifts under (SPEC §2.2): within one section, the
                // rows between the moving row and the slot; the source's rows after it (start)
                // and before it (end); the destination's rows after the slot (start) and
                // before it (end).
                let shifts: (start: Bool, end: Bool)
                if same { shifts = seenX != seenSlot ? (true, true) : (false, false) }
                else if role.x { shifts = seenX ? (true, false) : (false, true) }
                else { shifts = seenSlot ? (true, false) : (false, true) }
                let opts = options(site, start: shifts.start, end: shifts.end, query, counters)
                budget -= opts.count * max(layer.count, 1)
                var next: [State: Back] = [:]
                if cell == .loop {
                    for s in layer.keys { next[s] = Back(previous: s, row: nil, sameLayer: false) }
                    var frontier = Array(layer.keys)
                    while let s = frontier.popLast() {
                        for o in opts {
                            let t = add(s, o)
                            if let b = next[t] {
                                // Reached before: keep the smallest predecessor (first option
                                // among equals), whatever order the states came in.
                                if b.sameLayer, let p = b.previous, Self.order(s, p) { next[t] = Back(previous: s, row: o.row, sameLayer: true) }
                            } else {
                                next[t] = Back(previous: s, row: o.row, sameLayer: true)
                                frontier.append(t)
                                budget -= 1
                            }
                        }
                        if budget <= 0 { return [] }
                    }
                } else {
                    for s in layer.keys {
                        for o in opts {
                            let t = add(s, o)
                            // The smallest predecessor (first option among equals), whatever
                            // order the dictionary gives the states in.
                            if let b = next[t], let p = b.previous, !Self.order(s, p) { continue }
                            next[t] = Back(previous: s, row: o.row, sameLayer: false)
                        }
                    }
                }
                history.append(layer)
                layer = next
                k += 1
            }
        }
        history.append(layer)
        // Rebuild each end state's rows: charged a unit a row, as they are made (with large
        // capacity bounds there are as many end states as counts, each with as many rows).
        var out: [Outcome] = []
        for end in layer.keys.sorted(by: Self.order) {
            if budget <= 0 { return [] }
            var rows: [Row] = [], state = end, xIndexFromEnd: Int? = nil
            var slotFromEnd: Int? = nil
            var level = history.count - 1
            var cells = shape
            // Walk the shape backwards, layer by layer.
            while let cell = cells.popLast() {
                if cell == .slot {
                    slotFromEnd = rows.count
                    continue
                }
                let current = history[level]
                guard let back = current[state] else { break }
                if cell == .x {
                    xIndexFromEnd = rows.count
                    rows.append(Row(id: ""))
                    state = back.previous ?? state
                } else {
                    // Runs: follow the same layer until the state came from the layer before.
                    var b = back
                    while b.sameLayer, let previous = b.previous, let row = b.row {
                        rows.append(row)
                        state = previous
                        guard let nb = current[state] else { break }
                        b = nb
                    }
                    if cell == .row, let row = b.row {
                        rows.append(row)
                    }
                    state = b.previous ?? state
                }
                level -= 1
            }
            rows.reverse()
            let count = rows.count
            budget -= count
            out.append(Outcome(state: end, rows: rows, xIndex: xIndexFromEnd.map { count - 1 - $0 }, slot: slotFromEnd.map { count - $0 }))
        }
        return out
    }

    /// A total order on states (fewest pins broken, then smallest counts, then the rest), so
    /// that the programme visits them, and so picks each state's predecessor, the same way on
    /// every run: a dictionary's order changes from process to process (SPEC §10: the same
    /// files give the same counterexamples).
    static func order(_ a: State, _ b: State) -> Bool {
        let ka = (a.broken, a.counts.reduce(0, +), a.between ? 1 : 0), kb = (b.broken, b.counts.reduce(0, +), b.between ? 1 : 0)
        if ka != kb { return ka < kb }
        return a.counts.lexicographicallyPrecedes(b.counts)
    }
}
