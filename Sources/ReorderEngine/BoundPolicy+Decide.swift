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
        try table.validate(move)
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
            for (index, rule) in policy.rules.enumerated() {
                let finding: RuleFinding
                if denied {
                    finding = holdsMovingRow(index, from) ?? .notApplicable("the row cannot be picked up, so no move is made")
                } else {
                    finding = evaluateRowRule(index, from, to)
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
            for (index, rule) in policy.sectionRules.enumerated() {
                let finding: RuleFinding
                if denied {
                    finding = sectionRuleHolds(index, from) ?? .notApplicable("the section cannot be picked up, so no move is made")
                } else {
                    finding = evaluateSectionRule(index, from, to)
                }
                entries.append((rule.metadata.location, entries.count, traceEntry(rule.metadata, rule.keyword, finding)))
            }
        }
        // File order: by location where every rule has one, else rules then section rules.
        if entries.allSatisfy({ $0.order != nil }) {
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
        let rules = compiled.policy.rules
        if immovable.contains(from.section, from.row) {
            let violations = rules.indices.compactMap { index in
                holdsMovingRow(index, from).map { violation(index, $0.reason) }
            }
            return Decision(move: move, kind: .denied, target: .row(from), violations: violations)
        }
        let context = sourceContext(from)
        if isValid(to, context) {
            return Decision(move: move, kind: .allowed, target: .row(to), violations: [])
        }
        var violations: [Violation] = []
        for index in rules.indices where violates(index, from, to) {
            // Reasons are built only for the rules that are broken.
            let finding = evaluateRowRule(index, from, to)
            violations.append(violation(index, finding.reason))
        }
        let target = retargetCancel ? from : nearest(to: to, context)
        return Decision(move: move, kind: target == from ? .rejected : .retargeted, target: .row(target), violations: violations)
    }

    /// For a lock, pin or reserve rule that selects the row at `from`: why it cannot be picked up.
    func holdsMovingRow(_ index: Int, _ from: Position) -> RuleFinding? {
        guard let h = compiled.holdIndexOfRule[index] else { return nil }
        guard holdStart[h].contains(from.section, from.row) || holdEnd[h].contains(from.section, from.row) else { return nil }
        let hold = compiled.holds[h]
        let word = hold.reserved ? "reserved" : (hold.pins ? "pinned" : "locked")
        return .violated("row \(rowName(from)) at \(from) is \(word)")
    }

    /// Whether row rule `index` forbids moving the (movable) row at `from` to `to`: the cheap
    /// check behind ``evaluateRowRule(_:_:_:)``, which also words the reason.
    func violates(_ index: Int, _ from: Position, _ to: Position) -> Bool {
        let s = from.section, i = from.row, t = to.section, j = to.row
        switch compiled.policy.rules[index].kind {
        case .lock:
            return false
        case .pin, .reserve:
            let h = compiled.holdIndexOfRule[index]!
            let start = holdStart[h], end = holdEnd[h]
            if t == s {
                guard j != i else { return false }
                let (lo, hi) = j < i ? (j, i - 1) : (i + 1, j)
                return start.firstIn(s, lo, hi) != nil || end.firstIn(s, lo, hi) != nil
            }
            return start.firstIn(s, i + 1, counts[s] - 1) != nil || end.firstIn(s, 0, i - 1) != nil
                || start.firstIn(t, j, counts[t] - 1) != nil || end.firstIn(t, 0, j - 1) != nil
        case .keepInSection:
            return t != s && query(compiled.queryIndexOfRule[index]!, s, i)
        case .accept:
            let a = compiled.acceptIndexOfRule[index]!
            return t != s && acceptCovers[a][t] && !(acceptsFrom(a, s) && query(acceptQueries[a], s, i))
        case .capacity(_, let max, let min):
            guard t != s else { return false }
            let covers = capacityCovers[index]!
            if covers[t], let max, counts[t] + 1 > max { return true }
            if covers[s], let min, counts[s] - 1 < min { return true }
            return false
        }
    }

    /// One row rule's verdict on moving the (movable) row at `from` to `to`.
    func evaluateRowRule(_ index: Int, _ from: Position, _ to: Position) -> RuleFinding {
        let rule = compiled.policy.rules[index]
        let s = from.section, i = from.row, t = to.section
        switch rule.kind {
        case .lock:
            return .notApplicable("does not select \(rowName(from)); locked rows may still shift")
        case .pin, .reserve:
            let h = compiled.holdIndexOfRule[index]!
            let word = compiled.holds[h].reserved ? "reserved" : "pinned"
            return evaluateHold(h, word: word, from: from, to: to)
        case .keepInSection:
            let q = compiled.queryIndexOfRule[index]!
            guard query(q, s, i) else { return .notApplicable("does not select \(rowName(from))") }
            if t == s { return .pass("\(rowName(from)) stays in \(sectionName(s))") }
            return .violated("moving \(rowName(from)) to \(to) would take it out of its \(sectionName(s))")
        case .accept:
            let a = compiled.acceptIndexOfRule[index]!
            if t == s { return .notApplicable("the move stays within \(sectionName(s))") }
            guard acceptCovers[a][t] else { return .notApplicable("does not cover \(sectionName(t))") }
            if !acceptsFrom(a, s) {
                return .violated("\(sectionName(t)) does not accept rows from \(sectionName(s))")
            }
            if !query(acceptQueries[a], s, i) {
                return .violated("\(sectionName(t)) does not accept row \(rowName(from))")
            }
            return .pass("\(sectionName(t)) accepts \(rowName(from)) from \(sectionName(s))")
        case .capacity(_, let max, let min):
            if t == s { return .notApplicable("moves within one section are never limited") }
            let covers = capacityCovers[index]!
            let into = covers[t] && max != nil, outOf = covers[s] && min != nil
            guard into || outOf else { return .notApplicable("limits neither \(sectionName(s)) nor \(sectionName(t))") }
            var problems: [Reason] = [], fine: [Reason] = []
            if into, let max {
                let after = counts[t] + 1
                if after > max {
                    problems.append("moving \(rowName(from)) to \(to) would put \(plural(after, "row")) in \(sectionName(t)), more than its max of \(max)")
                } else {
                    fine.append("\(sectionName(t)) would hold \(after) of at most \(max)")
                }
            }
            if outOf, let min {
                let after = counts[s] - 1
                if after < min {
                    problems.append("moving \(rowName(from)) to \(to) would leave \(plural(after, "row")) in \(sectionName(s)), fewer than its min of \(min)")
                } else {
                    fine.append("\(sectionName(s)) would keep \(after) of at least \(min)")
                }
            }
            return problems.isEmpty ? .pass(Reason.joined(fine)) : .violated(Reason.joined(problems))
        }
    }

    /// A pin or reserve rule: does the move shift any row it holds?
    private func evaluateHold(_ h: Int, word: String, from: Position, to: Position) -> RuleFinding {
        let s = from.section, i = from.row, t = to.section, j = to.row
        let start = holdStart[h], end = holdEnd[h]
        let touches = !start.isEmpty(s) || !end.isEmpty(s) || (t != s && (!start.isEmpty(t) || !end.isEmpty(t)))
        guard touches else {
            let sections: Reason = t == s ? "\(sectionName(s))" : "\(sectionName(s)) or \(sectionName(t))"
            return .notApplicable("holds no row in \(sections)")
        }
        // Each candidate: (section, index, new index or nil when the index stays, rows after before, after).
        var shifted: [(u: Int, k: Int, to: Int?, after: (Int, Int))] = []
        var total = 0
        func consider(_ ranges: SectionRanges, _ u: Int, _ lo: Int, _ hi: Int, _ describe: (Int) -> (Int?, (Int, Int))) {
            let n = ranges.count(u, lo, hi)
            guard n > 0, let k = ranges.firstIn(u, lo, hi) else { return }
            total += n
            let (newIndex, after) = describe(k)
            shifted.append((u, k, newIndex, after))
        }
        let ns = counts[s]
        if t == s {
            let (lo, hi, delta) = j < i ? (j, i - 1, 1) : (i + 1, j, -1)
            if j != i {
                for ranges in [start, end] {
                    consider(ranges, s, lo, hi) { k in (k + delta, (ns - 1 - k, ns - 1 - k - delta)) }
                }
            }
        } else {
            let nt = counts[t]
            consider(start, s, i + 1, ns - 1) { k in (k - 1, (0, 0)) }
            consider(end, s, 0, i - 1) { k in (nil, (ns - 1 - k, ns - 2 - k)) }
            consider(start, t, j, nt - 1) { k in (k + 1, (0, 0)) }
            consider(end, t, 0, j - 1) { k in (nil, (nt - 1 - k, nt - k)) }
        }
        guard let first = shifted.min(by: { ($0.u, $0.k) < ($1.u, $1.k) }) else {
            return .pass("no \(word) row would shift")
        }
        let here = Position(section: first.u, row: first.k)
        var reason: Reason
        if let newIndex = first.to {
            reason = "moving \(rowName(from)) to \(to) would shift \(word) row \(rowName(here)) from \(here) to \(Position(section: first.u, row: newIndex))"
        } else {
            reason = "moving \(rowName(from)) to \(to) would change the rows after \(word) row \(rowName(here)) at \(here) from \(first.after.0) to \(first.after.1)"
        }
        if total > 1 { reason.parts += [.text(" (and "), .number(total - 1), .text(" more)")] }
        return .violated(reason)
    }

    // MARK: - Names

    func rowName(_ p: Position) -> Reason.Part {
        .quoted(table.sections[p.section].rows[p.row].id)
    }

    func sectionName(_ u: Int) -> Reason.Part {
        .section(u, id: table.sections[u].id)
    }

    func plural(_ n: Int, _ word: String) -> Reason { "\(n) \(word)\(n == 1 ? "" : "s")" }
}

extension BoundPolicy {
    /// How the row at `p` is held, for drawings: "pinned", "reserved" and/or "locked", in rule order.
    public func holds(at p: Position) -> [String] {
        guard p.section >= 0, p.section < counts.count, p.row >= 0, p.row < counts[p.section] else { return [] }
        var words: [String] = []
        for (h, hold) in compiled.holds.enumerated()
        where holdStart[h].contains(p.section, p.row) || holdEnd[h].contains(p.section, p.row) {
            let word = hold.reserved ? "reserved" : (hold.pins ? "pinned" : "locked")
            if !words.contains(word) { words.append(word) }
        }
        return words
    }

    /// How section `u` is held: "pinned" and/or "locked".
    public func sectionHolds(_ u: Int) -> [String] {
        var words: [String] = []
        for (index, rule) in compiled.policy.sectionRules.enumerated() where sectionRuleSelected[index][u] {
            let word = rule.keyword == "pin" ? "pinned" : "locked"
            if !words.contains(word) { words.append(word) }
        }
        return words
    }
}
