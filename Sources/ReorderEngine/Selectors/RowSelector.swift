/// Which rows a rule talks about (SPEC §2.1, §8.1): a mapping whose keys must all match (its
/// `not` must not), or a list of selectors (their union, ``anyOf(_:)``). A mapping is a set of
/// keys, each a `RowSelectorKey` unit registered in `RowSelectorRegistry`; the properties
/// below read and write the built-in ones.
public struct RowSelector: Hashable, Sendable {
    /// The selector's two shapes (SPEC §8.1).
    package enum Form: Sendable {
        /// Keys that must all match, one per keyword, in registry order (none: every row).
        case mapping([any RowSelectorKey])
        /// A union of selectors (nested lists are flattened by the loader).
        case list([RowSelector])
    }

    // Stored as two plain fields, not as the enum: a two-payload enum keeps its case in spare
    // bits of the array pointer, which LeakSanitizer cannot follow (the fuzzer reported the
    // list selectors of a static policy as leaked).
    private var mappingKeys: [any RowSelectorKey] = []
    private var listItems: [RowSelector]? = nil

    /// The selector's shape.
    package var form: Form {
        if let listItems { return .list(listItems) }
        return .mapping(mappingKeys)
    }

    private mutating func setMapping(_ keys: [any RowSelectorKey]) {
        listItems = nil
        mappingKeys = keys
    }

    private mutating func setList(_ items: [RowSelector]) {
        mappingKeys = []
        listItems = items
    }

    /// Creates a selector; with no arguments it selects every row.
    public init(
        section: SectionSelector? = nil, position: RowPositionFilter? = nil,
        ids: [String]? = nil, kinds: [String]? = nil, tags: [String]? = nil, not: RowSelector? = nil
    ) {
        self.section = section
        self.position = position
        self.ids = ids
        self.kinds = kinds
        self.tags = tags
        self.not = not
    }

    /// A mapping of these keys (a later key of the same keyword or exclusive group replaces an earlier one).
    package init(keys: [any RowSelectorKey]) {
        for key in keys { setting(key) }
    }

    /// Every row.
    public static let all = RowSelector()

    /// A list of selectors: their union (`[]` selects none).
    public static func anyOf(_ items: [RowSelector]) -> RowSelector {
        var s = RowSelector()
        s.setList(items)
        return s
    }

    /// The mapping's keys in registry order; empty for a list.
    package var keys: [any RowSelectorKey] { listItems == nil ? mappingKeys : [] }

    /// Adds `key`, replacing a key of the same keyword or exclusive group. On a list, every item gets it.
    package mutating func setting(_ key: some RowSelectorKey) {
        switch form {
        case .list(let items):
            setList(items.map { var item = $0; item.setting(key); return item })
        case .mapping(var keys):
            let type = type(of: key)
            keys.removeAll { Self.collides(Swift.type(of: $0), type) }
            let rank = RowSelectorRegistry.rank(type)
            let at = keys.firstIndex { RowSelectorRegistry.rank(Swift.type(of: $0)) > rank } ?? keys.count
            keys.insert(key, at: at)
            setMapping(keys)
        }
    }

    /// Removes the key of this type (on a list, from every item).
    package mutating func removing(_ type: any RowSelectorKey.Type) {
        switch form {
        case .list(let items):
            setList(items.map { var item = $0; item.removing(type); return item })
        case .mapping(var keys):
            keys.removeAll { Swift.type(of: $0) == type }
            setMapping(keys)
        }
    }

    /// The key of type `K`, if the mapping has one.
    package func key<K: RowSelectorKey>(_: K.Type) -> K? {
        for key in keys { if let k = key as? K { return k } }
        return nil
    }

    private mutating func set<K: RowSelectorKey>(_ type: K.Type, _ key: K?) {
        if let key { setting(key) } else { removing(type) }
    }

    private static func collides(_ a: any RowSelectorKey.Type, _ b: any RowSelectorKey.Type) -> Bool {
        a == b || (a.exclusiveGroup != nil && a.exclusiveGroup == b.exclusiveGroup)
    }

    // MARK: The built-in keys

    /// A list's items, or nil for a mapping. Setting it makes the selector a list (nil: an empty mapping).
    public var alternatives: [RowSelector]? {
        get { listItems }
        set {
            if let newValue { setList(newValue) } else { setMapping([]) }
        }
    }

    /// The rows' sections, or any section when nil.
    public var section: SectionSelector? {
        get { key(SectionKey.self)?.sections }
        set { set(SectionKey.self, newValue.map(SectionKey.init)) }
    }

    /// The rows' positions (`first`, `last` or `index`), or any position when nil.
    public var position: RowPositionFilter? {
        get {
            for key in keys {
                if case .position(let p) = key.form { return p }
            }
            return nil
        }
        set {
            removing(FirstKey.self)
            removing(LastKey.self)
            removing(IndexKey.self)
            switch newValue {
            case .first(let n)?: setting(FirstKey(count: n))
            case .last(let n)?: setting(LastKey(count: n))
            case .indices(let list)?: setting(IndexKey(indices: list))
            case nil: break
            }
        }
    }

    /// Listed ids, or any id when nil.
    public var ids: [String]? {
        get { key(IDKey.self)?.words }
        set { set(IDKey.self, newValue.map(IDKey.init)) }
    }

    /// Listed kinds, or any kind when nil.
    public var kinds: [String]? {
        get { key(KindKey.self)?.words }
        set { set(KindKey.self, newValue.map(KindKey.init)) }
    }

    /// Listed tags (a row needs one of them), or any tags when nil.
    public var tags: [String]? {
        get { key(TagKey.self)?.words }
        set { set(TagKey.self, newValue.map(TagKey.init)) }
    }

