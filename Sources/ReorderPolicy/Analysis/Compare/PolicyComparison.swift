import ReorderEngine

/// What a policy change does to decisions (SPEC §11): either the two policies give the same
/// decision word and target for every move on every table, or a list of changes, each a table
/// and a move that `check` decides differently with the two policies.
///
/// Built on the exact analysis (docs/ANALYSIS.md, "Comparing two policies"): two policies with
/// the same `retarget` mode decide alike exactly when they hold the same rows and sections and
/// find the same destinations valid, so the question is a handful of searches over the joint
/// rules, each answered on the small tables the theorem bounds. Every change is confirmed on
/// the engine with both policies before it is reported.
public struct PolicyComparison: Sendable {
    /// One change: a table and a move, and the two results.
    public struct Change: Sendable, Hashable {
        /// The table (plain rows named `row-1`, `row-2`, …, ids neither policy mentions).
        public var table: Table
        /// The move.
        public var move: Move
        /// The old policy's result.
        public var old: Decision
        /// The new policy's result.
        public var new: Decision
    }

    /// The answer.
    public enum Verdict: String, Sendable, Hashable {
        /// Same decision word and target for every move on every table.
        case equivalent
        /// Some table and move are decided differently; ``PolicyComparison/changes`` shows them.
        case different
        /// The work budget ran out before an answer (no claim either way).
        case undecided
    }

    /// The answer.
    public let verdict: Verdict
    /// At least one change per pair of decision words found, smallest first (fewest sections,
    /// then fewest rows), ordered by the old word then the new word.
    public let changes: [Change]

    /// The default work budget (constraint evaluations and programme steps, never time).
    public static let defaultWork = 60_000_000

    /// Compares `old` with `new`.
    public init(old: CompiledPolicy, new: CompiledPolicy, work: Int = defaultWork) {
        var finder = ChangeFinder(old: old, new: new, work: work)
        (verdict, changes) = finder.run()
    }
}

/// The searches behind ``PolicyComparison`` (docs/ANALYSIS.md, "Comparing two policies").
struct ChangeFinder {
    let policies: [CompiledPolicy]
    let rules: [AnalysedRule]
    let vocabulary: Vocabulary
    var search: MoveSearch
    /// Tables and moves on which the two policies were found to differ.
    var seeds: [(Table, Move)] = []
    var undecided = false
    /// Ids either policy mentions (plain rows are renamed apart from them).
    let mentioned: Set<String>
    let merged: Policy
    /// Every section the vocabulary can build (``MoveSearch/sectionCandidates``).
    let sectionCandidates: [Section]

    init(old: CompiledPolicy, new: CompiledPolicy, work: Int) {
        policies = [old, new]
        var rules: [AnalysedRule] = []
        for (p, compiled) in policies.enumerated() {
            for (i, rule) in compiled.policy.rules.enumerated() {
                rules.append(AnalysedRule(policy: p, index: i, meaning: rule.kind.meaning))
            }
        }
        self.rules = rules
        vocabulary = Vocabulary([old.policy, new.policy])
        var search = MoveSearch(rules: rules, policies: policies, vocabulary: vocabulary, budget: work)
        search.findRowsWithin()
        sectionCandidates = search.sectionCandidates
        self.search = search
        merged = Policy(name: "", rules: old.policy.rules + new.policy.rules, sectionRules: old.policy.sectionRules + new.policy.sectionRules)
        mentioned = TableEnumerator(policy: merged, bound: AnalysisBound(sections: 1, rows: 1)).mentionedIDs
    }

    mutating func run() -> (PolicyComparison.Verdict, [PolicyComparison.Change]) {
        rowDifferences()
        sectionDifferences()
        let sameMode = policies[0].policy.retarget == policies[1].policy.retarget
        if seeds.isEmpty && !sameMode && !undecided { retargetDifferences() }
        // The witnesses: the small tables first (they give the smallest change of each pair),
        // then the tables the searches found.
        var best: [Key: PolicyComparison.Change] = [:]
        if seeds.isEmpty && !undecided && !retargetUnknown { return (.equivalent, []) }
        enumerateSmallTables(into: &best)
        // A seed too large to sweep (a large position constant: tens of thousands of rows) is
        // decided for the move the search found only.
        for (table, move) in seeds { sweep(table, into: &best, moves: Self.sweepCost(table) <= Self.witnessWork ? nil : [move]) }
        sweepNeighbours(of: seeds.map(\.0), into: &best)
        if !seeds.isEmpty && best.isEmpty {
            // The engine did not confirm a difference the search found: no claim either way.
            return (.undecided, [])
        }
        // Shrinking tries a table with each row fewer, each bound again: only for tables of
        // up to `shrinkRows` rows (a larger one is what a large position constant needs).
        let changes = best.keys.sorted().compactMap { best[$0] }
            .map { Self.size($0.table).1 <= Self.shrinkRows ? shrink($0) : $0 }.map(presentable)
        if !changes.isEmpty { return (.different, changes) }
        if undecided || (!sameMode && seeds.isEmpty && retargetUnknown) { return (.undecided, []) }
        return (.equivalent, [])
    }

