import ReorderEngine

/// `lock-displaced` and a closing accept's refused drop, decided by the search instead of the
/// bounded enumeration (docs/ANALYSIS.md, "Locks whose rows shift").
extension ExactAnalysis {
    /// A table and a move that the policy allows and that shifts a row lock `r` holds; `.none`
    /// when no move on any table does (the small-model theorem); `.unknown` when the search
    /// could not answer.
    ///
    /// A row a lock holds is *displaced* when its index changes, which is what breaks a pin of
    /// it anchored at the start. So the question is asked of the policy with the lock turned
    /// into such a pin: a move that breaks that pin and no other rule, of a row no rule holds.
    /// The move breaks nothing in the policy itself (the lock refuses only picking its rows up).
    static func displacement(ofLock r: Int, in policy: Policy, work: Int) -> SearchResult {
        guard case .hold(let rows, pins: false, _) = policy.rules[r].kind.meaning else { return .none }
        var pinned = policy
        // `not: { not: rows }` selects the same rows as a mapping, so the anchor may be given.
        pinned.rules[r] = RowRule(.pin(RowSelector(not: RowSelector(not: rows)), anchor: .start), metadata: policy.rules[r].metadata)
        guard let compiled = try? CompiledPolicy(pinned) else { return .unknown }
        let rules = pinned.rules.enumerated().map { AnalysedRule(policy: 0, index: $0.offset, meaning: $0.element.kind.meaning) }
        var search = MoveSearch(rules: rules, policies: [compiled], vocabulary: Vocabulary([pinned]), budget: work)
        var q = MoveQuery()
        q.mustBreak = [r]
        q.mustNotBreak = Set(rules.indices).subtracting([r])
        q.mustNotHold = Set(rules.indices.filter { rules[$0].holds })
        return search.findMove(q)
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
