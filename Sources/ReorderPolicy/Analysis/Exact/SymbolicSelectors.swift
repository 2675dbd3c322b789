import ReorderEngine

/// Three-valued truth, for evaluating a selector on a row whose id, kind or tags are not all
/// chosen yet (docs/ANALYSIS.md, "The decision procedure").
enum Tri: Equatable {
    case yes, no, unknown

    init(_ b: Bool) { self = b ? .yes : .no }

    static prefix func ! (a: Tri) -> Tri {
        switch a {
        case .yes: .no
        case .no: .yes
        case .unknown: .unknown
        }
    }

    static func && (a: Tri, b: @autoclosure () -> Tri) -> Tri {
        if a == .no { return .no }
        let b = b()
        if b == .no { return .no }
        return a == .yes && b == .yes ? .yes : .unknown
    }

    static func || (a: Tri, b: @autoclosure () -> Tri) -> Tri {
        if a == .yes { return .yes }
        let b = b()
        if b == .yes { return .yes }
        return a == .no && b == .no ? .no : .unknown
    }
}

/// What a policy names: the words and constants that decide what its selectors can tell apart.
/// Every row of every table behaves, towards every selector, like a row built from these words
/// alone (a named id or one id nobody names, a named kind or none, a set of named tags), and
/// every section likewise (docs/ANALYSIS.md, "Abstract rows and sections").
struct Vocabulary {
    /// Row ids, one per class of ids that the same id lists name (interchangeable otherwise).
    var rowIDs: [String] = []
    var rowKinds: [String] = []
    var rowTags: [String] = []
    var sectionIDs: [String] = []
    var sectionKinds: [String] = []
    var sectionTags: [String] = []
    /// The largest position constant of row selectors and reserves: a row's place matters only
    /// as its index below `rowConstant` or its distance from the end below it, else "middle".
    var rowConstant = 0
    /// The same for section indices.
    var sectionConstant = 0
    /// Every threshold a row's index or distance from the end is compared with (`first N`,
    /// `last N`, `reserve` → N; `index: k` → k, k + 1; `index: -k` → k - 1, k), above 0 and
    /// ascending: rows whose index and distance from the end lie between the same thresholds are
    /// at places no positional test tells apart (docs/ANALYSIS.md, "Large position constants").
    var rowBreakpoints: [Int] = []
    /// An id no selector names, for plain rows.
    var plainID = "row"

    init(_ policies: [Policy]) {
        var rowIDLists: [[String]] = [], rowKindLists: [[String]] = [], rowTagLists: [[String]] = []
        var secIDLists: [[String]] = [], secKindLists: [[String]] = [], secTagLists: [[String]] = []
        var allIDs = Set<String>()
        var breakpoints = Set<Int>()
        func section(_ s: SectionSelector?) {
            guard case .some(let refs)? = s else { return }
            for ref in refs {
                switch ref {
                case .index(let i): sectionConstant = max(sectionConstant, i < 0 ? -i : i + 1)
                case .id(let id): secIDLists.append([id])
                case .matching(let f):
                    for i in f.indices ?? [] { sectionConstant = max(sectionConstant, i < 0 ? -i : i + 1) }
                    if let ids = f.ids { secIDLists.append(ids) }
                    if let kinds = f.kinds { secKindLists.append(kinds) }
                    if let tags = f.tags { secTagLists.append(tags) }
                    section(f.not)
                }
            }
        }
        func row(_ s: RowSelector) {
            if let items = s.alternatives { items.forEach(row) }
            section(s.section)
            switch s.position {
            case .first(let n)?, .last(let n)?:
                rowConstant = max(rowConstant, n)
                breakpoints.insert(n)
            case .indices(let list)?:
                for i in list {
                    rowConstant = max(rowConstant, i < 0 ? -i : i + 1)
                    breakpoints.formUnion(i < 0 ? [-i - 1, -i] : [i, i + 1])
                }
            case nil: break
            }
            if let ids = s.ids { rowIDLists.append(ids); allIDs.formUnion(ids) }
            if let kinds = s.kinds { rowKindLists.append(kinds) }
            if let tags = s.tags { rowTagLists.append(tags) }
            if let not = s.not { row(not) }
        }
        for policy in policies {
            for rule in policy.rules {
                switch rule.kind.meaning {
                case .hold(let rows, _, _): row(rows)
                case .reserve(_, let count, let sections):
                    rowConstant = max(rowConstant, count)
                    breakpoints.insert(count)
                    section(sections)
                case .keepInSection(let rows): row(rows)
                case .accept(let sections, let from, let rows): section(sections); section(from); row(rows)
                case .capacity(let sections, _, _, let rows): section(sections); if let rows { row(rows) }
                case .keepOrder(let sections): section(sections)
                }
            }
            for rule in policy.sectionRules {
                switch rule.target {
                case .sections(let s): section(s)
                case .first(let n), .last(let n): sectionConstant = max(sectionConstant, n)
                }
            }
        }
        rowBreakpoints = breakpoints.filter { $0 > 0 }.sorted()
        rowIDs = Self.classes(rowIDLists)
        rowKinds = Self.classes(rowKindLists)
        rowTags = Self.classes(rowTagLists)
        sectionIDs = Self.classes(secIDLists)
        sectionKinds = Self.classes(secKindLists)
        sectionTags = Self.classes(secTagLists)
        var n = 0
        while allIDs.contains(plainID) {
            n += 1
            plainID = "row-\(n)"
        }
    }

