/// One entry of a section selector: an index (negative counts from the end), an id, or a
/// mapping that matches sections by their data (SPEC §8.2).
public enum SectionReference: Hashable, Sendable {
    /// A section index; `-1` is the last section.
    case index(Int)
    /// Every section with this id.
    case id(String)
    /// Every section that matches all the filter's keys.
    case matching(SectionFilter)
}

/// The mapping form of a section selector (SPEC §8.2): every key present must match; with no
/// key it matches every section. Its keys are `SectionFilterKey` units registered in
/// `SectionFilterRegistry`; the properties below read and write the built-in ones.
public struct SectionFilter: Hashable, Sendable {
    /// The keys, one per keyword, in registry order.
    package private(set) var keys: [any SectionFilterKey]

    /// Creates a filter; with no arguments it matches every section.
    public init(indices: [Int]? = nil, ids: [String]? = nil, kinds: [String]? = nil, tags: [String]? = nil, not: SectionSelector? = nil) {
        keys = []
        self.indices = indices
        self.ids = ids
        self.kinds = kinds
        self.tags = tags
        self.not = not
    }

    /// A mapping of these keys (a later key of the same keyword replaces an earlier one).
    package init(keys: [any SectionFilterKey]) {
        self.keys = []
        for key in keys { setting(key) }
    }

    /// Adds `key`, replacing a key of the same keyword.
    package mutating func setting(_ key: some SectionFilterKey) {
        let type = type(of: key)
        keys.removeAll { Swift.type(of: $0) == type }
        let rank = SectionFilterRegistry.rank(type)
        keys.insert(key, at: keys.firstIndex { SectionFilterRegistry.rank(Swift.type(of: $0)) > rank } ?? keys.count)
    }

    /// The key of type `K`, if any.
    package func key<K: SectionFilterKey>(_: K.Type) -> K? {
        for key in keys { if let k = key as? K { return k } }
        return nil
    }

    private mutating func set<K: SectionFilterKey>(_ type: K.Type, _ key: K?) {
        if let key { setting(key) } else { keys.removeAll { Swift.type(of: $0) == type } }
    }

    /// Listed indices (negative count from the end), or any index when nil.
    public var indices: [Int]? {
        get { key(SectionIndexKey.self)?.indices }
        set { set(SectionIndexKey.self, newValue.map(SectionIndexKey.init)) }
    }

    /// Listed ids (compared as text: `all` is just an id here), or any id when nil.
    public var ids: [String]? {
        get { key(SectionIDKey.self)?.words }
        set { set(SectionIDKey.self, newValue.map(SectionIDKey.init)) }
    }

    /// Listed kinds, or any kind when nil.
    public var kinds: [String]? {
        get { key(SectionKindKey.self)?.words }
        set { set(SectionKindKey.self, newValue.map(SectionKindKey.init)) }
    }

    /// Listed tags (a section needs one of them), or any tags when nil.
    public var tags: [String]? {
        get { key(SectionTagKey.self)?.words }
        set { set(SectionTagKey.self, newValue.map(SectionTagKey.init)) }
    }

    /// Sections that must not match, or nil.
    public var not: SectionSelector? {
        get { key(SectionNotKey.self)?.excluded }
        set { set(SectionNotKey.self, newValue.map(SectionNotKey.init)) }
    }

    /// For each section of `table`, whether it matches every key. Each key is evaluated once
    /// for the whole table (a `not` too), so a filter costs per section, not per section pair.
    func matches(in table: Table) -> [Bool] {
        var result = [Bool](repeating: true, count: table.sections.count)
        for key in keys {
            for (u, hit) in key.selected(in: table).enumerated() where !hit { result[u] = false }
        }
        return result
    }

    /// Whether the section at `site` matches every key.
    package func meaning(_ site: SectionSite) -> Bool {
        // By index: iterating copies each existential key (a retain per key per call), and the
        // analysis asks this for every section of every frame.
        for i in keys.indices where !keys[i].meaning(site) { return false }
        return true
    }

    /// Tells `sink` the words and indices every key compares sections with.
    package func words<Sink: SectionWordSink>(into sink: inout Sink) {
        for key in keys { key.words(into: &sink) }
    }

