import ReorderEngine

/// The classes of sections the frozen question is asked for, besides every section (issue #62,
/// item 1; docs/ANALYSIS.md, "Which sections"): the sections each rule names however it words
/// them (a list's items, an accept's sections that rows may not come from), and the
/// intersections of two such classes, since rows may be kept in a section by one rule and in
/// their order by another, neither naming the sections both do (`keep-order: { kind: fixed }`
/// with `keep-in-section: { section: { tag: closed } }`).
///
/// A class is a ``SectionSelector``, so a finding says its sections as the policy would
/// write them, and a test can select them.
enum SectionClasses {
    /// The intersection of two classes: its selector, or no section at all. (What one mapping
    /// cannot say with one key, two tag lists or indices from either end, it says through its
    /// `not`.)
    enum Meet: Equatable {
        case selector(SectionSelector)
        case empty
    }

    /// The sections both `a` and `b` select.
    static func meet(_ a: SectionSelector, _ b: SectionSelector) -> Meet {
        switch (a, b) {
        case (.all, _): return .selector(b)
        case (_, .all): return .selector(a)
        case (.some(let left), .some(let right)):
            var refs: [SectionReference] = []
            for x in left {
                for y in right {
                    switch meet(x, y) {
                    case .selector(.some(let more)): for r in more where !refs.contains(r) { refs.append(r) }
                    case .selector(.all): return .selector(.all)
                    case .empty: continue
                    }
                }
            }
            return refs.isEmpty ? .empty : .selector(.some(refs))
        }
    }

    /// Whether `s` selects every section however it is written: `all`, `[all]`, an empty
    /// mapping (`{}`), or a mapping whose only key excludes nothing (`{ not: [] }`).
    static func selectsEverySection(_ s: SectionSelector) -> Bool {
        switch s {
        case .all: return true
        case .some(let refs):
            return refs.contains { ref in
                guard case .matching(let f) = ref else { return false }
                return f.keys.isEmpty || (f.keys.count == 1 && f.not == SectionSelector.some([]))
            }
        }
    }

    /// The sections neither of `s` selects: the double negation of a lone `not` undone.
    static func complement(_ s: SectionSelector) -> SectionSelector {
        switch s {
        case .all: return .some([])
        case .some(let refs):
            if refs.count == 1, case .matching(let f) = refs[0], let inner = f.not, f.keys.count == 1 { return plain(inner) }
            return .matching(SectionFilter(not: s))
        }
    }

    private static func meet(_ x: SectionReference, _ y: SectionReference) -> Meet {
        switch (x, y) {
        case (.id(let p), .id(let q)): return p == q ? .selector(.id(p)) : .empty
        case (.index(let i), .index(let j)) where i == j || (i < 0) == (j < 0):
            // Two indices from the same end are two sections.
            return i == j ? .selector(.index(i)) : .empty
        default:
            guard let f = merge(filter(x), filter(y)) else { return .empty }
            return .selector(plain(.matching(f)))
        }
    }

    /// One reference as a mapping.
    private static func filter(_ r: SectionReference) -> SectionFilter {
        switch r {
        case .id(let id): SectionFilter(ids: [id])
        case .index(let i): SectionFilter(indices: [i])
        case .matching(let f): f
        }
    }

    /// The mapping both select, or nil when no section matches both.
    private static func merge(_ f: SectionFilter, _ g: SectionFilter) -> SectionFilter? {
        var out = f
        func words(_ a: [String]?, _ b: [String]?) -> [String]?? {
            guard let a, let b else { return .some(a ?? b) }
            let both = a.filter(b.contains)
            return both.isEmpty ? nil : .some(both)
        }
        // A section has one id and one kind: the lists meet.
        guard let ids = words(f.ids, g.ids), let kinds = words(f.kinds, g.kinds) else { return nil }
        out.ids = ids
        out.kinds = kinds
        // What one mapping cannot say with one key is said through its `not`: the sections
        // that the other's key does not select are left out (`{ not: { tag: b } }` under `not`).
        var excluded: [SectionReference] = []
        // A section needs one tag of each list.
        out.tags = f.tags ?? g.tags
        if let a = f.tags, let b = g.tags, Set(a) != Set(b) {
            excluded.append(.matching(SectionFilter(not: .matching(SectionFilter(tags: b)))))
        }
        out.indices = f.indices ?? g.indices
        if let a = f.indices, let b = g.indices, Set(a) != Set(b) {
            // Indices from one end name one section each: the lists meet.
            func end(_ list: [Int]) -> Int { list.allSatisfy { $0 >= 0 } ? 1 : list.allSatisfy { $0 < 0 } ? -1 : 0 }
            if end(a) != 0 && end(a) == end(b) {
                let both = a.filter(b.contains)
                if both.isEmpty { return nil }
                out.indices = both
            } else {
                excluded.append(.matching(SectionFilter(not: .matching(SectionFilter(indices: b)))))
            }
        }
        switch (f.not, g.not) {
        case (let a?, let b?):
            switch (a, b) {
            case (.all, _), (_, .all): return nil
            case (.some(let x), .some(let y)): out.not = .some(x + y.filter { !x.contains($0) })
            }
        case (let a, let b): out.not = a ?? b
        }
        if !excluded.isEmpty {
            switch out.not {
            case .all?: return nil
            case .some(let refs)?: out.not = .some(refs + excluded)
            case nil: out.not = .some(excluded)
            }
        }
        // Ids listed and ids excluded: the excluded ids drop out of the list, and an exclusion
        // of ids alone says nothing more once the list is known.
        if let ids = out.ids, case .some(let refs)? = out.not, refs.allSatisfy({ if case .id = $0 { true } else { false } }) {
            let kept = ids.filter { id in !refs.contains(.id(id)) }
            if kept.isEmpty { return nil }
            out.ids = kept
            out.not = nil
        }
        return out
    }

    /// A mapping of ids alone written as the ids (`[Done]`, as a policy writes them).
    private static func plain(_ s: SectionSelector) -> SectionSelector {
        guard case .some(let refs) = s else { return s }
        var out: [SectionReference] = []
        for r in refs {
            if case .matching(let f) = r, let ids = f.ids, f.keys.count == 1 { out += ids.map { .id($0) } } else { out.append(r) }
        }
        return .some(out)
    }
}
