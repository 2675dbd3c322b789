import SpannedYAML
import Foundation
/// Bounded analysis of a policy's behaviour: tries every move on every small table
/// (see `TableEnumerator`) and reports warnings, each with a concrete counterexample
/// that `explain` can show.
public struct PolicyAnalyzer {
    /// The policy.
    public let policy: Policy
    /// The file the policy came from (for locations and code frames).
    public let source: SourceFile
    /// The table bound.
    public let bound: AnalysisBound
    /// The small tables tried.
    private let enumerator: TableEnumerator
    /// The policy compiled by its loader, when it came from a document.
    private let compiled: CompiledPolicy?
    /// The accepts whose `from` selects no section (they close their sections on purpose),
    /// found once: ``closingAccept(of:)`` asks for every dead capacity.
    private let closingAccepts: [Int]

    /// Creates an analyzer.
    public init(policy: Policy, source: SourceFile, bound: AnalysisBound = .standard) {
        self.init(policy: policy, compiled: nil, source: source, bound: bound)
    }

    private init(policy: Policy, compiled: CompiledPolicy?, source: SourceFile, bound: AnalysisBound) {
        self.policy = policy
        closingAccepts = policy.rules.indices.filter {
            guard case .accept(_, let from, _) = policy.rules[$0].kind.meaning else { return false }
            return AnalysisProofs.selectsNothing(from)
        }
        self.compiled = compiled
        self.source = source
        self.bound = bound
        enumerator = TableEnumerator(policy: policy, bound: bound)
    }

    /// Analyses a loaded document (nothing for one with errors). With a `budget` (seconds),
    /// the enumeration stops when it is spent and an `analysis-budget` warning says so;
    /// `progress` is called now and then with the number of tables tried.
    public static func analyze(
        _ document: PolicyDocument, bound: AnalysisBound = .standard, budget: Double? = nil, progress: ((Int) -> Void)? = nil
    ) -> [Diagnostic] {
        guard let policy = document.policy else { return [] }
        return PolicyAnalyzer(policy: policy, compiled: document.compiledPolicy, source: document.source, bound: bound)
            .run(budget: budget, progress: progress)
    }

    /// The default budget of `lint`'s enumeration per policy file, in budget units (each buys
    /// 4,000 tables of a policy of up to 16 rules, fewer of a larger one: a table costs one
    /// unit per 16 rules; the name comes from when it was a time).
    public static let defaultBudget = 5.0

    /// Tables tried per unit of budget: about what one second of a debug build tries.
    static let tablesPerSecond = 4_000

    /// A table and a move found by the analysis: the evidence behind a warning.
    /// ``evidence(_:_:about:)`` names its plain rows apart from every id the policy mentions
    /// and asks the policy for the decision, giving the ``Counterexample`` a finding carries.
    struct Example {
        var table: Table
        var move: Move
    }

    /// The counterexample a finding carries: the example's table with presentable ids, its
    /// move, the decision the whole policy gives (what `check` prints for that table and
    /// move), and of the rules the finding is about, those among the decision's violations.
    func evidence(_ example: Example, _ compiled: CompiledPolicy, about: [String] = []) -> Counterexample? {
        let table = presentable(example.table)
        guard let decision = try? compiled.bind(table).decide(example.move) else { return nil }
        // SPEC §10: the rules the finding is about, each among the decision's violations.
        let violated = Set(decision.violations.map(\.rule))
        return Counterexample(table: table, move: example.move, decision: decision.kind, rules: about.filter(violated.contains))
    }

    /// The table with each plain row (an id the policy does not mention: the enumeration's and
    /// the exact search's filler) given its own id (`row-1`, `row-2`, ...), none of which the
    /// policy mentions: the same decisions, and a table a person can read and paste.
    func presentable(_ table: Table) -> Table {
        var t = table, n = 0
        for u in t.sections.indices {
            for k in t.sections[u].rows.indices where !enumerator.mentionedIDs.contains(t.sections[u].rows[k].id) {
                var id: String
                repeat {
                    n += 1
                    id = "row-\(n)"
                } while enumerator.mentionedIDs.contains(id)
                t.sections[u].rows[k].id = id
            }
        }
        return t
    }

    /// What the enumeration learned about one rule.
    private struct RuleFacts {
        var displaced: Example?
        var refusedEntry: Example?
    }