    public static func == (a: SectionFilter, b: SectionFilter) -> Bool {
        a.keys.count == b.keys.count && a.keys.indices.allSatisfy { AnyHashable(a.keys[$0]) == AnyHashable(b.keys[$0]) }
    }

    public func hash(into hasher: inout Hasher) {
        for key in keys { hasher.combine(AnyHashable(key)) }
    }
}

/// Which sections a rule talks about (SPEC §2.1, §8.2).
public enum SectionSelector: Hashable, Sendable {
    /// Every section.
    case all
    /// The union of these references; empty selects none.
    case some([SectionReference])

    /// A selector for one index.
    public static func index(_ i: Int) -> SectionSelector { .some([.index(i)]) }
    /// A selector for one id.
    public static func id(_ id: String) -> SectionSelector { .some([.id(id)]) }
    /// A selector for the sections that match `filter` (the mapping form).
    public static func matching(_ filter: SectionFilter) -> SectionSelector { .some([.matching(filter)]) }

    /// For each section of `table`, whether it is selected (for tools outside the engine).
    package func selectedSections(in table: Table) -> [Bool] { selected(in: table) }

    /// For each section of `table`, whether it is selected. (A negative index inside a
    /// selector never changes a pin's anchor, SPEC §7, so only the selection matters.)
    /// Costs per section (and per reference), never per row.
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
                case .matching(let filter):
                    for (u, hit) in filter.matches(in: table).enumerated() where hit { result[u] = true }
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

/// A row selector prepared for fast matching: id, kind and tag lists become sets. A plain
/// mapping keeps the fast positional paths; a list or a `not` is matched row by row at bind
/// (``RowMatcher``), so per move it costs what an id selector costs.
struct CompiledRowSelector: Sendable, Equatable {
    let section: SectionSelector?
    let position: RowPositionFilter?
    let ids: Set<String>?
    let kinds: Set<String>?
    let tags: Set<String>?
    /// The `not` selector (zero or one).
    let not: [CompiledRowSelector]
    /// A list's items, or nil for a mapping.
    let alternatives: [CompiledRowSelector]?
    /// The keys the fast paths do not know (``RowSelectorKeyForm/other``), as one mapping
    /// matched row by row through their own tests (zero or one).
    let others: [RowSelector]
    /// Every position named at any depth of its lists and `not` (what a move can change the
    /// match of: ``QueryFollower``, the counts of `capacity`'s `rows`), worked out once.
    let positionsRead: [RowPositionFilter]

    init(_ s: RowSelector) {
        var section: SectionSelector?, position: RowPositionFilter?
        var ids: Set<String>?, kinds: Set<String>?, tags: Set<String>?
        var not: [CompiledRowSelector] = [], others: [any RowSelectorKey] = []
        for key in s.keys {
            switch key.form {
            case .section(let x): section = x
            case .position(let x): position = x
            case .ids(let x): ids = Set(x)
            case .kinds(let x): kinds = Set(x)
            case .tags(let x): tags = Set(x)
            case .not(let x): not = [CompiledRowSelector(x)]
            case .other: others.append(key)
            }
        }
        (self.section, self.position, self.ids, self.kinds, self.tags, self.not) = (section, position, ids, kinds, tags, not)
        self.others = others.isEmpty ? [] : [RowSelector(keys: others)]
        alternatives = s.alternatives?.map(CompiledRowSelector.init)
        positionsRead = (position.map { [$0] } ?? []) + not.flatMap(\.positionsRead) + (alternatives ?? []).flatMap(\.positionsRead)
    }

    /// A plain mapping: no list, no `not`, only keys the fast paths know.
    var isPlain: Bool { alternatives == nil && not.isEmpty && others.isEmpty }

    /// True when matching needs a look at each row (ids, kinds, tags, or any list or `not`).
    var filtersAttributes: Bool { ids != nil || kinds != nil || tags != nil || !isPlain }

    /// Whether the selector reads a row's id, kind and tags only: no `section` and no position
    /// at any depth of its lists and `not`. Its answer is then a function of the row's content,
    /// which a ``RowContentMemo`` remembers per class of equal rows (`not: { id: x }` in
    /// `diff`: a ``RowMatcher`` per row per bind was most of its cost).
    var isContentOnly: Bool {
        section == nil && position == nil && others.isEmpty && not.allSatisfy(\.isContentOnly)
            && (alternatives ?? []).allSatisfy(\.isContentOnly)
    }