    /// For a mapping of one word list only (`{ kind: card }`, `{ tag: [a, b] }`, `{ id: x }`,
    /// not empty): its key and words, for reasons that name rows in words (`of kind card`).
    package var oneWordList: (key: String, words: [String])? {
        guard alternatives == nil, not == nil, section == nil, position == nil else { return nil }
        switch (ids, kinds, tags) {
        case (nil, let kinds?, nil) where !kinds.isEmpty: return ("kind", kinds)
        case (nil, nil, let tags?) where !tags.isEmpty: return ("tag", tags)
        case (let ids?, nil, nil) where !ids.isEmpty: return ("id", ids)
        default: return nil
        }
    }

    /// Rows that must not match (`not:`), or nil.
    public var not: RowSelector? {
        get { key(NotKey.self)?.excluded }
        set { set(NotKey.self, newValue.map(NotKey.init)) }
    }

    // MARK: Hashable

    public static func == (a: RowSelector, b: RowSelector) -> Bool {
        switch (a.form, b.form) {
        case (.list(let x), .list(let y)): return x == y
        case (.mapping(let x), .mapping(let y)):
            return x.count == y.count && x.indices.allSatisfy { AnyHashable(x[$0]) == AnyHashable(y[$0]) }
        case (.list, .mapping), (.mapping, .list): return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch form {
        case .list(let items):
            hasher.combine(1)
            hasher.combine(items)
        case .mapping(let keys):
            hasher.combine(0)
            for key in keys { hasher.combine(AnyHashable(key)) }
        }
    }
}

extension RowSelector {
    /// Whether the selector selects no row of any table: a list whose items all select none,
    /// or a mapping with a key that selects none on its own (`id: []`, `not: all`).
    package var selectsNothing: Bool {
        switch form {
        case .list(let items): items.allSatisfy(\.selectsNothing)
        case .mapping(let keys): keys.contains { $0.selectsNothing }
        }
    }

    /// Whether some mapping of the selector has `section` keys only (or none): the only kind
    /// that can select every row of a section whatever its rows (``selectsEveryRow(in:)``).
    package var selectsBySectionOnly: Bool {
        switch form {
        case .list(let items): items.contains(where: \.selectsBySectionOnly)
        case .mapping(let keys): keys.allSatisfy { if case .section = $0.form { true } else { false } }
        }
    }

    /// Whether the selector selects every row of the section at `site`, whatever its rows (a
    /// mapping of `section` keys only that select it, or a list with such an item): sound, not
    /// complete (false only means "not shown").
    package func selectsEveryRow(in site: SectionSite) -> Bool {
        switch form {
        case .list(let items):
            return items.contains { $0.selectsEveryRow(in: site) }
        case .mapping(let keys):
            return keys.allSatisfy { key in
                if case .section(let sections) = key.form { return site.selected(by: sections) }
                return false
            }
        }
    }

    /// Whether some row of the section at `site` may be selected: false only when every item
    /// (of a list) has a `section` key that does not select the section.
    package func mayHoldRows(in site: SectionSite) -> Bool {
        switch form {
        case .list(let items):
            return items.contains { $0.mayHoldRows(in: site) }
        case .mapping(let keys):
            for key in keys {
                switch key.form {
                case .section(let sections):
                    if !site.selected(by: sections) { return false }
                case .not(let inner):
                    // `not: { not: rows }` selects what `rows` does (how the analysis writes a
                    // lock as a pin with an anchor): its section keys count.
                    if case .mapping(let innerKeys) = inner.form, innerKeys.count == 1,
                       case .not(let rows) = innerKeys[0].form, !rows.mayHoldRows(in: site) { return false }
                case .position, .ids, .kinds, .tags, .other:
                    break
                }
            }
            return true
        }
    }

    /// Whether some row may be selected through the end (a pin's default anchor `end`).
    package var mayCountFromEnd: Bool {
        switch form {
        case .list(let items): items.contains(where: \.mayCountFromEnd)
        case .mapping(let keys): keys.contains { $0.countsFromEnd }
        }
    }

    /// Tells `sink` every word and position the selector's keys compare rows with.
    package func words<Sink: SelectorWordSink>(into sink: inout Sink) {
        switch form {
        case .list(let items): for item in items { sink.rowSelector(item, negated: false) }
        case .mapping(let keys): for key in keys { key.words(into: &sink) }
        }
    }
}

extension RowSelector {
    /// The selector's concrete meaning on `table`, built from its keys' own tests
    /// (``RowSelectorKey/bind(_:)``) and joined as SPEC §8.1 joins them. The engine matches
    /// keys it does not know this way; tests compare it with the fast paths.
    package func bind(_ table: Table) -> RowKeyTest {
        switch form {
        case .list(let items):
            let tests = items.map { $0.bind(table) }
            return { u, k, n, row in
                var matched = false
                for test in tests {
                    let m = test(u, k, n, row)
                    if m.matches {
                        if m.fromEnd { return (true, true) }
                        matched = true
                    }
                }
                return (matched, false)
            }
        case .mapping(let keys):
            let tests = keys.map { $0.bind(table) }
            return { u, k, n, row in
                var fromEnd = false
                for test in tests {
                    let m = test(u, k, n, row)
                    if !m.matches { return (false, false) }
                    fromEnd = fromEnd || m.fromEnd
                }
                return (true, fromEnd)
            }
        }
    }
}

extension SectionSelector {
    /// Whether the selector selects no section of any table (`[]`, or every entry a mapping
    /// with a key that selects none on its own: an empty list, `not: all`).
    package var selectsNothing: Bool {
        guard case .some(let refs) = self else { return false }
        return refs.allSatisfy { ref in
            guard case .matching(let f) = ref else { return false }
            return f.keys.contains { $0.selectsNothing }
        }
    }
}