    /// Runs every check; see ``analyze(_:bound:budget:progress:)`` for `budget` and `progress`.
    public func run(budget: Double? = nil, progress: ((Int) -> Void)? = nil) -> [Diagnostic] {
        // The budget is CPU time of this thread, not wall time: a machine busy with other work
        // (CI running tests in parallel) does not make the analysis stop earlier.
        // SPEC §10: a budget is counted in work done, never in time (each second of the
        // configured budget buys a fixed number of tables), so every run says the same.
        let tableLimit = budget.map { Int(($0 * Double(Self.tablesPerSecond)).rounded()) }
        var tried = 0, spent = 0, stopped = false
        guard let full = compiled ?? (try? CompiledPolicy(policy)) else { return [] }
        let rules = policy.rules
        let exact = ExactAnalysis(policy, full)
        // Rows held at both ends come from the exact search; the enumeration looks for them
        // only when the search could not answer.
        let anchorPairs = exact.doublyHeld == nil && rules.filter { $0.kind.meaning.pinsRows }.count >= 2
        // A table's work grows with the rules: it costs one unit per 16 rules (at least one), so
        // a 300-rule policy tries fewer tables within the same budget.
        let cost = max(1, (rules.count + policy.sectionRules.count + 15) / 16)
        var facts = [RuleFacts](repeating: RuleFacts(), count: rules.count)
        var anchors: (rules: (Int, Int), example: Example)? = nil
        // The enumeration only finds what the exact search does not: locks whose rows shift
        // (`lock-displaced`, for a lock that is live, selects something, in a policy where some
        // row can move at all), the refused drop shown for a closing accept (`from` selecting
        // nothing) that makes a capacity dead, and rows held at both ends when the exact search
        // could not answer. Without such rules it has nothing to find, and is skipped.
        let empty = Set(exact.selectsNothing.map(\.rule))
        let deadRules = Set(exact.dead)
        let candidateLocks = exact.nothingMoves ? [] : rules.indices.filter {
            guard case .hold(_, pins: false, _) = rules[$0].kind.meaning else { return false }
            return !deadRules.contains($0) && !empty.contains($0) && !AnalysisProofs.selectsNothing(rules[$0])
        }
        // The search decides both on every table (docs/ANALYSIS.md, "Locks whose rows shift");
        // the enumeration stands in only for a question it could not answer.
        let work = ExactAnalysis.defaultWork / 8
        var lockRules: [Int] = []
        // Most locks' rows shift on the smallest tables: the enumeration's first few are tried
        // first, all locks at once (a witness found there is replayed like any other); the
        // search answers for the rest, "never" included.
        var small: [Table] = []
        if !candidateLocks.isEmpty, AnalysisCancellation.current?.isCancelled != true {
            enumerator.forEach { table in
                small.append(table)
                return small.count < Self.quickTables
            }
        }
        let quick = Self.displacements(of: candidateLocks, on: small, full)
        for (r, w) in quick { facts[r].displaced = Example(table: w.table, move: .row(from: w.from, to: w.to)) }
        let displacements = ExactAnalysis.displacements(ofLocks: candidateLocks.filter { quick[$0] == nil }, in: policy, full, work: work)
        for r in candidateLocks where quick[r] == nil {
            switch displacements[r] ?? .unknown {
            case .found(let w) where Self.displaces(r, w, full):
                facts[r].displaced = Example(table: w.table, move: .row(from: w.from, to: w.to))
            case .none: break
            case .found, .unknown: lockRules.append(r)
            }
        }
        var closingAccepts: [Int] = []
        for a in Set(exact.dead.compactMap(closingAccept(of:))).sorted() {
            switch ExactAnalysis.refusedEntry(intoAccept: a, in: policy, full, work: work) {
            case .found(let w): facts[a].refusedEntry = Example(table: w.table, move: .row(from: w.from, to: w.to))
            case .none: break
            case .unknown: closingAccepts.append(a)
            }
        }
        let needsTables = !lockRules.isEmpty || !closingAccepts.isEmpty || anchorPairs

        // Everything the enumeration can find has been found: it stops (nothing is missing, so
        // no budget warning either).
        func allFound() -> Bool {
            lockRules.allSatisfy { facts[$0].displaced != nil } && closingAccepts.allSatisfy { facts[$0].refusedEntry != nil }
                && (!anchorPairs || anchors != nil)
        }

        let cancellation = AnalysisCancellation.current
        if needsTables { enumerator.forEach { table in
            if allFound() || cancellation?.isCancelled == true { return false }
            tried += 1
            spent += cost
            if tried % 256 == 0 { progress?(tried) }
            if let tableLimit, spent > tableLimit {
                stopped = true
                return false
            }
            let bound = full.bind(table)
            // Selection, anchors and capacity expectations.
            // Per table, once: which sections each accept/capacity rule covers, which rows each lock holds.
            let covered: [[Bool]] = rules.indices.map { index in
                var flags = [Bool](repeating: false, count: table.sections.count)
                for u in bound.sectionsCovered(byRule: index) ?? [] { flags[u] = true }
                return flags
            }
            let coveringRules: [[Int]] = table.sections.indices.map { t in rules.indices.filter { covered[$0][t] } }
            let lockedRows: [[Position]] = rules.indices.map { index in
                bound.holdsWithoutPinning(rule: index) ? bound.rowsHeld(byRule: index).map { $0.position } : []
            }
            // (Closures, not key paths: this runs for every move of every table.)
            let anyLocked = lockedRows.contains { !$0.isEmpty }
            // Conflicting anchors matter only where they refuse a move no other rule refuses.
            if anchors == nil, let pair = conflictingAnchors(bound), let move = Self.moveRefusedOnlyBy([pair.0, pair.1], bound, table) {
                anchors = (pair, Example(table: table, move: move))
            }
            // Every row move, where a lock not yet seen displaced holds a row here, or a
            // closing accept still needs its refused drop.
            let pendingLock = lockRules.contains { facts[$0].displaced == nil && !lockedRows[$0].isEmpty }
            let pendingRefusal = closingAccepts.contains { facts[$0].refusedEntry == nil }
            if pendingLock || pendingRefusal {
                for (s, section) in table.sections.enumerated() {
                    for i in section.rows.indices {
                        let from = Position(section: s, row: i)
                        let movable = bound.canMove(from)
                        guard movable else { continue }
                        for (t, target) in table.sections.enumerated() {
                            let slots = t == s ? target.rows.count : target.rows.count + 1
                            for j in 0..<slots {
                                let to = Position(section: t, row: j)
                                let valid = bound.isValid(from: from, to: to)
                                if t != s {
                                    for index in coveringRules[t] {
                                        if !valid && facts[index].refusedEntry == nil {
                                            facts[index].refusedEntry = Example(table: table, move: .row(from: from, to: to))
                                        }
                                    }
                                }
                                if valid && to != from && anyLocked {
                                    checkDisplacement(lockedRows, from, to, &facts, table)
                                }
                            }
                        }
                    }
                }
            }
            return true
        } }
        var out = report(facts, anchors, exact, full)
        // What was not decided (SPEC §10.1): said once, in one `analysis-budget` finding that
        // names the properties and the rules left undecided, in words from the policy only,
        // never from how far the work got; nothing is claimed about them.
        var left = exact.undecided
        // Locks the search could not answer and the small tables did not show shifted (rows
        // held at both ends that the search could not decide stay undecided even where the
        // small tables show one pair: the others are not claimed).
        let openLocks = lockRules.filter { facts[$0].displaced == nil }
        if !openLocks.isEmpty { left[.lockDisplaced, default: []].formUnion(openLocks) }
        if let message = undecidedMessage(exact, left, stopped: stopped ? budget.map { ($0, (tableLimit ?? 0) / cost) } : nil) {
            out.append(Diagnostic(.warning, code: .analysisBudget, message: message.text, file: source.path, span: Span(at: .start),
                                  help: message.help + " (docs/ANALYSIS.md, \"Large position constants\")"))
        }
        return Diagnostic.sorted(out)
    }

