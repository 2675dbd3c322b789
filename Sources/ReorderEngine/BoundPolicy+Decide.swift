/// What one rule says about one proposal.
struct RuleFinding {
    var applies: Bool
    var violated: Bool
    var reason: Reason

    static func notApplicable(_ reason: Reason) -> RuleFinding { RuleFinding(applies: false, violated: false, reason: reason) }
    static func pass(_ reason: Reason) -> RuleFinding { RuleFinding(applies: true, violated: false, reason: reason) }
    static func violated(_ reason: Reason) -> RuleFinding { RuleFinding(applies: true, violated: true, reason: reason) }
}

extension BoundPolicy {
    /// Decides one proposal (SPEC §2.4). Throws ``MoveError`` when it does not fit the table
    /// (the `invalid` result); range checks come before everything else.
    public func decide(_ move: Move) throws(MoveError) -> Decision {
        try validate(move)
        switch move {
        case .row(let from, let to): return decideRow(move, from, to)
        case .section(let from, let to): return decideSection(move, from, to)
        }
    }

    /// Decides `move` and adds every rule's verdict and the valid destinations, for `explain`.
    public func explain(_ move: Move) throws(MoveError) -> Explanation {
        let decision = try decide(move)
        var entries: [(order: SourceLocation?, position: Int, entry: TraceEntry)] = []
        let policy = compiled.policy
        switch move {
        case .row(let from, let to):
            let denied = decision.kind == .denied
            // Each rule is asked once per move: the decision already knows which rules the move
            // breaks (its violations, worded) and that the others hold (an allowed move breaks
            // none); only the wording of the rules that hold is left.
            var broken: [Int: Reason] = [:]
            for v in decision.violations { broken[v.ruleReference.ordinal] = v.details }
            for (index, rule) in policy.rules.enumerated() {
                let finding: RuleFinding
                if denied {
                    finding = holdsMovingRow(index, from) ?? .notApplicable("the row cannot be picked up, so no move is made")
                } else if let reason = broken[compiled.rowRuleReferences[index].ordinal] {
                    finding = .violated(reason)
                } else {
                    finding = wordRowRule(index, from, to, broken: false)
                }
                entries.append((rule.metadata.location, entries.count, traceEntry(rule.metadata, rule.keyword, finding)))
            }
            for rule in policy.sectionRules {
                entries.append((rule.metadata.location, entries.count,
                                traceEntry(rule.metadata, rule.keyword, .notApplicable("section rules apply to section moves only"))))
            }
        case .section(let from, let to):
            let denied = decision.kind == .denied
            for rule in policy.rules {
                entries.append((rule.metadata.location, entries.count,
                                traceEntry(rule.metadata, rule.keyword, .notApplicable("row rules apply to row moves only"))))
            }
            // As for rows: the decision's violations are the section rules the move breaks.
            var broken: [Int: Reason] = [:]
            for v in decision.violations { broken[v.ruleReference.ordinal] = v.details }
            for (index, rule) in policy.sectionRules.enumerated() {
                let finding: RuleFinding
                if denied {
                    finding = sectionRuleHolds(index, from) ?? .notApplicable("the section cannot be picked up, so no move is made")
                } else if let reason = broken[compiled.sectionRuleReferences[index].ordinal] {
                    finding = .violated(reason)
                } else {
                    finding = evaluateSectionRule(index, from, to)
                }
                entries.append((rule.metadata.location, entries.count, traceEntry(rule.metadata, rule.keyword, finding)))
            }
        }
        // File order: by location where every rule has one, else rules then section rules.
        if entries.allSatisfy({ $0.order != nil }) {
            // Every order is present: just checked.
            entries.sort { ($0.order!, $0.position) < ($1.order!, $1.position) }
        }
        var validRows: [ValidRows] = [], validSections: [ClosedRange<Int>] = []
        switch move {
        case .row(let from, _): validRows = validDestinations(from: from)
        case .section(let from, _): validSections = validSectionDestinations(from: from)
        }
        return Explanation(decision: decision, trace: entries.map(\.entry), validRows: validRows, validSections: validSections)
    }

    private func traceEntry(_ meta: RuleMetadata, _ kind: String, _ f: RuleFinding) -> TraceEntry {
        TraceEntry(rule: meta.id, kind: kind, message: meta.message, location: meta.location,
                   applies: f.applies, verdict: f.violated ? .violated : (f.applies ? .pass : .notApplicable), reason: f.reason)
    }

    private func violation(_ index: Int, _ reason: Reason) -> Violation {
        Violation(compiled.rowRuleReferences[index], reason: reason)
    }

    // MARK: - Rows

    private func decideRow(_ move: Move, _ from: Position, _ to: Position) -> Decision {
        if immovable.contains(from.section, from.row) {
            let violations = effects.indices.compactMap { index in
                holdsMovingRow(index, from).map { violation(index, $0.reason) }
            }
            return Decision(move: move, kind: .denied, target: .row(from), violations: violations, placeholder: compiled.noViolation)
        }
        let context = sourceContext(from)
        if isValid(to, context) {
            return Decision(move: move, kind: .allowed, target: .row(to), violations: [], placeholder: compiled.noViolation)
        }
        var first: Violation?, more: [Violation] = []
        for index in effects.indices where breaks(index, from, to) {
            // Reasons are worded only for the rules that are broken (each decided once).
            let broken = violation(index, wordRowRule(index, from, to, broken: true).reason)
            if first == nil { first = broken } else { more.append(broken) }
        }
        let target = retargetCancel ? from : nearest(to: to, context)
        return Decision(move: move, kind: target == from ? .rejected : .retargeted, target: .row(target), first: first, more: more,
                        placeholder: compiled.noViolation)
    }

    /// For a rule that holds the row at `from` (a lock, pin or reserve): why it cannot be picked up.
    func holdsMovingRow(_ index: Int, _ from: Position) -> RuleFinding? {
        guard let held = effects[index].held, held.contains(from) else { return nil }
        return .violated("row \(rowName(from)) at \(from) is \(held.word)")
    }

    /// One row rule's verdict on moving the (movable) row at `from` to `to`, once ``breaks(_:_:_:)``
    /// has said whether the move breaks it (the unit only words it).
    func wordRowRule(_ index: Int, _ from: Position, _ to: Position, broken: Bool) -> RuleFinding {
        let wording = withUnsafePointer(to: self) { bound in
            compiled.rules[index].word(RowCheck(bound: bound, rule: index, from: from, to: to, broken: broken))
        }
        switch wording {
        case .notApplicable(let reason): return broken ? .violated(reason) : .notApplicable(reason)
        case .applies(let reason): return broken ? .violated(reason) : .pass(reason)
        }
    }
}