    // MARK: Rows

    /// Differences found before the row searches stop: one already settles the verdict, and
    /// the witness tables (small, random, these) give the pairs of words.
    static let enoughSeeds = 6

    /// Rows held by one policy and not the other, and moves one policy finds valid and the
    /// other does not (of a row neither holds). A rule with a copy of the same meaning in the
    /// other policy cannot tell them apart and is skipped.
    mutating func rowDifferences() {
        let side = [0, 1].map { p in Set(rules.indices.filter { rules[$0].policy == p }) }
        let holders = side.map { $0.filter { rules[$0].holds } }
        func copied(_ r: Int, in other: Int) -> Bool { side[other].contains { rules[$0].meaning == rules[r].meaning } }
        for p in 0...1 {
            for h in holders[p].sorted() where !copied(h, in: 1 - p) {
                if seeds.count >= Self.enoughSeeds { return }
                switch search.findHeldRow(mustHold: [h], mustNotHold: holders[1 - p]) {
                case .found(let w): seeds.append((w.table, .row(from: w.from, to: w.to)))
                case .unknown: undecided = true
                case .none: break
                }
            }
        }
        let anyHolder = holders[0].union(holders[1])
        for p in 0...1 {
            for r in side[p].sorted() where (!rules[r].holds || rules[r].pins) && !copied(r, in: 1 - p) {
                if seeds.count >= Self.enoughSeeds { return }
                var q = MoveQuery()
                q.mustBreak = [r]
                q.mustNotBreak = side[1 - p]
                q.mustNotHold = anyHolder
                switch search.findMove(q) {
                case .found(let w): seeds.append((w.table, .row(from: w.from, to: w.to)))
                case .unknown: undecided = true
                case .none: break
                }
            }
        }
    }

    // MARK: Sections

    /// Whether policy `p` holds (locks or pins) and pins the section at `site`.
    func sectionStatus(_ p: Int, _ site: SectionSite) -> (held: Bool, pinned: Bool) {
        var held = false, pinned = false
        for rule in policies[p].policy.sectionRules {
            if rule.target.selects(site) {
                held = true
                if rule.pins { pinned = true }
            }
        }
        return (held, pinned)
    }

    /// A section's data at a place that meets `condition`, if any.
    func section(at index: Int, of count: Int, where condition: (SectionSite) -> Bool) -> Section? {
        sectionCandidates.first { condition(SectionSite(section: $0, index: index, count: count)) }
    }

    /// Section moves decided differently. A section move from `a` to `b` is invalid exactly when
    /// a pinned section lies among those it shifts (between `a` and `b`, `b` included; a
    /// permutation keeps the count, so both anchors say the same), so two policies differ on
    /// section moves exactly when some section is held by one only, or some movable section
    /// can be dropped on a section that one pins while none of the sections it shifts is pinned
    /// by the other. Tables of up to `2·Cs + 2` sections suffice (docs/ANALYSIS.md).
    mutating func sectionDifferences() {
        // Section moves are tried on every count and place up to 2·Cs + 2 (row moves use section
        // segments from Cs = 12; section moves do not yet, so a large section constant leaves
        // them undecided rather than trying billions of tables).
        guard search.searchable && !search.sectionSegmentMode else {
            if !policies[0].policy.sectionRules.isEmpty || !policies[1].policy.sectionRules.isEmpty { undecided = true }
            return
        }
        let bound = 2 * vocabulary.sectionConstant + 2
        func table(_ count: Int, _ fixed: [Int: Section]) -> Table {
            Table(sections: (0..<count).map { fixed[$0] ?? Section(rows: []) })
        }
        for count in 1...bound {
            for a in 0..<count {
                if let data = section(at: a, of: count, where: { sectionStatus(0, $0).held != sectionStatus(1, $0).held }) {
                    seeds.append((table(count, [a: data]), .section(from: a, to: a)))
                    return
                }
            }
        }
        for count in 2...max(2, bound) {
            for a in 0..<count {
                guard let mover = section(at: a, of: count, where: { !sectionStatus(0, $0).held && !sectionStatus(1, $0).held }) else { continue }
                for u in 0..<count where u != a {
                    for p in 0...1 {
                        guard let pinned = section(at: u, of: count, where: { sectionStatus(p, $0).pinned && !sectionStatus(1 - p, $0).pinned }) else { continue }
                        var fixed = [a: mover, u: pinned], ok = true
                        for w in (min(a, u) + 1)..<max(a, u) where w != a {
                            guard let free = section(at: w, of: count, where: { !sectionStatus(1 - p, $0).pinned }) else { ok = false; break }
                            fixed[w] = free
                        }
                        if ok {
                            seeds.append((table(count, fixed), .section(from: a, to: u)))
                            return
                        }
                    }
                }
            }
        }
    }

