/// Read-only views of what a bound policy selected, for analysis and tooling.
extension BoundPolicy {
    /// The rows held by row rule `index` (a lock, pin or reserve), with the anchor each is
    /// pinned to (nil for a lock). Empty for other rule kinds.
    public func rowsHeld(byRule index: Int) -> [(position: Position, anchor: Anchor?)] {
        guard let h = compiled.holdIndexOfRule[index] else { return [] }
        let pins = compiled.holds[h].pins
        var out: [(Position, Anchor?)] = []
        for u in counts.indices {
            for (lo, hi) in holdStart[h].ranges(u) {
                for k in lo...hi { out.append((Position(section: u, row: k), pins ? .start : nil)) }
            }
            for (lo, hi) in holdEnd[h].ranges(u) {
                for k in lo...hi { out.append((Position(section: u, row: k), .end)) }
            }
        }
        return out.sorted { $0.0 < $1.0 }
    }

    /// The rows a `keep-in-section` rule or an `accept` rule's `rows` selects, or nil for other kinds.
    public func rowsSelected(byRule index: Int) -> [Position]? {
        let q: Int
        if let k = compiled.queryIndexOfRule[index] {
            q = k
        } else if let a = compiled.acceptIndexOfRule[index] {
            q = acceptQueries[a]
        } else {
            return nil
        }
        var out: [Position] = []
        for u in counts.indices {
            for k in 0..<counts[u] where query(q, u, k) { out.append(Position(section: u, row: k)) }
        }
        return out
    }

    /// The sections an `accept` or `capacity` rule covers (its `section`), or nil for other kinds.
    public func sectionsCovered(byRule index: Int) -> [Int]? {
        if let a = compiled.acceptIndexOfRule[index] { return counts.indices.filter { acceptCovers[a][$0] } }
        if let covers = capacityCovers[index] { return counts.indices.filter { covers[$0] } }
        return nil
    }

    /// The sections section rule `index` holds.
    public func sectionsHeld(bySectionRule index: Int) -> [Int] {
        counts.indices.filter { sectionRuleSelected[index][$0] }
    }

    /// Indices of the row rules that moving the (movable) row at `from` to `to` breaks.
    public func brokenRules(from: Position, to: Position) -> [Int] {
        compiled.policy.rules.indices.filter { violates($0, from, to) }
    }

    /// Indices of the row rules that hold the row at `p` (lock, pin or reserve).
    public func rulesHolding(_ p: Position) -> [Int] {
        compiled.policy.rules.indices.filter { index in
            guard let h = compiled.holdIndexOfRule[index] else { return false }
            return holdStart[h].contains(p.section, p.row) || holdEnd[h].contains(p.section, p.row)
        }
    }

    /// Whether section `from` may be moved to index `to`.
    public func isValidSectionMove(from: Int, to: Int) -> Bool {
        guard canMoveSection(from), to >= 0, to < counts.count else { return false }
        return validSectionDestinations(from: from).contains { $0.contains(to) }
    }
}
