/// Read-only views of what a bound policy selected, for analysis and tooling. Each reads one
/// rule's effects, so it works for every rule kind without knowing any.
extension BoundPolicy {
    /// The rows row rule `index` holds (lock, pin, reserve), with the anchor each is pinned
    /// to (nil for a lock). Empty for rules that hold no rows.
    public func rowsHeld(byRule index: Int) -> [(position: Position, anchor: Anchor?)] {
        guard let held = effects[index].held else { return [] }
        var out: [(Position, Anchor?)] = []
        for u in counts.indices {
            for (lo, hi) in held.start.ranges(u) {
                for k in lo...hi { out.append((Position(section: u, row: k), held.pins ? .start : nil)) }
            }
            for (lo, hi) in held.end.ranges(u) {
                for k in lo...hi { out.append((Position(section: u, row: k), .end)) }
            }
        }
        return out.sorted { $0.0 < $1.0 }
    }

    /// Whether row rule `index` holds rows without pinning them (a lock).
    public func holdsWithoutPinning(rule index: Int) -> Bool {
        effects[index].held.map { !$0.pins } ?? false
    }

    /// The rows a rule's row query selects — the rows that must stay (`keep-in-section`) or
    /// may enter (`accept`'s `rows`) or are counted (`capacity`'s `rows`) — or nil for rules without one.
    public func rowsSelected(byRule index: Int) -> [Position]? {
        guard let q = effects[index].staying ?? effects[index].admission?.rows ?? effects[index].limits?.rows else { return nil }
        var out: [Position] = []
        for u in counts.indices {
            for k in 0..<counts[u] where query(q, u, k) { out.append(Position(section: u, row: k)) }
        }
        return out
    }

    /// The sections a rule guards (`accept`), limits (`capacity`) or fixes the order of, or
    /// nil for rules that act on rows only.
    public func sectionsCovered(byRule index: Int) -> [Int]? {
        let e = effects[index]
        var covered: [Bool]? = nil
        func add(_ flags: [Bool]) {
            var c = covered ?? [Bool](repeating: false, count: counts.count)
            for u in counts.indices where flags[u] { c[u] = true }
            covered = c
        }
        if let a = e.admission { add(a.guarded) }
        if let l = e.limits { add(counts.indices.map { l.max[$0] != nil || l.min[$0] != nil }) }
        if let f = e.fixedOrder { add(f) }
        return covered.map { flags in counts.indices.filter { flags[$0] } }
    }

    /// Whether row rule `index` limits how many rows may come into a section (a `max`).
    public func limitsEntry(rule index: Int) -> Bool {
        effects[index].limits?.max.contains { ($0 ?? 0) >= 1 } ?? false
    }

    /// The sections section rule `index` holds.
    public func sectionsHeld(bySectionRule index: Int) -> [Int] {
        counts.indices.filter { sectionEffects[index].held[$0] }
    }

    /// Indices of the row rules that moving the (movable) row at `from` to `to` breaks.
    public func brokenRules(from: Position, to: Position) -> [Int] {
        effects.indices.filter { breaks($0, from, to) }
    }

    /// Indices of the row rules that hold the row at `p` (lock, pin or reserve).
    public func rulesHolding(_ p: Position) -> [Int] {
        effects.indices.filter { effects[$0].held?.contains(p) ?? false }
    }

    /// Whether section `from` may be moved to index `to`.
    public func isValidSectionMove(from: Int, to: Int) -> Bool {
        guard canMoveSection(from), to >= 0, to < counts.count else { return false }
        return validSectionDestinations(from: from).contains { $0.contains(to) }
    }

    /// How the row at `p` is held, for drawings: "pinned", "reserved" and/or "locked", in rule order.
    public func holds(at p: Position) -> [String] {
        guard p.section >= 0, p.section < counts.count, p.row >= 0, p.row < counts[p.section] else { return [] }
        var words: [String] = []
        for case let held? in effects.map({ $0.held }) where held.contains(p) && !words.contains(held.word) {
            words.append(held.word)
        }
        return words
    }

    /// How section `u` is held: "pinned" and/or "locked".
    public func sectionHolds(_ u: Int) -> [String] {
        var words: [String] = []
        for effects in sectionEffects where effects.held[u] && !words.contains(effects.word) {
            words.append(effects.word)
        }
        return words
    }
}

extension BoundPolicy {
    /// The same binding made again from scratch: the policy compiled anew and bound to a copy
    /// of the table whose strings have storage of their own. Decisions are the same as this
    /// binding's. For a thread that decides many moves beside another: two threads deciding
    /// with one binding update the reference counts of the same objects (the rules, the
    /// table's arrays) from two cores, and on a machine whose cores do not share a cache
    /// those updates cost more than deciding (`check --moves` ran at half speed in some runs:
    /// BENCHMARKS.md). Nil only if the policy no longer compiles, which cannot happen for a
    /// policy that compiled once.
    package func isolatedCopy() -> BoundPolicy? {
        func fresh(_ s: String) -> String { String(decoding: Array(s.utf8), as: UTF8.self) }
        func fresh(_ s: String?) -> String? { s.map(fresh) }
        let sections = table.sections.map { section in
            Section(id: fresh(section.id), kind: fresh(section.kind), tags: section.tags.map(fresh),
                    attributes: Dictionary(uniqueKeysWithValues: section.attributes.map { (fresh($0.key), $0.value) }),
                    rows: section.rows.map { Row(id: fresh($0.id), kind: fresh($0.kind), tags: $0.tags.map(fresh)) })
        }
        guard let compiled = try? CompiledPolicy(compiled.policy) else { return nil }
        return compiled.bind(Table(sections: sections))
    }
}
