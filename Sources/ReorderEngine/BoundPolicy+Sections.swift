extension BoundPolicy {
    /// Whether section `index` can be picked up.
    public func canMoveSection(_ index: Int) -> Bool {
        index >= 0 && index < counts.count && !immovableSections[index]
    }

    /// Where a drag of section `from` over index `proposed` should land (SPEC §2.5).
    public func targetSection(from: Int, proposed: Int) -> Int {
        guard canMoveSection(from), proposed >= 0, proposed < counts.count else { return from }
        let (lo, hi) = sectionInterval(from)
        if proposed >= lo && proposed <= hi { return proposed }
        if retargetCancel { return from }
        return Swift.min(Swift.max(proposed, lo), hi)
    }

    /// Valid destination indices for section `from`, as inclusive ranges; empty when it cannot move.
    public func validSectionDestinations(from: Int) -> [ClosedRange<Int>] {
        guard canMoveSection(from) else { return [] }
        let (lo, hi) = sectionInterval(from)
        return [lo...hi]
    }

    /// Between the nearest pinned sections on either side: every index there keeps every pin in place.
    private func sectionInterval(_ a: Int) -> (Int, Int) {
        var lo = 0, hi = counts.count
        // Binary search the ascending pinned list for neighbours of `a`.
        var l = 0, h = pinnedSections.count
        while l < h {
            let mid = (l + h) >> 1
            if pinnedSections[mid] < a { l = mid + 1 } else { h = mid }
        }
        if l > 0 { lo = pinnedSections[l - 1] + 1 }
        if l < pinnedSections.count { hi = pinnedSections[l] }
        return (lo, hi - 1)
    }

    func decideSection(_ move: Move, _ from: Int, _ to: Int) -> Decision {
        let rules = compiled.policy.sectionRules
        if immovableSections[from] {
            let violations = rules.indices.compactMap { index in
                sectionRuleHolds(index, from).map {
                    Violation(compiled.sectionRuleReferences[index], reason: $0.reason)
                }
            }
            return Decision(move: move, kind: .denied, target: .section(from), violations: violations)
        }
        let (lo, hi) = sectionInterval(from)
        if to >= lo && to <= hi { return Decision(move: move, kind: .allowed, target: .section(to), violations: []) }
        var violations: [Violation] = []
        for index in rules.indices {
            let f = evaluateSectionRule(index, from, to)
            if f.violated {
                violations.append(Violation(compiled.sectionRuleReferences[index], reason: f.reason))
            }
        }
        let target = targetSection(from: from, proposed: to)
        return Decision(move: move, kind: target == from ? .rejected : .retargeted, target: .section(target), violations: violations)
    }

    /// For a section rule that holds section `a`: why it cannot be picked up.
    func sectionRuleHolds(_ index: Int, _ a: Int) -> RuleFinding? {
        let effects = sectionEffects[index]
        guard effects.held[a] else { return nil }
        return .violated("\(sectionName(a)) is \(effects.word)")
    }

    /// One section rule's verdict on moving (movable) section `a` to `b`: broken by its
    /// effects, worded by its unit.
    func evaluateSectionRule(_ index: Int, _ a: Int, _ b: Int) -> RuleFinding {
        let check = SectionCheck(from: a, to: b, effects: sectionEffects[index], table: boundTable)
        switch compiled.sectionRules[index].word(check) {
        case .notApplicable(let reason): return .notApplicable(reason)
        case .applies(let reason): return check.broken ? .violated(reason) : .pass(reason)
        }
    }
}