    /// One word per class of words that exactly the same lists name: two such words are
    /// interchangeable for every selector, so one stands for all (sorted, so the search is
    /// deterministic).
    static func classes(_ lists: [[String]]) -> [String] {
        var signature: [String: [Int]] = [:]
        for (index, list) in lists.enumerated() {
            for word in Set(list) { signature[word, default: []].append(index) }
        }
        var seen = Set<[Int]>(), out: [String] = []
        for word in signature.keys.sorted() where seen.insert(signature[word] ?? []).inserted { out.append(word) }
        return out
    }
}

/// A row whose id, kind and tags are chosen one by one (nil: not chosen yet).
struct PartialRow {
    var id: String?
    var kindChosen = false
    var kind: String?
    /// Per tag of ``Vocabulary/rowTags``: chosen present, chosen absent, or not chosen (nil).
    var tags: [Bool?]
    let tagNames: [String]

    init(tagNames: [String]) {
        self.tagNames = tagNames
        tags = Array(repeating: nil, count: tagNames.count)
    }

    init(_ row: Row, tagNames: [String]) {
        self.tagNames = tagNames
        id = row.id
        kindChosen = true
        kind = row.kind
        tags = tagNames.map { row.tags.contains($0) }
    }

    var row: Row {
        Row(id: id ?? "", kind: kind, tags: tagNames.indices.filter { tags[$0] == true }.map { tagNames[$0] })
    }

    func hasID(in list: [String]) -> Tri {
        guard let id else { return .unknown }
        return Tri(list.contains(id))
    }

    func hasKind(in list: [String]) -> Tri {
        guard kindChosen else { return .unknown }
        guard let kind else { return .no }
        return Tri(list.contains(kind))
    }

    func hasTag(in list: [String]) -> Tri {
        var unknown = false
        for (k, name) in tagNames.enumerated() where list.contains(name) {
            switch tags[k] {
            case true?: return .yes
            case nil: unknown = true
            case false?: break
            }
        }
        return unknown ? .unknown : .no
    }
}

/// A section as the analysis sees it: its data and its place among `count` sections.
struct SectionSite: Hashable {
    var section: Section
    var index: Int
    var count: Int

    /// Whether `selector` selects this section (SPEC §2.1, §8.2).
    func selected(by selector: SectionSelector) -> Bool {
        switch selector {
        case .all: return true
        case .some(let refs):
            return refs.contains { ref in
                switch ref {
                case .index(let i): return (i < 0 ? count + i : i) == index
                case .id(let id): return section.id == id
                case .matching(let f): return matches(f)
                }
            }
        }
    }