    /// Whether keys the fast paths do not know appear at any depth of its lists and `not`.
    var readsOtherKeys: Bool {
        !others.isEmpty || not.contains(where: \.readsOtherKeys) || (alternatives ?? []).contains(where: \.readsOtherKeys)
    }

    /// Whether `row`'s content matches the whole selector, lists and `not` included (as
    /// ``RowMatcher`` does; meaningful when ``isContentOnly``).
    func matchesContent(_ row: Row) -> Bool {
        if let alternatives { return alternatives.contains { $0.matchesContent(row) } }
        return matchesAttributes(row) && !(not.first?.matchesContent(row) ?? false)
    }

    /// Whether the id, kind and tag keys match `row` (one test, ``AttributeTest``, for every caller).
    func matchesAttributes(_ row: Row) -> Bool {
        withUnsafePointer(to: row) { AttributeTest(self, memo: nil).matches(0, 0, $0) }
    }

    /// The id, kind and tag keys: what ``matchesAttributes(_:)`` reads (``RowContentMemo`` keys).
    struct AttributeKeys: Equatable {
        let ids: Set<String>?
        let kinds: Set<String>?
        let tags: Set<String>?
    }

    var attributeKeys: AttributeKeys { AttributeKeys(ids: ids, kinds: kinds, tags: tags) }

    /// Whether it has an id, kind or tag key (``matchesAttributes(_:)`` is not always true).
    var hasAttributeKeys: Bool { ids != nil || kinds != nil || tags != nil }

    /// Whether the positional key matches index `k` of `n`, and whether through the end
    /// (`last` or a negative index entry), which makes a pin's default anchor `end`.
    @inline(__always)
    func matchesPosition(_ k: Int, of n: Int) -> (matches: Bool, fromEnd: Bool) {
        guard let position else { return (true, false) }
        switch position {
        case .first(let count): return (k < count, false)
        case .last(let count): return (k >= n - count, true)
        case .indices(let list): return IndexKey.hit(list, k, n)
        }
    }
}

/// A row selector with every section selector inside it resolved on one table, for matching
/// row by row (lists and `not`, SPEC §8.1). Built once per rule per bind: the sections are
/// looked at once per selector, the rows once each.
final class RowMatcher {
    /// Per section whether the `section` key selects it (empty: no `section` key).
    private let inSection: [Bool]
    private let selector: CompiledRowSelector
    private let test: AttributeTest
    private let not: [RowMatcher]
    private let alternatives: [RowMatcher]
    private let isList: Bool
    /// The keys the fast paths do not know, through their own tests.
    private let others: RowKeyTest?

    // A class, read through index loops: matching a row copies no matcher (a struct of arrays
    // would be retained and released at every nested call, once per row).
    /// `memo`: whether the id/kind/tag tests read the bind's memo (rows as bound); a matcher
    /// that tests rows after moves (``QueryFollower``) reads the rows themselves, and takes no
    /// memo site.
    init(_ selector: CompiledRowSelector, _ binder: inout RuleBinder, memo: Bool = true) {
        self.selector = selector
        inSection = selector.section?.selected(in: binder.table) ?? []
        test = memo ? binder.attributeTest(selector) : AttributeTest(selector, memo: nil)
        not = selector.not.map { RowMatcher($0, &binder, memo: memo) }
        alternatives = selector.alternatives?.map { RowMatcher($0, &binder, memo: memo) } ?? []
        isList = selector.alternatives != nil
        others = selector.others.first?.bind(binder.table)
    }