    /// The one `analysis-budget` message (SPEC §10.1), or nil when everything was decided:
    /// why the exact analysis did not run, or what it left undecided, property by property
    /// with the rules' ids (the first eight of a longer list, and how many more); and, when the
    /// enumeration of small tables that stands in stopped at its budget, that budget.
    func undecidedMessage(_ exact: ExactAnalysis, _ left: [AnalysisClaim.Property: Set<Int>], stopped: (budget: Double, tables: Int)?) -> (text: String, help: String)? {
        let rules = policy.rules
        func ids(_ indices: some Collection<Int>, section: Bool = false) -> String {
            let names = indices.sorted().map { "'\(section ? policy.sectionRules[$0].metadata.id : rules[$0].metadata.id)'" }
            let shown = names.prefix(8).joined(separator: ", ")
            return names.count > 8 ? "\(shown) and \(names.count - 8) more" : shown
        }
        var text: String, help: String
        if let tags = exact.tooManySectionTags {
            text = "the exact analysis did not run: this policy tells sections apart by \(tags) tag classes (tags that different selectors name), more than the \(MoveSearch.maxSectionTagClasses) whose every combination it builds; findings it would make are missing (only repeated rules are reported)"
            help = "name section tags in fewer distinct selectors, or select those sections by id or kind"
        } else if let constants = exact.unsearchable {
            let which = [constants.rowConstant > 0 ? "row positions up to \(constants.rowConstant)" : nil,
                         constants.sectionConstant > 0 ? "section positions up to \(constants.sectionConstant)" : nil].compactMap { $0 }
            text = "the exact analysis did not run: this policy names \(which.joined(separator: " and ")), and deciding its properties on every table would take more than its work budget; findings it would make are missing (only repeated rules are reported)"
            help = "the engine decides moves with these constants as written; only lint's proofs are skipped"
        } else {
            // Property by property, in the order of SPEC §10.
            var items: [String] = []
            func rulesOf(_ p: AnalysisClaim.Property) -> Set<Int>? { left[p] }
            if let r = rulesOf(.selectsNothing) { items.append("whether \(ids(r)) select anything (selects-nothing)") }
            if let r = rulesOf(.dead) { items.append("whether \(ids(r)) ever change a decision (dead)") }
            if !exact.undecidedSectionRules.isEmpty {
                let why = exact.sectionRulesUndecided ? ", with section positions up to \(exact.sectionConstant)" : ""
                items.append("whether section rules \(ids(exact.undecidedSectionRules, section: true)) ever change a decision (dead\(why))")
            }
            if let r = rulesOf(.admitsNothing) { items.append("whether \(ids(r)) let any row in (admits-nothing)") }
            if let r = rulesOf(.frozen) { items.append(r.isEmpty ? "which rows can never move (frozen)" : "which rows can never move under \(ids(r)) (frozen)") }
            if let r = rulesOf(.contradictory) { items.append("whether the bounds of \(ids(r)) can be met together (contradictory)") }
            if let r = rulesOf(.conflictingAnchors) { items.append("whether \(ids(r)) pin a row to opposite ends (conflicting-anchors)") }
            if let r = rulesOf(.lockDisplaced) { items.append("whether rows locked by \(ids(r)) can be shifted (lock-displaced)") }
            guard !items.isEmpty else { return nil }
            text = "the exact analysis did not decide, within its work budget, " + items.joined(separator: "; ") + "; findings it did not decide are missing (those reported hold as stated)"
            help = exact.sectionRulesUndecided && items.count == 1
                ? "the engine decides section moves with these constants as written; only lint's proofs about section rules are skipped"
                : "split the policy, or use smaller position constants and capacity bounds; the engine decides moves as written"
        }
        if let stopped {
            text += "; the small tables tried in its stead stopped at their work budget (--analysis-budget \(stopped.budget.formatted()): \(stopped.tables) tables of this policy's size)"
            help += "; raise --analysis-budget (or 'analysis.budget' in .reorder-policy.yml), or lower --analysis-bound"
        }
        return (text, help)
    }

    /// Checks the engine's own invariants on every enumerated table: targets are valid and
    /// idempotent, a valid proposal is its own target, and no pinned row moves. Returns a
    /// description of each failure (none are expected: a failure is a bug in this package).
    public func invariantFailures(limit: Int = 10) -> [String] {
        guard let compiled = try? CompiledPolicy(policy) else { return ["the policy does not compile"] }
        var failures: [String] = []
        enumerator.forEach { table in
            let bound = compiled.bind(table)
            let pins = policy.rules.indices.flatMap { bound.rowsHeld(byRule: $0).filter { $0.anchor != nil } }
            for (from, proposal) in Self.proposals(table, bound) {
                let target = bound.target(from: from, proposed: proposal)
                var problems: [String] = []
                if !bound.isValid(from: from, to: target) { problems.append("target \(target) is not valid") }
                if bound.target(from: from, proposed: target) != target { problems.append("target \(target) is not idempotent") }
                if bound.isValid(from: from, to: proposal) && target != proposal { problems.append("a valid proposal was moved") }
                if let after = try? table.applying(.row(from: from, to: target)) {
                    for (p, anchor) in pins {
                        let row = Self.index(of: p, from: from, to: target)
                        let n0 = table.sections[p.section].rows.count, n1 = after.sections[p.section].rows.count
                        let kept = anchor == .end ? n1 - 1 - row == n0 - 1 - p.row : row == p.row
                        if !kept { problems.append("pinned row \(p) moved") }
                    }
                }
                for problem in problems {
                    failures.append("\(problem): table \(TableText.flow(table)), move \(from) → \(proposal)")
                }
            }
            return failures.count < limit
        }
        return failures
    }

