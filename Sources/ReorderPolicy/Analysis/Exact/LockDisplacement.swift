import ReorderEngine

/// `lock-displaced` and a closing accept's refused drop, decided by the search instead of the
/// bounded enumeration (docs/ANALYSIS.md, "Locks whose rows shift").
extension ExactAnalysis {
    /// For each lock of `locks`: a table and a move that the policy allows and that shifts a
    /// row the lock holds; `.none` when no move on any table does (the small-model theorem);
    /// `.unknown` when the search could not answer.
    ///
    /// A row a lock holds is *displaced* when its index changes, which is what breaks a pin of
    /// it anchored at the start. So the questions are asked of the policy with the locks turned
    /// into such pins, one search for all of them: for lock `r`, a move of a row no rule holds
    /// that breaks `r`'s pin and no rule of the policy (the other locks' pins may break: as
    /// locks they refuse only picking their rows up). Such a move is allowed by the policy itself.
    static func displacements(ofLocks locks: [Int], in policy: Policy, _ original: CompiledPolicy, work: Int) -> [Int: SearchResult] {
        var pinned = policy
        for r in locks {
            guard case .hold(let rows, pins: false, _) = policy.rules[r].kind.meaning else { continue }
            // `not: { not: rows }` selects the same rows as a mapping, so the anchor may be given.
            pinned.rules[r] = RowRule(.pin(RowSelector(not: RowSelector(not: rows)), anchor: .start), metadata: policy.rules[r].metadata)
        }
        guard !locks.isEmpty, let compiled = try? CompiledPolicy(pinned) else { return Dictionary(uniqueKeysWithValues: locks.map { ($0, .unknown) }) }
        let rules = pinned.rules.enumerated().map { AnalysedRule(policy: 0, index: $0.offset, meaning: $0.element.kind.meaning) }
        var search = MoveSearch(rules: rules, policies: [compiled], vocabulary: Vocabulary([pinned]), budget: work)
        let others = Set(rules.indices).subtracting(locks)
        let holders = Set(rules.indices.filter { rules[$0].holds })
        // Rules that pin every row they hold at the start: a row one of them holds never shifts
        // in an allowed move.
        let startPins = others.filter {
            switch rules[$0].meaning {
            case .hold(let rows, pins: true, let anchor): anchor == .start || (anchor == nil && !rows.mayCountFromEnd)
            case .reserve(let edge, _, _): edge == .start
            case .hold, .keepInSection, .accept, .capacity, .keepOrder, .keepAmong: false
            }
        }
        var out: [Int: SearchResult] = [:]
        var q = MoveQuery()
        q.mustNotBreak = others
        q.mustNotHold = holders
        // `work` is for all the questions together (counted in work, never time, so every run
        // says the same); a question asked once it is spent is answered `.unknown`.
        let start = search.solver.work
        func ask(_ question: (inout MoveSearch) -> SearchResult) -> SearchResult {
            search.budget = start + work
            return search.exhausted ? .unknown : question(&search)
        }
        // One witness often shifts the rows of many locks (a row dropped past a run of locked
        // rows shifts them all): each witness found is replayed for every lock not yet answered,
        // so 300 locks in a row ask the search once, not 300 times.
        // The witness's section is also made long (plain rows after its rows, up to 2·C + 2)
        // and its first movable row dropped at the end, or its last at the start: a move across
        // the whole section, which shifts every locked row in between.
        // The engine's work on replays is charged too (a bind costs a unit per rule and row), so
        // a policy of thousands of rules stops within the same allowance: the locks not reached
        // are answered `.unknown` (and named as undecided).
        var replayed = 0
        func charge(_ table: Table) { replayed += rules.count + table.sections.reduce(1) { $0 + $1.rows.count } }
        func share(_ w: MoveWitness) {
            guard replayed <= work else { return }
            var tries = [w]
            let plain = Row(id: search.vocabulary.plainID)
            if let long = Self.padded(w.table, around: w.from, upTo: 2 * search.vocabulary.rowConstant + 2, plain: plain).first,
               long.sections.count == w.table.sections.count {
                charge(long)
                let bound = original.bind(long)
                let s = w.from.section, n = long.sections[s].rows.count
                func movable(_ i: Int) -> Bool { bound.canMove(Position(section: s, row: i)) }
                if let first = (0..<n).first(where: movable) { tries.append(MoveWitness(table: long, from: Position(section: s, row: first), to: Position(section: s, row: n - 1))) }
                if let last = (0..<n).reversed().first(where: movable) { tries.append(MoveWitness(table: long, from: Position(section: s, row: last), to: Position(section: s, row: 0))) }
            }
            for w in tries where locks.contains(where: { out[$0] == nil }) {
                charge(w.table)
                let bound = original.bind(w.table)
                guard bound.isValid(from: w.from, to: w.to), w.from != w.to else { continue }
                for other in locks where out[other] == nil {
                    if bound.rowsHeld(byRule: other).contains(where: { $0.position != w.from && PolicyAnalyzer.shifts($0.position, from: w.from, to: w.to) }) {
                        out[other] = .found(w)
                    }
                }
            }
        }
        for r in locks where out[r] == nil {
            guard replayed <= work else {
                out[r] = .unknown
                continue
            }
            q.mustBreak = [r]
            // Every row the lock holds is pinned at the start by another rule: "none" at once
            // (the search would have to exhaust every frame to say so). Else the table that
            // shows such a row often shows a move that shifts it too: tried on the engine.
            switch ask({ $0.findHeldRow(mustHold: [r], mustNotHold: startPins) }) {
            case .none:
                out[r] = SearchResult.none
                continue
            case .found(let held):
                // Every move of a small table (a long run's goes to the search, which places the
                // move itself); then, on any, the moves next to a held row (a few, each
                // replayed), and the same on the table with plain rows added after the held row
                // or before it, or a plain row in a section of its own, so that a row no lock
                // holds stands beside a run of locked rows (300 locks at 0–299 are shifted by
                // row 300 dropped at 0).
                let rowCount = held.table.sections.reduce(0, { $0 + $1.rows.count })
                let small = rowCount <= 64
                let plain = Row(id: search.vocabulary.plainID)
                // Every move of a small table decided (each a unit per rule), and up to five
                // tables bound with a few moves decided each.
                replayed += small ? rules.count * rowCount * (rowCount + held.table.sections.count) : 0
                replayed += 5 * (rules.count + rowCount + 1)
                if let w = (small ? PolicyAnalyzer.displacements(of: [r], on: [held.table], original)[r] : nil)
                    ?? PolicyAnalyzer.displacementNear(r, on: held.table, original)
                    ?? Self.padded(held.table, around: held.from, upTo: 2 * search.vocabulary.rowConstant + 2, plain: plain).lazy.compactMap({ PolicyAnalyzer.displacementNear(r, on: $0, original) }).first {
                    out[r] = .found(w)
                    share(w)
                    continue
                }
            case .unknown: break
            }
            out[r] = ask { $0.findMove(q) }
            if case .found(let w)? = out[r] { share(w) }
        }
        return out
    }