    // MARK: Retarget modes

    var retargetUnknown = false

    /// With the same holds and valid destinations, `cancel` and a mode that retargets
    /// (`nearest`, `source-section`) differ exactly where the latter retargets. For sections
    /// (`source-section` moves them as `nearest` does) that is a movable section with a pinned
    /// one beyond at least one free section (docs/ANALYSIS.md); for rows, the searches' tables
    /// with a move that some rule refuses are tried, then the small tables. `nearest` and
    /// `source-section` differ only on rows, where both retarget: the same tables are tried,
    /// and none found different leaves the answer undecided (unless no move is ever refused).
    mutating func retargetDifferences() {
        let modes = policies.map(\.policy.retarget)
        let nearest = modes[0] == .cancel ? 1 : 0
        // Sections.
        let bound = 2 * vocabulary.sectionConstant + 3
        let sectionsSearchable = search.searchable && !search.sectionSegmentMode
        let sectionsDiffer = modes.contains(.cancel)
        if !sectionsSearchable && sectionsDiffer { retargetUnknown = true }
        if sectionsDiffer && sectionsSearchable && bound >= 3 {
            sections: for count in 3...bound {
                for a in 0..<count {
                    guard let mover = section(at: a, of: count, where: { !sectionStatus(nearest, $0).held }) else { continue }
                    for v in 0..<count where abs(v - a) >= 2 {
                        guard let pinned = section(at: v, of: count, where: { sectionStatus(nearest, $0).pinned }) else { continue }
                        var fixed = [a: mover, v: pinned], ok = true
                        for w in (min(a, v) + 1)..<max(a, v) {
                            guard let free = section(at: w, of: count, where: { !sectionStatus(nearest, $0).pinned }) else { ok = false; break }
                            fixed[w] = free
                        }
                        if ok {
                            seeds.append((Table(sections: (0..<count).map { fixed[$0] ?? Section(rows: []) }), .section(from: a, to: v)))
                            break sections
                        }
                    }
                }
            }
        }
        // Rows: moves that some rule refuses, of rows no rule holds. When there is none, every
        // proposal of a movable row is valid and `nearest` never retargets a row.
        let holders = Set(rules.indices.filter { rules[$0].holds })
        var refusals = false
        for r in rules.indices where rules[r].policy == nearest && (!rules[r].holds || rules[r].pins) {
            var q = MoveQuery()
            q.mustBreak = [r]
            q.mustNotHold = holders
            let w: MoveWitness
            switch search.findMove(q) {
            case .found(let found): w = found
            case .unknown: refusals = true; continue
            case .none: continue
            }
            refusals = true
            // More room around the move: a free row at each end of each section touched.
            var roomy = w.table
            for u in Set([w.from.section, w.to.section]) {
                roomy.sections[u].rows.insert(Row(id: vocabulary.plainID), at: 0)
                roomy.sections[u].rows.append(Row(id: vocabulary.plainID))
            }
            for t in [w.table, roomy] where differsSomewhere(t) {
                seeds.append((t, .row(from: w.from, to: w.to)))
                return
            }
        }
        if seeds.isEmpty && refusals {
            var found = false
            TableEnumerator(policy: merged, bound: AnalysisBound(sections: 3, rows: 4)).forEach { table in
                search.budget -= 50
                if differsSomewhere(table) {
                    seeds.append((table, .section(from: 0, to: 0)))
                    found = true
                }
                return !found && search.budget > 0
            }
            // Not found on the small tables: no proof either way.
            if !found { retargetUnknown = true }
        }
    }