    /// Whether the row `k` of section `u` (of `n` rows) matches, and whether some part that
    /// selects it counts from the end (SPEC §8.1: keys inside `not` never do).
    func match(_ u: Int, _ k: Int, _ n: Int, _ row: UnsafePointer<Row>) -> (matches: Bool, fromEnd: Bool) {
        if isList {
            var matched = false
            for i in alternatives.indices {
                let m = alternatives[i].match(u, k, n, row)
                if m.matches {
                    if m.fromEnd { return (true, true) }
                    matched = true
                }
            }
            return (matched, false)
        }
        if !inSection.isEmpty && !inSection[u] { return (false, false) }
        let position = selector.matchesPosition(k, of: n)
        guard position.matches, test.matches(u, k, row) else { return (false, false) }
        if !not.isEmpty && not[0].match(u, k, n, row).matches { return (false, false) }
        guard let others else { return (true, position.fromEnd) }
        let other = others(u, k, n, row)
        return other.matches ? (true, position.fromEnd || other.fromEnd) : (false, false)
    }
}

/// One selector's id/kind/tag test over the rows of the table being bound: through a
/// ``RowContentMemo`` when the bind has one (once per class of equal rows), else row by row.
struct AttributeTest {
    private let selector: CompiledRowSelector
    let memo: RowContentMemo.Site?
    // The keys unwrapped once: reading them through optionals per row retained and
    // released them, and so did passing `rows[k]` by value (75% of binding a big table).
    private let ids: Set<String>, kinds: Set<String>, tags: Set<String>
    private let byId: Bool, byKind: Bool, byTag: Bool

    init(_ selector: CompiledRowSelector, memo: RowContentMemo.Site?) {
        self.selector = selector
        self.memo = memo
        ids = selector.ids ?? []
        kinds = selector.kinds ?? []
        tags = selector.tags ?? []
        byId = selector.ids != nil
        byKind = selector.kinds != nil
        byTag = selector.tags != nil
    }

    /// With a memo: the answer for every row of the table, in table order (cached across binds).
    func allFlags() -> [Bool]? {
        guard let memo else { return nil }
        return memo.memo.flags(memo, selector)
    }

    /// Whether the keys match `row`, row `k` of section `u`.
    @inline(__always)
    func matches(_ u: Int, _ k: Int, _ row: UnsafePointer<Row>) -> Bool {
        if !(byId || byKind || byTag) { return true }
        if let memo { return memo.matches(u, k, selector) }
        if byId && !ids.contains(row.pointee.id) { return false }
        if byKind {
            guard let kind = row.pointee.kind, kinds.contains(kind) else { return false }
        }
        if byTag {
            return row.pointee.tags.withUnsafeBufferPointer { list in
                for tag in list where tags.contains(tag) { return true }
                return false
            }
        }
        return true
    }
}

/// A query that is a list or a `not` whose flags hold each row's whole match (one that reads
/// positions or sections, or any bound without a content memo), kept up to date as a binding
/// follows moves (``BoundPolicy/follow(_:)``).
/// A move changes the match only of the moved row and of rows whose index or section count
/// crosses a place one of its positions names: for `first: c` the rows at `c - 1` and `c`,
/// for `last: c` those at `n - c - 1` and `n - c`, for an index `x` (or `n + x`, negative) the
/// rows at it and beside it, `n` the section's count after the move. Those few rows are
/// tested again (O(positions) per move, not a pass over the section).
final class QueryFollower: @unchecked Sendable {
    // Unchecked: every property is a constant after init, and the matcher's tests read no memo.
    let query: Int
    let matcher: RowMatcher
    private let positions: [RowPositionFilter]

    init(query: Int, _ selector: CompiledRowSelector, _ matcher: RowMatcher) {
        self.query = query
        self.matcher = matcher
        positions = selector.positionsRead
    }

    /// The places of a section of `n` rows whose row may have changed its match (some may lie
    /// outside `0..<n`, and some twice).
    func places(count n: Int, into out: inout [Int]) { Self.places(positions, count: n, into: &out) }

    /// The places of a section of `n` rows where a selector naming `positions` may have changed
    /// its match after a move (some may lie outside `0..<n`, and some twice).
    static func places(_ positions: [RowPositionFilter], count n: Int, into out: inout [Int]) {
        for p in positions {
            switch p {
            case .first(let c):
                out.append(c - 1)
                out.append(c)
            case .last(let c):
                out.append(n - c - 1)
                out.append(n - c)
            case .indices(let list):
                for x in list {
                    let k = x < 0 ? n + x : x
                    out.append(k - 1)
                    out.append(k)
                    out.append(k + 1)
                }
            }
        }
    }
}