    /// How many of the enumeration's first (smallest) tables are tried for every lock's shift
    /// before the search is asked.
    static let quickTables = 48

    /// For each lock of `locks`, the first allowed move on `tables` (in order) that shifts a row
    /// it holds, if any: each table bound once, its allowed moves listed once.
    static func displacements(of locks: [Int], on tables: [Table], _ compiled: CompiledPolicy) -> [Int: MoveWitness] {
        var found: [Int: MoveWitness] = [:]
        for table in tables where found.count < locks.count {
            let bound = compiled.bind(table)
            let moves = Self.proposals(table, bound).filter { $0.to != $0.from && bound.isValid(from: $0.from, to: $0.to) }
            for r in locks where found[r] == nil {
                let held = bound.rowsHeld(byRule: r).map(\.position)
                guard !held.isEmpty else { continue }
                if let (from, to) = moves.first(where: { m in held.contains { $0 != m.from && shifts($0, from: m.from, to: m.to) } }) {
                    found[r] = MoveWitness(table: table, from: from, to: to)
                }
            }
        }
        return found
    }

    /// A move on `table` that the policy allows and that shifts a row lock `r` holds, among a
    /// bounded few near that row: the movable rows nearest it on each side and at the ends of
    /// its section, and the first movable row of up to four other sections, each dropped at the
    /// held row's slot, the slot after it and the ends of its section. Constant work per held
    /// row (for tables too long to try every move); nil when none of those does.
    static func displacementNear(_ r: Int, on table: Table, _ compiled: CompiledPolicy) -> MoveWitness? {
        let bound = compiled.bind(table)
        for p in bound.rowsHeld(byRule: r).prefix(2).map(\.position) {
            let rows = table.sections[p.section].rows.count
            var sources: [Position] = []
            func movable(_ indices: some Sequence<Int>, in s: Int, limit: Int) {
                var taken = 0
                for i in indices where taken < limit && bound.canMove(Position(section: s, row: i)) {
                    sources.append(Position(section: s, row: i))
                    taken += 1
                }
            }
            movable(stride(from: p.row - 1, through: 0, by: -1), in: p.section, limit: 2)
            movable(p.row + 1..<rows, in: p.section, limit: 2)
            movable(0..<rows, in: p.section, limit: 1)
            movable(stride(from: rows - 1, through: 0, by: -1), in: p.section, limit: 1)
            for s in table.sections.indices where s != p.section {
                if sources.count >= 10 { break }
                movable(table.sections[s].rows.indices, in: s, limit: 1)
            }
            for from in sources {
                let last = from.section == p.section ? rows - 1 : rows
                for j in [p.row, p.row + 1, 0, last] where j >= 0 && j <= last {
                    let to = Position(section: p.section, row: j)
                    if to != from && shifts(p, from: from, to: to) && bound.isValid(from: from, to: to) {
                        return MoveWitness(table: table, from: from, to: to)
                    }
                }
            }
        }
        return nil
    }

    /// Every proposal on `table` for a row that can be picked up, in reading order: each slot
    /// of its own section (its own place included) and of every other section.
    static func proposals(_ table: Table, _ bound: BoundPolicy) -> [(from: Position, to: Position)] {
        var out: [(from: Position, to: Position)] = []
        for (s, section) in table.sections.enumerated() {
            for i in section.rows.indices where bound.canMove(Position(section: s, row: i)) {
                for (t, target) in table.sections.enumerated() {
                    for j in 0..<(t == s ? target.rows.count : target.rows.count + 1) {
                        out.append((Position(section: s, row: i), Position(section: t, row: j)))
                    }
                }
            }
        }
        return out
    }

    /// Whether the engine agrees that the witness's move is allowed and shifts a row lock `r` holds.
    static func displaces(_ r: Int, _ w: MoveWitness, _ compiled: CompiledPolicy) -> Bool {
        let bound = compiled.bind(w.table)
        guard bound.isValid(from: w.from, to: w.to), w.from != w.to else { return false }
        return bound.rowsHeld(byRule: r).contains { $0.position != w.from && shifts($0.position, from: w.from, to: w.to) }
    }

    /// Whether moving the row at `from` to `to` changes the index of the row at `p` (removal first, then insertion).
    static func shifts(_ p: Position, from: Position, to: Position) -> Bool {
        index(of: p, from: from, to: to) != p.row
    }

    /// The index in its section of the row at `p` (not the moving one) after the row at `from`
    /// moves to `to`: removal first, then insertion.
    static func index(of p: Position, from: Position, to: Position) -> Int {
        var row = p.row
        if p.section == from.section && p.row > from.row { row -= 1 }
        if p.section == to.section && row >= to.row { row += 1 }
        return row
    }

    private func checkDisplacement(_ lockedRows: [[Position]], _ from: Position, _ to: Position, _ facts: inout [RuleFacts], _ table: Table) {
        for index in lockedRows.indices where facts[index].displaced == nil {
            for p in lockedRows[index] where p != from && Self.shifts(p, from: from, to: to) {
                facts[index].displaced = Example(table: table, move: .row(from: from, to: to))
                break
            }
        }
    }