    func differsSomewhere(_ table: Table) -> Bool {
        var best: [Key: PolicyComparison.Change] = [:]
        sweep(table, into: &best)
        return !best.isEmpty
    }

    // MARK: Witnesses

    /// A pair of decision words, ordered as SPEC §2.4 lists them.
    struct Key: Hashable, Comparable {
        var old: DecisionKind
        var new: DecisionKind
        static func rank(_ k: DecisionKind) -> Int { DecisionKind.allCases.firstIndex(of: k) ?? 0 }
        static func < (a: Key, b: Key) -> Bool { (rank(a.old), rank(a.new)) < (rank(b.old), rank(b.new)) }
    }

    static func size(_ t: Table) -> (Int, Int) { (t.sections.count, t.sections.reduce(0) { $0 + $1.rows.count }) }

    /// Every move on `table` that the two policies decide differently, kept per pair of words
    /// when smaller than the one kept so far.
    func sweep(_ table: Table, into best: inout [Key: PolicyComparison.Change], only: Key? = nil, moves: [Move]? = nil) {
        let old = policies[0].bind(table), new = policies[1].bind(table)
        let size = Self.size(table)
        // The decision word and target come from `canMove` and `target` (the fast path); the
        // full results (violations and reasons) only for moves that differ.
        func word(_ movable: Bool, _ target: Destination, _ from: Destination, _ proposal: Destination) -> DecisionKind {
            if !movable { return .denied }
            if target == proposal { return .allowed }
            return target == from ? .rejected : .retargeted
        }
        func consider(_ move: Move) {
            let a: (DecisionKind, Destination), b: (DecisionKind, Destination)
            switch move {
            case .row(let from, let to):
                let ta = Destination.row(old.target(from: from, proposed: to)), tb = Destination.row(new.target(from: from, proposed: to))
                a = (word(old.canMove(from), ta, .row(from), .row(to)), ta)
                b = (word(new.canMove(from), tb, .row(from), .row(to)), tb)
            case .section(let from, let to):
                let ta = Destination.section(old.targetSection(from: from, proposed: to)), tb = Destination.section(new.targetSection(from: from, proposed: to))
                a = (word(old.canMoveSection(from), ta, .section(from), .section(to)), ta)
                b = (word(new.canMoveSection(from), tb, .section(from), .section(to)), tb)
            }
            guard a != b else { return }
            let key = Key(old: a.0, new: b.0)
            if let only, key != only { return }
            if let kept = best[key], Self.size(kept.table) <= size { return }
            guard let x = try? old.decide(move), let y = try? new.decide(move) else { return }
            best[key] = PolicyComparison.Change(table: table, move: move, old: x, new: y)
        }
        if let moves {
            moves.forEach(consider)
            return
        }
        let sections = table.sections
        for s in sections.indices {
            for i in sections[s].rows.indices {
                for t in sections.indices {
                    let slots = sections[t].rows.count + (t == s ? 0 : 1)
                    for j in 0..<slots { consider(.row(from: Position(section: s, row: i), to: Position(section: t, row: j))) }
                }
            }
        }
        for a in sections.indices {
            for b in sections.indices { consider(.section(from: a, to: b)) }
        }
    }

    /// The small tables (up to 3 sections of up to 3 rows, each row and section drawn from
    /// the words the policies mention), smallest first, then tables drawn at random (with a
    /// fixed seed, so every run says the same) from the vocabulary with up to 4 sections of up
    /// to 8 rows and the attribute values that matter; all within a work budget of decisions.
    func enumerateSmallTables(into best: inout [Key: PolicyComparison.Change]) {
        var budget = Self.witnessWork / 3
        TableEnumerator(policy: merged, bound: AnalysisBound(sections: 3, rows: 3)).forEach { table in
            budget -= Self.sweepCost(table)
            sweep(table, into: &best)
            return budget > 0 && best.count < Self.allPairs
        }
        budget += 2 * Self.witnessWork / 3
        var random = SplitMix(seed: 0x5EED)
        let ids = [vocabulary.plainID] + vocabulary.rowIDs
        let kinds: [String?] = [nil] + vocabulary.rowKinds.map(Optional.some)
        var attributes: [String] = []
        for rule in rules {
            guard case .capacity(_, let max, let min, _) = rule.meaning else { continue }
            for bound in [max, min] { if case .attribute(let name)? = bound, !attributes.contains(name) { attributes.append(name) } }
        }
        while budget > 0 && best.count < Self.allPairs && !sectionCandidates.isEmpty {
            var table = Table(sections: [])
            for _ in 0..<random.int(1...4) {
                var section = sectionCandidates[random.int(0...(sectionCandidates.count - 1))]
                for name in attributes where random.int(0...2) > 0 { section.attributes[name] = random.int(0...6) }
                section.rows = (0..<random.int(0...8)).map { _ in
                    Row(id: ids[random.int(0...(ids.count - 1))], kind: kinds[random.int(0...(kinds.count - 1))],
                        tags: vocabulary.rowTags.filter { _ in random.int(0...2) == 0 })
                }
                table.sections.append(section)
            }
            budget -= Self.sweepCost(table)
            sweep(table, into: &best)
        }
    }

