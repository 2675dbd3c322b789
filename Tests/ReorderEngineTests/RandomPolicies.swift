import ReorderEngine

/// A small, seedable generator so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random tables and policies over small vocabularies, so selectors often hit.
struct RandomPolicies {
    var rng: SplitMix64
    var rowIDs = ["a", "b", "c", "d", "2", "x\"y"]
    var kinds = ["item", "add", "status"]
    var tags = ["x", "y"]
    var sectionIDs = ["In", "Out", "all", "2", "a b"]
    var sectionKinds = ["bucket", "pool"]
    var attributeNames = ["wip", "floor"]
    /// How deep random selectors nest lists and `not` (SPEC §8.1, §8.2).
    var depth = 0

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    mutating func pick<T>(_ list: [T]) -> T { list[int(0...(list.count - 1))] }

    /// A row selector at one of `constants` (first, last, index or index from the end), or
    /// none, sometimes with an id (when `ids`) and a kind: thresholds far apart, for the
    /// segment-mode tests.
    mutating func sparseRows(_ constants: [Int], ids: Bool) -> RowSelector {
        var position: RowPositionFilter? = nil
        if chance(0.7) {
            let c = pick(constants)
            switch int(0...3) {
            case 0: position = .first(c)
            case 1: position = .last(c)
            case 2: position = .indices([c])
            default: position = .indices([-c])
            }
        }
        var s = RowSelector(position: position)
        if ids, chance(0.3) { s.ids = [pick(rowIDs)] }
        if chance(0.2) { s.kinds = [pick(kinds)] }
        return s
    }
    mutating func some<T>(_ list: [T], max: Int = 2) -> [T] { (0..<int(0...max)).map { _ in pick(list) } }

    mutating func table() -> Table {
        Table(sections: (0..<int(1...4)).map { _ in
            Section(id: chance(0.6) ? pick(sectionIDs) : nil, kind: chance(0.5) ? pick(sectionKinds) : nil, tags: some(tags),
                    attributes: Dictionary(attributeNames.filter { _ in chance(0.5) }.map { ($0, int(0...5)) }, uniquingKeysWith: { a, _ in a }),
                    rows: (0..<int(0...5)).map { _ in
                Row(id: pick(rowIDs), kind: chance(0.6) ? pick(kinds) : nil, tags: some(tags))
            })
        })
    }

    mutating func sectionSelector() -> SectionSelector {
        switch int(0...6) {
        case 0: return .all
        case 1: return .index(int(-3...3))
        case 2: return .id(pick(sectionIDs))
        case 3 where depth < 2, 4 where depth < 2: return .matching(sectionFilter())
        default:
            return .some((0..<int(0...3)).map { _ in
                switch int(0...4) {
                case 0, 1: .index(int(-4...4))
                case 2, 3: .id(pick(sectionIDs))
                default: depth < 2 ? .matching(sectionFilter()) : .index(int(-4...4))
                }
            })
        }
    }

    /// The mapping form of a section selector (SPEC §8.2).
    mutating func sectionFilter() -> SectionFilter {
        depth += 1
        defer { depth -= 1 }
        // Each registered key draws itself (Selectors/SelectorKeyReferences.swift).
        var keys: [any SectionFilterKey] = []
        for type in SectionFilterRegistry.keys {
            if let random = type as? any RandomSectionKey.Type, let key = random.random(&self) as? any SectionFilterKey { keys.append(key) }
        }
        return SectionFilter(keys: keys)
    }