    /// Two pin-type rules holding one row with different anchors.
    private func conflictingAnchors(_ bound: BoundPolicy) -> (Int, Int)? {
        var anchorsAt: [Position: (rule: Int, anchor: Anchor)] = [:]
        for index in policy.rules.indices {
            for (p, anchor) in bound.rowsHeld(byRule: index) {
                guard let anchor else { continue }
                if let other = anchorsAt[p], other.anchor != anchor { return (other.rule, index) }
                anchorsAt[p] = (index, anchor)
            }
        }
        return nil
    }

    // MARK: - Reporting

    private func report(
        _ facts: [RuleFacts], _ anchors: (rules: (Int, Int), example: Example)?,
        _ exact: ExactAnalysis, _ compiled: CompiledPolicy
    ) -> [Diagnostic] {
        var out: [Diagnostic] = []
        let rules = policy.rules
        let dead = Set(exact.dead)
        // Every finding carries its claim as data (SPEC §10.1): the property its code states
        // (or `property`), about the rule it stands at and `about`.
        func warn(_ code: DiagnosticCode, property: AnalysisClaim.Property? = nil, _ message: String, _ meta: RuleMetadata, help: String?, example: Example? = nil,
                  notes: [String] = [], about: [String] = [], frozen: AnalysisClaim.Frozen? = nil) {
            let shown = example.flatMap { evidence($0, compiled, about: [meta.id] + about) }
            var finding = Diagnostic(.warning, code: code, message: message, file: source.path, span: span(meta),
                                     help: help, notes: notes, counterexample: shown)
            if let property = property ?? Self.claimedProperty(code) {
                var ids: [String] = []
                for id in [meta.id] + about where !ids.contains(id) { ids.append(id) }
                finding.claim = AnalysisClaim(property, rules: ids, frozen: frozen)
            }
            out.append(finding)
        }
        let exactEmpty = Dictionary(exact.selectsNothing.map { ($0.rule, $0.what) }, uniquingKeysWith: { a, _ in a })
        for (index, rule) in rules.enumerated() {
            let f = facts[index], meta = rule.metadata
            if exactEmpty[index] == nil, !AnalysisProofs.selectsNothing(rule),
               case .capacity(_, .value(let max)?, .value(let min)?, _) = rule.kind.meaning, min > max {
                warn(.capacityConflict, "capacity '\(meta.id)' has min \(min) above max \(max): no section can satisfy both", meta,
                     help: "a selected section may never hold more than \(max) rows nor fewer than \(min); lower min or raise max")
            }
            // "Never" only with a proof (AnalysisProofs, docs/ANALYSIS.md): what the tables tried
            // did not show is no finding.
            // SPEC §10: the most specific property once — selects nothing, then admits
            // nothing, then dead. The exact search decides each (docs/ANALYSIS.md); the text
            // proofs stand in only where the search's budget ran out.
            if let what = exactEmpty[index] {
                warn(.neverSelects, "rule '\(meta.id)' selects nothing on any table: \(what) can match no row or section", meta,
                     help: "no table has a row or section this selector matches (an empty list, 'first: 0', 'not: all', or keys that exclude each other); check the selector")
                continue
            }
            if AnalysisProofs.selectsNothing(rule) {
                warn(.neverSelects, "rule '\(meta.id)' selects nothing on any table", meta,
                     help: "an empty list, 'first: 0' or 'not: all' selects nothing; check the selector")
                continue
            }
            if exact.admitsNothing.contains(index) {
                warn(.neverSelects, property: .admitsNothing, "accept '\(meta.id)' lets no row in: on every table, every move from another section into the sections it guards is refused by this or another rule", meta,
                     help: "to take rows only from some sections, name those in 'from'; to close the sections on purpose, write 'from: []'")
                continue
            }
            if let example = f.displaced, !dead.contains(index) {
                warn(.lockDisplaced, "rows locked by '\(meta.id)' can still be shifted by moves around them", meta,
                     help: "lock only stops a row from being picked up; use 'pin' to keep it in place", example: example)
            }
            if dead.contains(index), let accept = closingAccept(of: index) {
                // The cause is an accept that closes the sections on purpose ('from' selects
                // none): said once, at the accept.
                warn(.closedSection, "the sections '\(rules[accept].metadata.id)' guards accept no row from any other section, so the max of capacity '\(meta.id)' never matters", rules[accept].metadata,
                     help: "if the section should take rows, widen 'from' or 'rows'; if not, drop the capacity", example: facts[accept].refusedEntry,
                     about: [meta.id])
            } else if dead.contains(index) {
                warn(.deadRule, "rule '\(meta.id)' never changes whether or where a row can move: on every table, whatever it refuses or holds, other rules refuse or hold too", meta,
                     help: "remove it, or change it so that it does what it should")
            } else if exact.incomplete, let reason = Self.redundancy(of: index, in: rules) {
                warn(.deadRule, "rule '\(meta.id)' never changes whether or where a row can move: \(reason)", meta,
                     help: "remove one of the two, or change this one so that it does what it should")
            }
        }
        // Bounds of two capacity rules that no section selected by both can meet (SPEC §10.5).
        for pair in exact.capacityConflicts {
            guard case .capacity(_, .value(let max)?, _, _) = rules[pair.max].kind.meaning,
                  case .capacity(_, _, .value(let min)?, _) = rules[pair.min].kind.meaning else { continue }
            let later = rules[Swift.max(pair.max, pair.min)].metadata
            let a = rules[pair.max].metadata.id, b = rules[pair.min].metadata.id
            warn(.capacityConflict, "capacity '\(b)' needs at least \(min) rows where capacity '\(a)' allows at most \(max), and some section is selected by both: no such section can satisfy both", later,
                 help: "lower the min of '\(b)', raise the max of '\(a)', or make their sections disjoint", about: [a, b])
        }
        for (index, rule) in policy.sectionRules.enumerated() {
            // Decided exactly (ExactAnalysis); the text proofs stand in when it could not answer.
            if exact.sectionSelectsNothing.contains(index) || (exact.incomplete && {
                if case .sections(let s) = rule.target { return AnalysisProofs.selectsNothing(s) }
                return false
            }()) {
                warn(.neverSelects, "section rule '\(rule.metadata.id)' selects no section on any table", rule.metadata,
                     help: "no table has a section this selector matches (an empty list, or keys that exclude each other); check the selector")
            } else if exact.deadSectionRules.contains(index) {
                warn(.deadRule, "section rule '\(rule.metadata.id)' never changes whether or where a section can move: on every table, other section rules hold and pin the same sections", rule.metadata,
                     help: "remove it, or change it so that it does what it should")
            } else if exact.incomplete, let reason = Self.redundancy(ofSection: index, in: policy.sectionRules) {
                warn(.deadRule, "section rule '\(rule.metadata.id)' never changes whether or where a section can move: \(reason)", rule.metadata,
                     help: "remove one of the two")
            }
        }
        // Frozen row positions (SPEC §10.4), decided by the exact search: a row there can be
        // picked up on some table, and on no table can it move anywhere.
        // One finding per cause and class of sections, naming every frozen place (SPEC §10:
        // the most specific finding, once, at the rule that causes it).
        var groups: [(key: [Int], section: SectionSelector?, places: [ExactAnalysis.Frozen])] = []
        for f in exact.frozen {
            let key = [f.rule, f.sectionRule ?? -1, f.minRows]
            if let g = groups.firstIndex(where: { $0.key == key && $0.section == f.section }) { groups[g].places.append(f) } else { groups.append((key, f.section, [f])) }
        }
        // The same places in the sections of two items of one rule's list (`[{ section: Done },
        // { section: Archive }]`) are one finding: "in sections Done, Archive".
        func spot(_ f: ExactAnalysis.Frozen) -> [Int] { [f.index, f.last, f.fromEnd ? 1 : 0, f.middle ? 1 : 0] }
        var merged: [(key: [Int], section: SectionSelector?, places: [ExactAnalysis.Frozen])] = []
        for g in groups {
            if let m = merged.firstIndex(where: { $0.key == g.key && $0.places.map(spot) == g.places.map(spot) }),
               case .some(let a)? = merged[m].section, case .some(let b)? = g.section {
                let union = SectionSelector.some(a + b.filter { !a.contains($0) })
                merged[m].section = union
                for i in merged[m].places.indices { merged[m].places[i].section = union }
            } else {
                merged.append(g)
            }
        }
        // One finding once: a list's items merged may name the sections another rule does.
        func refs(_ s: SectionSelector?) -> Set<SectionReference>? { if case .some(let r)? = s { Set(r) } else { nil } }
        merged = merged.enumerated().filter { i, g in
            !merged[..<i].contains { $0.key[0] == g.key[0] && $0.key[2] == g.key[2] && refs($0.section) == refs(g.section) && $0.places.map(spot) == g.places.map(spot) }
        }.map(\.element)
        for (_, _, places) in merged {
            let f = places[0]
            let meta = rules[f.rule].metadata
            // The sections as the policy writes them (issue #55, "Words"): `in sections Done`,
            // `in the sections { tag: closed }`; a rule's id only when no selector is known.
            let sections: String
            if let selector = f.section {
                let words = selector.flowYAML
                sections = words == "all" ? "in every section"
                    : words.hasPrefix("[") && !words.contains("{") ? "in sections \(words.dropFirst().dropLast())" : "in the sections \(words)"
            } else {
                sections = f.sectionRule.map { "in the sections '\(rules[$0].metadata.id)' names" } ?? "in every section"
            }
            let one = places.count == 1 && !f.middle && f.index == f.last
            // Frozen once a section is large enough (SPEC §10.1): the size is said.
            let sized = f.minRows > 1 ? (sections == "in every section" ? "in sections" : sections) + " of \(f.minRows) rows or more" : sections
            warn(.stuckRow, "\(sized), \(Self.frozenPlaceWords(places)) can never move: no rule holds \(one ? "it" : "them"), yet on every table every move of \(one ? "it" : "one") is refused", meta,
                 help: "if \(one ? "the row is" : "these rows are") meant to stay, pin \(one ? "it" : "them") too; otherwise loosen '\(meta.id)' (without it \(one ? "the row" : "they") could move)",
                 example: Example(table: f.witness.table, move: .row(from: f.witness.from, to: f.witness.to)),
                 frozen: Self.frozenClaim(places, sections: f.sectionRule.map { rules[$0].metadata.id }, selector: f.section.map(\.flowYAML)))
        }
        let anchorHelp = "a row held at both its index and its distance from the end keeps its whole section's size fixed: no row can enter or leave; pin it with one anchor"
        if let pairs = exact.doublyHeld {
            // SPEC §10: every rule that holds a row at both ends with another is named by a
            // finding, once: pairs in order, each reported while one of its rules is not yet
            // named, at a rule its counterexample's move breaks (the later one when it breaks
            // both, which names both). A dead rule is reported dead instead (deleting it is the
            // fix, and the most specific finding is said once): the pair stands at the other.
            var named = Set(exact.dead)
            for pair in pairs {
                let open = Set([pair.first, pair.second]).subtracting(named)
                guard !open.isEmpty else { continue }
                // SPEC §10.1: only where the pair changes a decision, shown by a move that the
                // pair refuses and no other rule does (none under keep-in-section: all).
                guard let (example, broken) = anchorEvidence(pair, compiled, rowConstant: exact.rowConstant, open: open) else { continue }
                guard let at = broken.intersection(open).max() else { continue }
                let other = at == pair.second ? pair.first : pair.second
                named.formUnion(broken)
                let a = rules[pair.first].metadata, b = rules[pair.second].metadata
                warn(.conflictingAnchors, "'\(a.id)' and '\(b.id)' pin the same row to opposite ends", rules[at].metadata,
                     help: anchorHelp, example: example, about: [rules[other].metadata.id])
            }
        } else if let (pair, example) = anchors {
            // From the enumeration (the exact search ran out of work): reported only with a
            // move that they alone refuse.
            let a = rules[pair.0].metadata, b = rules[pair.1].metadata
            warn(.conflictingAnchors, "'\(a.id)' and '\(b.id)' pin the same row to opposite ends", b,
                 help: anchorHelp, example: example, about: [a.id])
        }
        return Diagnostic.sorted(out)
    }