    /// The tables one and two steps away from the seeds (a plain row more or fewer at either
    /// end of a section, a section emptied, an empty section at either end), swept while pairs
    /// of words are missing.
    ///
    /// A search finds one table on which the policies differ, and that table shows one pair of
    /// words; the small tables show the others only while the policies' constants are small.
    /// With `capacity: { max: 12 }` the seed is a full section beside a one-row section (the
    /// only valid slot left is the source: `allowed → rejected`), and `allowed → retargeted`
    /// needs one row more in the source's section. SPEC §11 lists every pair that occurs on some
    /// table; the neighbours are where a larger constant's other pairs are found.
    mutating func sweepNeighbours(of tables: [Table], into best: inout [Key: PolicyComparison.Change]) {
        var budget = Self.witnessWork
        var frontier = tables.filter { Self.sweepCost($0) <= Self.witnessWork }
        var seen = Set(frontier)
        for _ in 0..<2 {
            var next: [Table] = []
            for table in frontier {
                for variant in neighbours(of: table) where seen.insert(variant).inserted {
                    guard budget > 0, best.count < Self.allPairs else { return }
                    budget -= Self.sweepCost(variant)
                    sweep(variant, into: &best)
                    next.append(variant)
                }
            }
            frontier = next
        }
    }

    /// The tables one step from `table`: an empty section before or after the others (a drop on
    /// the other side of a section, where the source at the edge facing it is the nearest
    /// slot); then, per section, the section emptied (a source alone in its section has only
    /// itself left) and a plain row more or fewer at its end and at its start.
    func neighbours(of table: Table) -> [Table] {
        var out: [Table] = []
        for atStart in [true, false] {
            var wider = table
            wider.sections.insert(Section(rows: []), at: atStart ? 0 : wider.sections.count)
            out.append(wider)
        }
        for s in table.sections.indices {
            if table.sections[s].rows.count > 1 {
                var emptied = table
                emptied.sections[s].rows = []
                out.append(emptied)
            }
            for atStart in [false, true] {
                var more = table
                more.sections[s].rows.insert(Row(id: vocabulary.plainID), at: atStart ? 0 : more.sections[s].rows.count)
                out.append(more)
                if !table.sections[s].rows.isEmpty {
                    var fewer = table
                    fewer.sections[s].rows.remove(at: atStart ? 0 : fewer.sections[s].rows.count - 1)
                    out.append(fewer)
                }
            }
        }
        return out
    }

    /// Decisions spent on finding witnesses (each one is two `decide` calls).
    static let witnessWork = 160_000
    /// The largest table (in rows) a change is shrunk from.
    static let shrinkRows = 256
    /// How many pairs of words there can be: 4 × 4 (a pair of equal words: other targets).
    static let allPairs = 16

    static func sweepCost(_ t: Table) -> Int {
        let rows = t.sections.reduce(0) { $0 + $1.rows.count }
        return rows * (rows + t.sections.count) + t.sections.count * t.sections.count + 1
    }

    /// The change on a table with a section or a row fewer, while the same pair of words
    /// remains for the same move there (fewest sections, then fewest rows).
    func shrink(_ change: PolicyComparison.Change) -> PolicyComparison.Change {
        var current = change
        let key = Key(old: change.old.kind, new: change.new.kind)
        var progress = true
        while progress {
            progress = false
            for (candidate, moves) in smaller(current) {
                if let found = moves.lazy.compactMap({ decide(candidate, $0, key) }).first {
                    current = found
                    progress = true
                    break
                }
            }
        }
        return current
    }

    /// The change for `move` on `table` when it has the pair of words `key`.
    func decide(_ table: Table, _ move: Move, _ key: Key) -> PolicyComparison.Change? {
        guard let a = try? policies[0].bind(table).decide(move), let b = try? policies[1].bind(table).decide(move),
              a.kind == key.old, b.kind == key.new, a.kind != b.kind || a.target != b.target else { return nil }
        return PolicyComparison.Change(table: table, move: move, old: a, new: b)
    }