    /// Variants of `table` for the near-move tries: the section of `p` with plain rows (an id
    /// the policy names nowhere) added after its rows, or before them, up to `upTo` rows (none
    /// past 10,001), and the table with a section of one plain row added after the others.
    static func padded(_ table: Table, around p: Position, upTo: Int, plain: Row) -> [Table] {
        let rows = table.sections[p.section].rows
        var out: [Table] = []
        let extra = min(upTo, 10_001) - rows.count
        if extra > 0 {
            var after = table, before = table
            after.sections[p.section].rows += Array(repeating: plain, count: extra)
            before.sections[p.section].rows.insert(contentsOf: Array(repeating: plain, count: extra), at: 0)
            out += [after, before]
        }
        var beside = table
        beside.sections.append(Section(rows: [plain]))
        out.append(beside)
        return out
    }

    /// A move of a row no rule holds, from another section into a section accept `a` guards,
    /// that `a` refuses (the drop a closing accept's finding shows).
    static func refusedEntry(intoAccept a: Int, in policy: Policy, _ compiled: CompiledPolicy, work: Int) -> SearchResult {
        guard case .accept(let section, _, _) = policy.rules[a].kind.meaning else { return .none }
        let rules = policy.rules.enumerated().map { AnalysedRule(policy: 0, index: $0.offset, meaning: $0.element.kind.meaning) }
        var search = MoveSearch(rules: rules, policies: [compiled], vocabulary: Vocabulary([policy]), budget: work)
        var q = MoveQuery()
        q.crossSection = true
        q.destination = { $0.selected(by: section) }
        q.mustBreak = [a]
        q.mustNotHold = Set(rules.indices.filter { rules[$0].holds })
        return search.findMove(q)
    }
}