    /// Why rule `index` is redundant on every table (AnalysisProofs), or nil.
    package static func redundancy(of index: Int, in rules: [RowRule]) -> String? {
        // Every pair of rules, so only up to ``textProofRuleLimit`` rules (a policy of thousands
        // would spend minutes here; its rules left undecided are named as such).
        guard rules.count <= textProofRuleLimit else { return nil }
        return rules.indices.lazy.filter { $0 != index }
            .compactMap { AnalysisProofs.subsumes(rules[$0], rules[index], oIsEarlier: $0 < index) }.first
    }

    /// The most rules the text proofs compare pairwise (``redundancy(of:in:)``).
    static let textProofRuleLimit = 1_000

    /// Why section rule `index` is redundant on every table, or nil.
    package static func redundancy(ofSection index: Int, in rules: [SectionRule]) -> String? {
        guard rules.count <= textProofRuleLimit else { return nil }
        return rules.indices.lazy.filter { $0 != index }
            .compactMap { AnalysisProofs.subsumes(rules[$0], rules[index], oIsEarlier: $0 < index) }.first
    }

    /// The evidence that a pair holding a row at both ends changes a decision (SPEC §10.1): on
    /// the search's table, or on it with one more section (a plain row, none, a long plain one,
    /// or the section again, first or last) where a row is still held at both ends, a row entering that
    /// section (or leaving it) whose every slot there the pair refuses and no other rule does,
    /// while each rule of the pair alone would leave a slot open. Nil when there is none on
    /// these tables: then nothing is reported (under `keep-in-section: all` no row may enter or
    /// leave a section anyway). Returns the move, to the first slot that breaks the latest of
    /// the `open` rules its slots break (where the finding stands), and the rules of the pair
    /// that its slots break.
    /// The largest table (in rows, times 4) on which the anchor evidence is looked for.
    static let evidenceRowLimit = 64

