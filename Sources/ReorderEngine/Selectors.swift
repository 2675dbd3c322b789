/// One entry of a section selector: an index (negative counts from the end) or an id.
public enum SectionReference: Hashable, Sendable {
    /// A section index; `-1` is the last section.
    case index(Int)
    /// Every section with this id.
    case id(String)
}

/// Which sections a rule talks about (SPEC §2.1).
public enum SectionSelector: Hashable, Sendable {
    /// Every section.
    case all
    /// The union of these references; empty selects none.
    case some([SectionReference])

    /// A selector for one index.
    public static func index(_ i: Int) -> SectionSelector { .some([.index(i)]) }
    /// A selector for one id.
    public static func id(_ id: String) -> SectionSelector { .some([.id(id)]) }

    /// For each section of `table`, whether it is selected. (A negative index inside a
    /// selector never changes a pin's anchor, SPEC §7, so only the selection matters.)
    func selected(in table: Table) -> [Bool] {
        let count = table.sections.count
        switch self {
        case .all:
            return Array(repeating: true, count: count)
        case .some(let refs):
            var result = Array(repeating: false, count: count)
            for ref in refs {
                switch ref {
                case .index(let i):
                    let resolved = i < 0 ? count + i : i
                    if resolved >= 0 && resolved < count { result[resolved] = true }
                case .id(let id):
                    for (u, section) in table.sections.enumerated() where section.id == id { result[u] = true }
                }
            }
            return result
        }
    }
}

/// The positional part of a row selector: at most one of `first`, `last`, `index`.
public enum RowPositionFilter: Hashable, Sendable {
    /// Rows whose index is below N.
    case first(Int)
    /// The last N rows of their section.
    case last(Int)
    /// Rows whose index is listed; negative entries count from the end.
    case indices([Int])
}

/// Which rows a rule talks about (SPEC §2.1): every present key must match.
public struct RowSelector: Hashable, Sendable {
    /// The rows' sections, or any section when nil.
    public var section: SectionSelector?
    /// The rows' positions, or any position when nil.
    public var position: RowPositionFilter?
    /// Listed ids, or any id when nil.
    public var ids: [String]?
    /// Listed kinds, or any kind when nil.
    public var kinds: [String]?
    /// Listed tags (a row needs one of them), or any tags when nil.
    public var tags: [String]?

    /// Creates a selector; with no arguments it selects every row.
    public init(
        section: SectionSelector? = nil, position: RowPositionFilter? = nil,
        ids: [String]? = nil, kinds: [String]? = nil, tags: [String]? = nil
    ) {
        self.section = section
        self.position = position
        self.ids = ids
        self.kinds = kinds
        self.tags = tags
    }

    /// Every row.
    public static let all = RowSelector()

    /// True when the selector filters on ids, kinds or tags (which needs a look at each row).
    var filtersAttributes: Bool { ids != nil || kinds != nil || tags != nil }
}

/// A row selector prepared for fast matching: id, kind and tag lists become sets.
struct CompiledRowSelector: Sendable {
    let section: SectionSelector?
    let position: RowPositionFilter?
    let ids: Set<String>?
    let kinds: Set<String>?
    let tags: Set<String>?

    init(_ s: RowSelector) {
        section = s.section
        position = s.position
        ids = s.ids.map(Set.init)
        kinds = s.kinds.map(Set.init)
        tags = s.tags.map(Set.init)
    }

    var filtersAttributes: Bool { ids != nil || kinds != nil || tags != nil }

    /// Whether the attribute keys match `row`.
    func matchesAttributes(_ row: Row) -> Bool {
        if let ids, !ids.contains(row.id) { return false }
        if let kinds {
            guard let kind = row.kind, kinds.contains(kind) else { return false }
        }
        if let tags, !row.tags.contains(where: tags.contains) { return false }
        return true
    }

    /// Whether the positional key matches index `k` of `n`, and whether through the end
    /// (`last` or a negative index entry), which makes a pin's default anchor `end`.
    @inline(__always)
    func matchesPosition(_ k: Int, of n: Int) -> (matches: Bool, fromEnd: Bool) {
        guard let position else { return (true, false) }
        switch position {
        case .first(let count): return (k < count, false)
        case .last(let count): return (k >= n - count, true)
        case .indices(let list):
            var matched = false, fromEnd = false
            for i in list {
                if i >= 0 {
                    if i == k { matched = true }
                } else if n + i == k {
                    matched = true
                    fromEnd = true
                }
            }
            return (matched, fromEnd)
        }
    }
}