    private func matches(_ f: SectionFilter) -> Bool {
        if let indices = f.indices, !indices.contains(where: { ($0 < 0 ? count + $0 : $0) == index }) { return false }
        if let ids = f.ids, !(section.id.map(ids.contains) ?? false) { return false }
        if let kinds = f.kinds, !(section.kind.map(kinds.contains) ?? false) { return false }
        if let tags = f.tags, !section.tags.contains(where: tags.contains) { return false }
        if let not = f.not, selected(by: not) { return false }
        return true
    }
}

/// Where a row is: its section and its index `k` among `n` rows.
struct RowSite {
    var section: SectionSite
    var k: Int
    var n: Int

    /// Whether `s` selects a row of this site, and whether it does so through the end (which
    /// makes a pin's default anchor `end`, SPEC §7, §8.1), in three-valued logic.
    func match(_ s: RowSelector, _ row: PartialRow) -> (matches: Tri, fromEnd: Tri) {
        if let items = s.alternatives {
            var m = Tri.no, fe = Tri.no
            for item in items {
                let r = match(item, row)
                m = m || r.matches
                fe = fe || r.fromEnd
            }
            return (m, fe)
        }
        if let section = s.section, !self.section.selected(by: section) { return (.no, .no) }
        var fromEnd = false
        switch s.position {
        case .first(let c)?: if k >= c { return (.no, .no) }
        case .last(let c)?:
            if k < n - c { return (.no, .no) }
            fromEnd = true
        case .indices(let list)?:
            var hit = false
            for i in list {
                if i >= 0 { if i == k { hit = true } } else if n + i == k { hit = true; fromEnd = true }
            }
            if !hit { return (.no, .no) }
        case nil: break
        }
        var m = Tri.yes
        if let ids = s.ids { m = m && row.hasID(in: ids) }
        if let kinds = s.kinds { m = m && row.hasKind(in: kinds) }
        if let tags = s.tags { m = m && row.hasTag(in: tags) }
        if let not = s.not { m = m && !match(not, row).matches }
        return (m, fromEnd ? m : .no)
    }
}

/// Finds a row (id, kind, tags from the vocabulary) that meets every constraint, choosing the
/// id, then the kind, then each tag, and abandoning a branch as soon as a constraint is false.
/// Complete: the words of the vocabulary stand for every id, kind and tag (``Vocabulary``).
struct RowSolver {
    let vocabulary: Vocabulary
    /// The work done (constraint evaluations), for the analysis's work budget.
    var work = 0

    init(_ vocabulary: Vocabulary) { self.vocabulary = vocabulary }

    mutating func solve(_ constraints: [(PartialRow) -> Tri]) -> Row? {
        var row = PartialRow(tagNames: vocabulary.rowTags)
        func state() -> Tri {
            var all = Tri.yes
            for c in constraints {
                work += 1
                let v = c(row)
                if v == .no { return .no }
                if v == .unknown { all = .unknown }
            }
            return all
        }
        func tags(_ k: Int) -> Bool {
            let s = state()
            if s == .no { return false }
            if s == .yes || k == row.tags.count {
                if s == .yes { for j in k..<row.tags.count { row.tags[j] = false } }
                return s == .yes
            }
            for value in [false, true] {
                row.tags[k] = value
                if tags(k + 1) { return true }
            }
            row.tags[k] = nil
            return false
        }
        func kinds() -> Bool {
            for kind in [nil] + vocabulary.rowKinds.map(Optional.some) {
                row.kind = kind
                row.kindChosen = true
                if state() != .no, tags(0) { return true }
            }
            row.kindChosen = false
            return false
        }
        for id in [vocabulary.plainID] + vocabulary.rowIDs {
            row.id = id
            if state() != .no, kinds() { return row.row }
        }
        return nil
    }
}