    /// The tables with one section or one row removed, each with the moves that correspond.
    func smaller(_ change: PolicyComparison.Change) -> [(Table, [Move])] {
        let t = change.table
        var out: [(Table, [Move])] = []
        switch change.move {
        case .row(let from, let to):
            for u in t.sections.indices where u != from.section && u != to.section {
                var smaller = t
                smaller.sections.remove(at: u)
                func shift(_ p: Position) -> Position { Position(section: p.section > u ? p.section - 1 : p.section, row: p.row) }
                out.append((smaller, [.row(from: shift(from), to: shift(to))]))
            }
            for u in t.sections.indices {
                for k in t.sections[u].rows.indices where !(u == from.section && k == from.row) {
                    var smaller = t
                    smaller.sections[u].rows.remove(at: k)
                    let f = Position(section: from.section, row: from.section == u && k < from.row ? from.row - 1 : from.row)
                    var targets = [to]
                    if to.section == u && to.row > 0 { targets.insert(Position(section: u, row: to.row - 1), at: 0) }
                    let limit = smaller.sections[to.section].rows.count - (to.section == from.section ? 1 : 0)
                    out.append((smaller, targets.filter { $0.row <= limit }.map { .row(from: f, to: $0) }))
                }
            }
        case .section(let a, let b):
            for u in t.sections.indices where u != a && t.sections.count > 1 {
                var smaller = t
                smaller.sections.remove(at: u)
                let a2 = a > u ? a - 1 : a
                out.append((smaller, [b, b - 1].filter { $0 >= 0 && $0 < smaller.sections.count }.map { .section(from: a2, to: $0) }))
            }
            for u in t.sections.indices {
                for k in t.sections[u].rows.indices {
                    var smaller = t
                    smaller.sections[u].rows.remove(at: k)
                    out.append((smaller, [change.move]))
                }
            }
        }
        return out
    }

    /// The change with its plain rows given ids of their own (`row-1`, `row-2`, …) that
    /// neither policy mentions, when the two results stay the same.
    func presentable(_ change: PolicyComparison.Change) -> PolicyComparison.Change {
        var table = change.table, n = 0
        let plain: Set<String> = [vocabulary.plainID, "·", ""]
        for u in table.sections.indices {
            for k in table.sections[u].rows.indices where plain.contains(table.sections[u].rows[k].id) || table.sections[u].rows[k].id.hasPrefix("·") {
                var id: String
                repeat {
                    n += 1
                    id = "row-\(n)"
                } while mentioned.contains(id)
                table.sections[u].rows[k].id = id
            }
        }
        guard let a = try? policies[0].bind(table).decide(change.move), let b = try? policies[1].bind(table).decide(change.move),
              a.kind == change.old.kind, b.kind == change.new.kind, a.target == change.old.target, b.target == change.new.target
        else { return change }
        return distinctSectionNames(PolicyComparison.Change(table: table, move: change.move, old: a, new: b))
    }

    /// Two sections of the example with one id (allowed, but they read as one: two "Doing"
    /// columns) get distinct names where the change allows (issue #63): each later section of
    /// an id that an earlier one has is renamed `Doing-2`, ..., and kept renamed when both
    /// policies still decide the move as before on that table.
    func distinctSectionNames(_ change: PolicyComparison.Change) -> PolicyComparison.Change {
        var current = change
        var seen = Set<String>()
        for u in change.table.sections.indices {
            guard let id = current.table.sections[u].id else { continue }
            if seen.insert(id).inserted { continue }
            var k = 2, fresh = "\(id)-\(k)"
            while seen.contains(fresh) || mentioned.contains(fresh) || current.table.sections.contains(where: { $0.id == fresh }) {
                k += 1
                fresh = "\(id)-\(k)"
            }
            var table = current.table
            table.sections[u].id = fresh
            guard let a = try? policies[0].bind(table).decide(current.move), let b = try? policies[1].bind(table).decide(current.move),
                  a.kind == current.old.kind, b.kind == current.new.kind, a.target == current.old.target, b.target == current.new.target
            else { continue }
            seen.insert(fresh)
            current = PolicyComparison.Change(table: table, move: current.move, old: a, new: b)
        }
        return current
    }
}

/// A small deterministic random number generator (SplitMix64): the witness tables are the
/// same on every run and machine.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }
}