    /// The property a finding of this code states (SPEC §10.1), for its `claim`; nil for codes
    /// that state none (`analysis-budget` says what was not decided).
    static func claimedProperty(_ code: DiagnosticCode) -> AnalysisClaim.Property? {
        switch code {
        case .neverSelects: .selectsNothing
        case .deadRule, .closedSection: .dead
        case .stuckRow: .frozen
        case .capacityConflict: .contradictory
        case .conflictingAnchors: .conflictingAnchors
        case .lockDisplaced: .lockDisplaced
        default: nil
        }
    }

    /// The places of a frozen finding as a claim: indices from the start and from the end
    /// (ranges written out), the middle, and the fewest rows of a section where they are
    /// frozen (one finding has one size: the places' `minRows`).
    static func frozenClaim(_ places: [ExactAnalysis.Frozen], sections: String?, selector: String? = nil) -> AnalysisClaim.Frozen {
        var fromStart = Set<Int>(), fromEnd = Set<Int>(), middle: Int? = nil
        for p in places {
            if p.middle {
                middle = Swift.min(middle ?? p.index, p.index)
            } else if p.fromEnd {
                fromEnd.formUnion(p.index...Swift.max(p.index, p.last))
            } else {
                fromStart.formUnion(p.index...Swift.max(p.index, p.last))
            }
        }
        return AnalysisClaim.Frozen(sections: sections, sectionSelector: selector, fromStart: fromStart.sorted(), fromEnd: fromEnd.sorted(), middle: middle, minRows: places.map(\.minRows).max() ?? 1)
    }

    private func anchorEvidence(_ pair: ExactAnalysis.DoublyHeld, _ compiled: CompiledPolicy, rowConstant: Int, open: Set<Int>) -> (Example, broken: Set<Int>)? {
        let plainRow = Row(id: enumerator.plainID)
        let plain = Section(rows: [plainRow]), empty = Section(rows: [])
        // Long enough that its middle row is at no place a selector names (so it can move).
        let roomy = Section(rows: Array(repeating: plainRow, count: 2 * min(rowConstant, Self.evidenceRowLimit) + 1))
        let s = pair.row.section
        var candidates: [Table] = [pair.table]
        for extra in [plain, empty, roomy, pair.table.sections[s]] {
            var before = pair.table, after = pair.table
            before.sections.insert(extra, at: 0)
            after.sections.append(extra)
            candidates += [before, after]
        }
        let both: Set<Int> = [pair.first, pair.second]
        let a = AnalysedRule(policy: 0, index: pair.first, meaning: policy.rules[pair.first].kind.meaning)
        let b = AnalysedRule(policy: 0, index: pair.second, meaning: policy.rules[pair.second].kind.meaning)
        func without(_ r: Int) -> CompiledPolicy? {
            var p = policy
            p.rules.remove(at: r)
            return try? CompiledPolicy(p)
        }
        guard let withoutFirst = without(pair.first), let withoutSecond = without(pair.second) else { return nil }
        for table in candidates where table.sections.reduce(0, { $0 + $1.rows.count }) <= 4 * Self.evidenceRowLimit {
            let bound = compiled.bind(table)
            // The row held at both ends may have moved with the added section.
            let held = bound.rowsHeld(byRule: pair.first).map(\.position).filter { MoveSearch.heldAtBothEnds($0, a, b, bound) }
            let onlyFirst = withoutSecond.bind(table), onlySecond = withoutFirst.bind(table)
            for h in Set(held.map(\.section)).sorted() {
                // A row entering h, or leaving it for section t: every slot refused, by the pair
                // and no other rule, while each rule of the pair alone leaves a slot open.
                for (s, source) in table.sections.enumerated() {
                    for i in source.rows.indices where bound.canMove(Position(section: s, row: i)) {
                        let from = Position(section: s, row: i)
                        for t in table.sections.indices where (s == h) != (t == h) {
                            let slots = (0...table.sections[t].rows.count).map { Position(section: t, row: $0) }
                            var closed = true, broken = Set<Int>(), bySlot: [Set<Int>] = []
                            for to in slots {
                                let rules = Set(bound.brokenRules(from: from, to: to))
                                if rules.isEmpty || !rules.isSubset(of: both) { closed = false; break }
                                broken.formUnion(rules)
                                bySlot.append(rules)
                            }
                            guard closed, slots.contains(where: { onlyFirst.isValid(from: from, to: $0) }),
                                  slots.contains(where: { onlySecond.isValid(from: from, to: $0) }),
                                  let at = broken.intersection(open).max(), let slot = bySlot.firstIndex(where: { $0.contains(at) }) else { continue }
                            // The move to the first slot that breaks the rule the finding stands at.
                            return (Example(table: table, move: .row(from: from, to: slots[slot])), broken)
                        }
                    }
                }
            }
        }
        return nil
    }

