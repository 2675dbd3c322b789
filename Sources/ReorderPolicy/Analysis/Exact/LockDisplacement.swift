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
            case .hold, .keepInSection, .accept, .capacity, .keepOrder: false
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
        for r in locks {
            q.mustBreak = [r]
            // Every row the lock holds is pinned at the start by another rule: "none" at once
            // (the search would have to exhaust every frame to say so). Else the table that
            // shows such a row often shows a move that shifts it too: tried on the engine.
            switch ask({ $0.findHeldRow(mustHold: [r], mustNotHold: startPins) }) {
            case .none:
                out[r] = SearchResult.none
                continue
            case .found(let held) where held.table.sections.reduce(0, { $0 + $1.rows.count }) <= 64:
                // (Every move of the table is tried: only on a small one. A long run's table
                // goes to the search, which places the move itself.)
                if let w = PolicyAnalyzer.displacements(of: [r], on: [held.table], original)[r] {
                    out[r] = .found(w)
                    continue
                }
            case .found, .unknown: break
            }
            out[r] = ask { $0.findMove(q) }
        }
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
