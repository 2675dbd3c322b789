import ReorderEngine

/// A selector key's meaning written straight from SPEC §2.1 and §8.1, for
/// ``ReferenceEvaluator`` (which shares no code with the engine's matching): whether the key
/// selects the row at `p`, and whether through the end.
protocol ReferenceKeyMeaning {
    func referenceSelects(_ p: Position, in reference: ReferenceEvaluator) -> (matches: Bool, fromEnd: Bool)
}

/// How the random policies draw a key. Keys of one exclusive group are drawn together: one
/// draw picks a member or none (``RandomPolicies/rowSelector()``).
protocol RandomSelectorKey {
    /// A random key, or nil to leave it out of this mapping (the key draws its own chance).
    static func random(_ g: inout RandomPolicies) -> Self?
}

extension SectionKey: ReferenceKeyMeaning, RandomSelectorKey {
    func referenceSelects(_ p: Position, in reference: ReferenceEvaluator) -> (matches: Bool, fromEnd: Bool) {
        (reference.sections(sections).selected.contains(p.section), false)
    }

    static func random(_ g: inout RandomPolicies) -> Self? { g.chance(0.4) ? Self(g.sectionSelector()) : nil }
}

extension FirstKey: ReferenceKeyMeaning, RandomSelectorKey {
    func referenceSelects(_ p: Position, in reference: ReferenceEvaluator) -> (matches: Bool, fromEnd: Bool) {
        (p.row < count, false)
    }

    static func random(_ g: inout RandomPolicies) -> Self? { Self(count: g.int(1...3)) }
}

extension LastKey: ReferenceKeyMeaning, RandomSelectorKey {
    func referenceSelects(_ p: Position, in reference: ReferenceEvaluator) -> (matches: Bool, fromEnd: Bool) {
        let n = reference.table.sections[p.section].rows.count
        return p.row >= n - count ? (true, true) : (false, false)
    }

    static func random(_ g: inout RandomPolicies) -> Self? { Self(count: g.int(1...3)) }
}

extension IndexKey: ReferenceKeyMeaning, RandomSelectorKey {
    func referenceSelects(_ p: Position, in reference: ReferenceEvaluator) -> (matches: Bool, fromEnd: Bool) {
        let n = reference.table.sections[p.section].rows.count
        let direct = indices.contains(p.row)
        let fromEnd = indices.contains { $0 < 0 && n + $0 == p.row }
        return (direct || fromEnd, fromEnd)
    }

    static func random(_ g: inout RandomPolicies) -> Self? { Self(indices: (0..<g.int(0...3)).map { _ in g.int(-4...4) }) }
}

extension IDKey: ReferenceKeyMeaning, RandomSelectorKey {
    func referenceSelects(_ p: Position, in reference: ReferenceEvaluator) -> (matches: Bool, fromEnd: Bool) {
        (words.contains(reference.table.sections[p.section].rows[p.row].id), false)
    }

    static func random(_ g: inout RandomPolicies) -> Self? { g.chance(0.25) ? Self(g.some(g.rowIDs, max: 3)) : nil }
}

extension KindKey: ReferenceKeyMeaning, RandomSelectorKey {
    func referenceSelects(_ p: Position, in reference: ReferenceEvaluator) -> (matches: Bool, fromEnd: Bool) {
        guard let kind = reference.table.sections[p.section].rows[p.row].kind else { return (false, false) }
        return (words.contains(kind), false)
    }

    static func random(_ g: inout RandomPolicies) -> Self? { g.chance(0.2) ? Self(g.some(g.kinds)) : nil }
}

extension TagKey: ReferenceKeyMeaning, RandomSelectorKey {
    func referenceSelects(_ p: Position, in reference: ReferenceEvaluator) -> (matches: Bool, fromEnd: Bool) {
        (!Set(words).isDisjoint(with: reference.table.sections[p.section].rows[p.row].tags), false)
    }

    static func random(_ g: inout RandomPolicies) -> Self? { g.chance(0.15) ? Self(g.some(g.tags)) : nil }
}

extension NotKey: ReferenceKeyMeaning, RandomSelectorKey {
    // Its keys never make the row selected through the end.
    func referenceSelects(_ p: Position, in reference: ReferenceEvaluator) -> (matches: Bool, fromEnd: Bool) {
        (!reference.selects(excluded, p).0, false)
    }

    static func random(_ g: inout RandomPolicies) -> Self? {
        guard g.depth < 2 && g.chance(0.2) else { return nil }
        g.depth += 1
        defer { g.depth -= 1 }
        return Self(g.rowSelector())
    }
}

/// A section key's meaning written straight from SPEC §8.2, for ``ReferenceEvaluator``.
protocol ReferenceSectionKeyMeaning {
    func referenceSelects(_ u: Int, in reference: ReferenceEvaluator) -> Bool
}

/// How the random policies draw a section key.
protocol RandomSectionKey {
    static func random(_ g: inout RandomPolicies) -> Self?
}

extension SectionIndexKey: ReferenceSectionKeyMeaning, RandomSectionKey {
    func referenceSelects(_ u: Int, in reference: ReferenceEvaluator) -> Bool {
        let count = reference.table.sections.count
        return indices.map { $0 < 0 ? count + $0 : $0 }.contains(u)
    }

    static func random(_ g: inout RandomPolicies) -> Self? { g.chance(0.25) ? Self((0..<g.int(0...2)).map { _ in g.int(-3...3) }) : nil }
}

extension SectionIDKey: ReferenceSectionKeyMeaning, RandomSectionKey {
    func referenceSelects(_ u: Int, in reference: ReferenceEvaluator) -> Bool {
        reference.table.sections[u].id.map { words.contains($0) } ?? false
    }

    static func random(_ g: inout RandomPolicies) -> Self? { g.chance(0.25) ? Self(g.some(g.sectionIDs)) : nil }
}

extension SectionKindKey: ReferenceSectionKeyMeaning, RandomSectionKey {
    func referenceSelects(_ u: Int, in reference: ReferenceEvaluator) -> Bool {
        reference.table.sections[u].kind.map { words.contains($0) } ?? false
    }

    static func random(_ g: inout RandomPolicies) -> Self? { g.chance(0.4) ? Self(g.some(g.sectionKinds)) : nil }
}

extension SectionTagKey: ReferenceSectionKeyMeaning, RandomSectionKey {
    func referenceSelects(_ u: Int, in reference: ReferenceEvaluator) -> Bool {
        !Set(words).isDisjoint(with: reference.table.sections[u].tags)
    }

    static func random(_ g: inout RandomPolicies) -> Self? { g.chance(0.3) ? Self(g.some(g.tags)) : nil }
}

extension SectionNotKey: ReferenceSectionKeyMeaning, RandomSectionKey {
    func referenceSelects(_ u: Int, in reference: ReferenceEvaluator) -> Bool {
        !reference.sections(excluded).selected.contains(u)
    }

    static func random(_ g: inout RandomPolicies) -> Self? { g.chance(0.3) ? Self(g.sectionSelector()) : nil }
}
