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
        let outline = outlineRow(move, from, to)
        var first: Violation?, more: [Violation] = []
        if !outline.rules.isEmpty {  // an allowed move words nothing: no address needed
            withUnsafePointer(to: self) { address in
                for index in outline.rules {
                    var reason = WordedReason()
                    word(index, of: outline, at: address, into: &reason)
                    let broken = violation(index, reason.reason)
                    if first == nil { first = broken } else { more.append(broken) }
                }
            }
        }
        return Decision(move: move, kind: outline.kind, target: outline.target, first: first, more: more,
                        placeholder: compiled.noViolation)
    }

    /// Decides a row move as far as ``decide(_:)`` does, without wording the rules it names
    /// (``withJSONReason(_:of:at:_:)`` words them). A section move has no outline: nil.
    package func outline(_ move: Move) throws(MoveError) -> DecisionOutline? {
        guard case .row(let from, let to) = move else {
            try validate(move)
            return nil
        }
        return try outline(from: from, to: to)
    }

    /// ``outline(_:)`` of the row move from `from` to `to`. Not optional: a batch's runner
    /// destroyed each `DecisionOutline?` through the generic `Optional` value witness (a
    /// merged outlined destroy), about 90 instructions a move (issue #26).
    package func outline(from: Position, to: Position) throws(MoveError) -> DecisionOutline {
        let move = Move.row(from: from, to: to)
        try validate(move)
        return outlineRow(move, from, to)
    }

    /// The outcome of moving the row at `from` to `to` (SPEC §2.4), and the rules that hold
    /// the row (`denied`) or that the move breaks, by index in file order.
    private func outlineRow(_ move: Move, _ from: Position, _ to: Position) -> DecisionOutline {
        var rules = RuleIndexSet()
        if immovable.contains(from.section, from.row) {
            for index in effects.indices where holds(index, from) { rules.insert(index) }
            return DecisionOutline(move: move, kind: .denied, target: .row(from), rules: rules)
        }
        let context = sourceContext(from)
        if isValid(to, context) {
            return DecisionOutline(move: move, kind: .allowed, target: .row(to), rules: rules)
        }
        for index in effects.indices where breaks(index, from, to) { rules.insert(index) }
        let target = retarget(to, context, from: from)
        return DecisionOutline(move: move, kind: target == from ? .rejected : .retargeted, target: .row(target), rules: rules)
    }

    /// Calls `body` with the text (UTF-8) of why row rule `index`, one of `outline`'s rules,
    /// holds the row or is broken, as the content of a JSON string (escaped, without its
    /// quotes), worded in place: nothing is kept (nor allocated, for the usual reason of up to
    /// 128 bytes), and nothing scanned to escape it (``JSONWordedReason``).
    ///
    /// `address` is where the caller keeps this binding (a copy of it) for the call, and the
    /// rule's wording reads rows and sections there. Precondition: `address.pointee` is a copy
    /// of `self`, from which the rule's unit is taken. Without an address, the binding was
    /// copied whole (425 bytes) per reason to have one (issue #26); and `self` is still
    /// needed, as a method called on `address.pointee` (the unit, out of `compiled.rules`)
    /// copies what it is called on, with a retain and a release.
    package func withJSONReason(_ index: Int, of outline: DecisionOutline, at address: UnsafePointer<BoundPolicy>,
                                _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var reason = JSONWordedReason()
        word(index, of: outline, at: address, into: &reason)
        reason.withUTF8(body)
    }

    /// Words into `reason` why row rule `index`, one of `outline`'s rules, holds the row or is
    /// broken (reasons are worded only for the rules named, each decided once); `address` as
    /// ``withJSONReason(_:of:at:_:)`` has it.
    func word<W: ReasonText>(_ index: Int, of outline: DecisionOutline, at address: UnsafePointer<BoundPolicy>, into reason: inout W) {
        guard case .row(let from, let to) = outline.move else { preconditionFailure("an outline of a section move") }
        if outline.kind == .denied, let held = effects[index].held {
            reason = heldWording(held, from)
        } else {
            _ = rowWording(index, from, to, broken: true, at: address, into: &reason)
        }
    }

    /// Whether row rule `index` holds the row at `from` (a lock, pin or reserve).
    private func holds(_ index: Int, _ from: Position) -> Bool {
        effects[index].held?.contains(from) ?? false
    }

    private func heldWording<W: ReasonText>(_ held: HeldRows, _ from: Position) -> W {
        "row \(rowName(from)) at \(from) is \(held.word)"
    }

    /// For a rule that holds the row at `from` (a lock, pin or reserve): why it cannot be picked up.
    func holdsMovingRow(_ index: Int, _ from: Position) -> RuleFinding? {
        guard let held = effects[index].held, held.contains(from) else { return nil }
        return .violated((heldWording(held, from) as WordedReason).reason)
    }

    /// One row rule's verdict on moving the (movable) row at `from` to `to`, once ``breaks(_:_:_:)``
    /// has said whether the move breaks it (the unit only words it).
    func wordRowRule(_ index: Int, _ from: Position, _ to: Position, broken: Bool) -> RuleFinding {
        var reason: WordedReason = ""
        switch rowWording(index, from, to, broken: broken, into: &reason) {
        case .notApplicable: return broken ? .violated(reason.reason) : .notApplicable(reason.reason)
        case .applies: return broken ? .violated(reason.reason) : .pass(reason.reason)
        }
    }

    private func rowWording(_ index: Int, _ from: Position, _ to: Position, broken: Bool, into reason: inout WordedReason) -> RuleScope {
        withUnsafePointer(to: self) { rowWording(index, from, to, broken: broken, at: $0, into: &reason) }
    }

    /// ``rowWording(_:_:_:broken:into:)`` with this binding kept at `address` (a copy of it).
    /// (`reason` is passed on by address: captured `inout` by the closure, it was copied in
    /// and out whole, 145 bytes each way.)
    private func rowWording<W: ReasonText>(_ index: Int, _ from: Position, _ to: Position, broken: Bool, at address: UnsafePointer<BoundPolicy>,
                                           into reason: inout W) -> RuleScope {
        withUnsafeMutablePointer(to: &reason) { reason in
            compiled.rules[index].word(RowCheck(bound: address, rule: index, from: from, to: to, broken: broken), into: &reason.pointee)
        }
    }
}