    /// A move of a row that can be picked up, into or out of its section, that only `rules` refuse.
    static func moveRefusedOnlyBy(_ rules: [Int], _ bound: BoundPolicy, _ table: Table) -> Move? {
        for (s, section) in table.sections.enumerated() {
            for i in section.rows.indices where bound.canMove(Position(section: s, row: i)) {
                let from = Position(section: s, row: i)
                for (t, target) in table.sections.enumerated() {
                    for j in 0..<(t == s ? target.rows.count : target.rows.count + 1) where t != s {
                        let to = Position(section: t, row: j)
                        let broken = bound.brokenRules(from: from, to: to)
                        if !broken.isEmpty, broken.allSatisfy(rules.contains) { return .row(from: from, to: to) }
                    }
                }
            }
        }
        return nil
    }

    /// For a capacity with a max, an accept on the same sections whose `from` selects nothing.
    private func closingAccept(of index: Int) -> Int? {
        guard case .capacity(_, _?, _, _) = policy.rules[index].kind.meaning else { return nil }
        return closingAccepts.first { sharesSection($0, index) }
    }

    private func sharesSection(_ a: Int, _ b: Int) -> Bool {
        sectionSelector(of: a) == sectionSelector(of: b) || sectionSelector(of: b) == .all
    }

    private func sectionSelector(of index: Int) -> SectionSelector? {
        switch policy.rules[index].kind.meaning {
        case .accept(let section, _, _), .capacity(let section, _, _, _): section
        case .hold, .reserve, .keepInSection, .keepOrder, .keepAmong: nil
        }
    }

    /// The rule item's first line, for the code frame.
    private func span(_ meta: RuleMetadata) -> Span {
        guard let l = meta.location else { return Span(at: .start) }
        return ExplainText.ruleSpan(source, l)
    }
}

extension PolicyAnalyzer {
    /// The frozen places of one finding in words: "the row at index 1", "the rows at indices
    /// 0–3 and 5", "the last row", "the rows 2–7 from the end", "every row".
    static func frozenPlaceWords(_ places: [ExactAnalysis.Frozen]) -> String {
        func list(_ parts: [String]) -> String {
            parts.count <= 1 ? parts.joined() : parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
        }
        // The places as ranges, adjacent ones merged: "0–8 and 12".
        func ranges(fromEnd: Bool) -> (text: String, single: Int?)? {
            var merged: [(Int, Int)] = []
            for (a, b) in places.filter({ !$0.middle && $0.fromEnd == fromEnd }).map({ ($0.index, $0.last) }).sorted(by: { $0.0 < $1.0 }) {
                if let (x, y) = merged.last, a <= y + 1 { merged[merged.count - 1] = (x, Swift.max(y, b)) } else { merged.append((a, b)) }
            }
            guard !merged.isEmpty else { return nil }
            let single = merged.count == 1 && merged[0].0 == merged[0].1 ? merged[0].0 : nil
            return (list(merged.map { $0.0 == $0.1 ? "\($0.0)" : "\($0.0)–\($0.1)" }), single)
        }
        // Places that cover every position say so (issue #55, SPEC §10.1 "Words"): every row
        // at least k rows from both ends, and the first k and the last k rows.
        if let middle = places.first(where: \.middle)?.index {
            func covers(fromEnd: Bool) -> Bool {
                let listed = places.filter { !$0.middle && $0.fromEnd == fromEnd }
                return (0..<middle).allSatisfy { k in listed.contains { $0.index <= k && k <= Swift.max($0.index, $0.last) } }
            }
            if covers(fromEnd: false) && covers(fromEnd: true) { return "every row" }
        }
        var parts: [String] = []
        if let start = ranges(fromEnd: false) {
            parts.append(start.single.map { "the row at index \($0)" } ?? "the rows at indices \(start.text)")
        }
        if let end = ranges(fromEnd: true) {
            parts.append(end.single.map { $0 == 0 ? "the last row" : "the row \($0) from the end" } ?? "the rows \(end.text) from the end")
        }
        if let middle = places.first(where: \.middle) {
            parts.append(middle.index == 0 ? "every row" : "every row with at least \(middle.index) row\(middle.index == 1 ? "" : "s") on each side")
        }
        return list(parts)
    }
}