    mutating func rowSelector() -> RowSelector {
        if chance(0.15) { return .all }
        if depth < 2 && chance(0.15) {
            // A list (SPEC §8.1), sometimes nested.
            depth += 1
            defer { depth -= 1 }
            // Written flat: the loader reads nested lists as one list (SPEC §8.5), a decoder test covers nesting.
            return .anyOf((0..<int(0...3)).flatMap { _ in rowSelector().flattened })
        }
        // Each registered key draws itself (Selectors/SelectorKeyReferences.swift); the keys of
        // an exclusive group share one draw: a member, or none (two draws in five).
        var keys: [any RowSelectorKey] = []
        var drawn = Set<String>()
        for type in RowSelectorRegistry.keys {
            guard let random = type as? any RandomSelectorKey.Type else { continue }
            if let group = type.exclusiveGroup {
                guard drawn.insert(group).inserted else { continue }
                let members = RowSelectorRegistry.keys.filter { $0.exclusiveGroup == group }.compactMap { $0 as? any RandomSelectorKey.Type }
                let r = int(0...(members.count + 1))
                if r < members.count, let key = members[r].random(&self) as? any RowSelectorKey { keys.append(key) }
            } else if let key = random.random(&self) as? any RowSelectorKey {
                keys.append(key)
            }
        }
        return RowSelector(keys: keys)
    }

    /// A rule of a kind drawn from the registry, weighted, built by that kind's test file.
    mutating func rule(_ n: Int) -> RowRule {
        let kinds = RuleRegistry.rowKinds.compactMap { $0 as? any RandomRuleKind.Type }
        var r = int(0...(kinds.map { $0.weight }.reduce(0, +) - 1))
        for kind in kinds {
            let weight = kind.weight
            if r < weight { return RowRule(make(kind), metadata: RuleMetadata(id: "rule-\(n)")) }
            r -= weight
        }
        fatalError("no rule kinds")
    }

    private mutating func make<Kind: RandomRuleKind>(_ kind: Kind.Type) -> RowRule.Kind {
        Kind.random(&self)
    }

    /// Which sections a random section rule selects.
    mutating func sectionRuleTarget() -> SectionRuleTarget {
        switch int(0...2) {
        case 0: .first(int(1...2))
        case 1: .last(int(1...2))
        default: .sections(sectionSelector())
        }
    }

    /// A section rule of a kind drawn from the registry, weighted, built by that kind's test file.
    mutating func sectionRule(_ n: Int) -> SectionRule {
        let kinds = SectionRuleRegistry.kinds.compactMap { $0 as? any RandomSectionRuleKind.Type }
        var r = int(0...(kinds.map { $0.weight }.reduce(0, +) - 1))
        for kind in kinds {
            if r < kind.weight { return SectionRule(makeSection(kind), metadata: RuleMetadata(id: "section-rule-\(n)")) }
            r -= kind.weight
        }
        fatalError("no section-rule kinds")
    }

    private mutating func makeSection<Kind: RandomSectionRuleKind>(_ kind: Kind.Type) -> SectionRule.Kind {
        Kind.random(&self)
    }

    mutating func policy() -> Policy {
        Policy(name: "random", retarget: chance(0.3) ? pick([.cancel, .sourceSection]) : .nearest,
               rules: (0..<int(0...4)).map { rule($0 + 1) },
               sectionRules: (0..<int(0...2)).map { sectionRule($0 + 1) })
    }

    /// A move that fits `table`.
    mutating func rowMove(in table: Table) -> (Position, Position)? {
        let nonEmpty = table.sections.indices.filter { !table.sections[$0].rows.isEmpty }
        guard !nonEmpty.isEmpty else { return nil }
        let s = pick(nonEmpty)
        let i = int(0...(table.sections[s].rows.count - 1))
        let t = int(0...(table.sections.count - 1))
        let limit = t == s ? table.sections[s].rows.count - 1 : table.sections[t].rows.count
        return (Position(section: s, row: i), Position(section: t, row: int(0...limit)))
    }
}

extension RowSelector {
    /// A list's items, or the selector itself.
    var flattened: [RowSelector] { alternatives ?? [self] }
}

/// A section-rule kind's random draw, in its test file.
protocol RandomSectionRuleKind {
    static var weight: Int { get }
    static func random(_ g: inout RandomPolicies) -> SectionRule.Kind
}

/// How random policies make rules of one kind; each kind's test file conforms its type.
protocol RandomRuleKind {
    /// How often random policies use the kind, relative to the others.
    static var weight: Int { get }
    /// A random rule of this kind over the generator's small vocabularies.
    static func random(_ g: inout RandomPolicies) -> RowRule.Kind
}