/// A row move decided as far as its outcome, its target and the rules that refuse it, before
/// any reason is worded (``BoundPolicy/outline(_:)``).
package struct DecisionOutline: Sendable {
    /// The proposal (a row move).
    package var move: Move
    /// The outcome.
    package var kind: DecisionKind
    /// Where the row ends up.
    package var target: Destination
    /// The row rules that hold the row (`denied`) or that the move breaks, in file order:
    /// ``Decision/violations``, by index.
    package var rules: RuleIndexSet
}

/// A set of rule indices, iterated in increasing order: a bit per index below 64 (a policy's
/// usual rules, so no allocation) and an array past them.
package struct RuleIndexSet: Sequence, Sendable {
    @usableFromInline var low: UInt64 = 0
    @usableFromInline var high: [Int] = []

    package init() {}

    /// Whether the set has no index.
    @inlinable package var isEmpty: Bool { low == 0 && high.isEmpty }

    /// Adds `index`, greater than every index in the set.
    @inlinable package mutating func insert(_ index: Int) {
        if index < 64 { low |= 1 << UInt64(index) } else { high.append(index) }
    }

    package struct Iterator: IteratorProtocol {
        @usableFromInline var low: UInt64
        @usableFromInline let high: [Int]
        @usableFromInline var position = 0

        @inlinable init(low: UInt64, high: [Int]) {
            self.low = low
            self.high = high
        }

        @inlinable package mutating func next() -> Int? {
            if low != 0 {
                let index = low.trailingZeroBitCount
                low &= low &- 1
                return index
            }
            guard position < high.count else { return nil }
            defer { position += 1 }
            return high[position]
        }
    }

    @inlinable package func makeIterator() -> Iterator { Iterator(low: low, high: high) }

    /// Calls `body` with each index in increasing order. Unlike an iterator, it takes no
    /// reference to the indices past 63 when there are none (a batch's JSON output named its
    /// rules through an iterator: a retain and a release of the empty array per move).
    @inlinable package func forEach(_ body: (Int) -> Void) {
        var bits = low
        while bits != 0 {
            body(bits.trailingZeroBitCount)
            bits &= bits &- 1
        }
        if !high.isEmpty { for index in high { body(index) } }
    }
}
