extension BoundPolicy {
    /// Whether section `index` can be picked up.
    public func canMoveSection(_ index: Int) -> Bool {
        index >= 0 && index < counts.count && !fixedImmovable[index] && !movingImmovable[index]
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
        // Binary search each ascending pinned list for neighbours of `a`.
        func narrow(_ pinned: [Int]) {
            let l = Self.firstIndex(in: pinned, atLeast: a)
            if l > 0 { lo = Swift.max(lo, pinned[l - 1] + 1) }
            if l < pinned.count { hi = Swift.min(hi, pinned[l]) }
        }
        narrow(fixedPinned)
        narrow(movingPinned)
        return (lo, hi - 1)
    }

    func decideSection(_ move: Move, _ from: Int, _ to: Int) -> Decision {
        let rules = compiled.policy.sectionRules
        if !canMoveSection(from) {
            let violations = rules.indices.compactMap { index in
                sectionRuleHolds(index, from).map {
                    Violation(compiled.sectionRuleReferences[index], reason: $0.reason)
                }
            }
            return Decision(move: move, kind: .denied, target: .section(from), violations: violations, placeholder: compiled.noViolation)
        }
        let (lo, hi) = sectionInterval(from)
        if to >= lo && to <= hi { return Decision(move: move, kind: .allowed, target: .section(to), violations: [], placeholder: compiled.noViolation) }
        var violations: [Violation] = []
        for index in rules.indices {
            let f = evaluateSectionRule(index, from, to)
            if f.violated {
                violations.append(Violation(compiled.sectionRuleReferences[index], reason: f.reason))
            }
        }
        let target = targetSection(from: from, proposed: to)
        return Decision(move: move, kind: target == from ? .rejected : .retargeted, target: .section(target), violations: violations, placeholder: compiled.noViolation)
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
        case .notApplicable(let reason): return .notApplicable(reason.reason)
        case .applies(let reason): return check.broken ? .violated(reason.reason) : .pass(reason.reason)
        }
    }

    /// Follows section `a` moved to `b` on a binding of the section rules alone (`diff`'s
    /// leading section moves). Only the sections between `a` and `b` change index, and no
    /// section changes data, so (``SectionMoveEffect``): the table's sections, the counts and
    /// the flags of rules whose target reads data move as bytes; of those that also read
    /// indices, the sections now or before at a listed index are evaluated again; rules whose
    /// target reads indices alone hold the same ones. Each step costs a move of the elements
    /// between the two places plus the pins there, not a pass over the table.
    mutating func followSection(_ a: Int, _ b: Int) throws(MoveError) {
        try validate(.section(from: a, to: b))
        guard a != b else { return }
        Self.moveElement(&boundTable.sections, a, b)
        Self.moveElement(&counts, a, b)
        let effects = compiled.sectionMoveEffects
        guard effects.contains(where: { !$0.stays }) else { return }  // the same indices held
        let count = counts.count
        var again: [Int] = []  // where a rule's selection was evaluated again
        for r in effects.indices {
            switch effects[r] {
            case .stays: continue
            case .moves: Self.moveElement(&sectionEffects[r].held, a, b)
            case .changes(let indices):
                Self.moveElement(&sectionEffects[r].held, a, b)
                let target = compiled.policy.sectionRules[r].target
                for v in Self.reindexed(indices, a, b, count: count) {
                    sectionEffects[r].held[v] = target.selects(SectionSite(section: boundTable.sections[v], index: v, count: count))
                    again.append(v)
                }
            }
        }
        // Their union and their pins go with the sections, then are redone where a selection
        // was evaluated again.
        Self.moveElement(&movingImmovable, a, b)
        let lo = Swift.min(a, b), hi = Swift.max(a, b)
        let start = Self.firstIndex(in: movingPinned, atLeast: lo)
        let stop = Self.firstIndex(in: movingPinned, atLeast: hi + 1)
        var shifted: [Int] = []
        shifted.reserveCapacity(stop - start)
        var wasPinned = false
        for p in movingPinned[start..<stop] {
            if p == a { wasPinned = true } else { shifted.append(a < b ? p - 1 : p + 1) }
        }
        if wasPinned { shifted.insert(b, at: Self.firstIndex(in: shifted, atLeast: b)) }
        movingPinned.replaceSubrange(start..<stop, with: shifted)
        for v in again {
            var held = false, pinned = false
            for r in effects.indices where !effects[r].stays && sectionEffects[r].held[v] {
                held = true
                if sectionEffects[r].pins { pinned = true }
            }
            movingImmovable[v] = held
            let k = Self.firstIndex(in: movingPinned, atLeast: v)
            let listed = k < movingPinned.count && movingPinned[k] == v
            if pinned && !listed { movingPinned.insert(v, at: k) }
            if !pinned && listed { movingPinned.remove(at: k) }
        }
    }

    /// After section `a` moved to `b`, the sections a target listing `indices` (negative: from
    /// the end, of `count`) may now select differently: the one now at a listed index and the
    /// one that was there, where either changed index.
    static func reindexed(_ indices: [Int], _ a: Int, _ b: Int, count: Int) -> [Int] {
        let lo = Swift.min(a, b), hi = Swift.max(a, b)
        var places: [Int] = []
        for i in indices {
            let r = i < 0 ? count + i : i
            guard r >= lo && r <= hi else { continue }  // no section there changed index
            places.append(r)
            places.append(r == a ? b : a < b ? r - 1 : r + 1)
        }
        return places
    }

    /// The first index of ascending `list` whose element is at least `value` (`list.count` if none).
    static func firstIndex(in list: [Int], atLeast value: Int) -> Int {
        var l = 0, h = list.count
        while l < h {
            let mid = (l + h) >> 1
            if list[mid] < value { l = mid + 1 } else { h = mid }
        }
        return l
    }

    /// Moves `array[a]` to index `b`, shifting the elements between by one: a move of the
    /// bytes between the two places (no retain or release per element, nothing past them).
    private static func moveElement<T>(_ array: inout [T], _ a: Int, _ b: Int) {
        array.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, a != b else { return }
            let element = (base + a).move()
            if a < b {
                (base + a).moveInitialize(from: base + a + 1, count: b - a)
            } else {
                (base + b + 1).moveInitialize(from: base + b, count: a - b)
            }
            (base + b).initialize(to: element)
        }
    }
}
