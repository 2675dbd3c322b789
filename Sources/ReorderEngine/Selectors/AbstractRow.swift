/// The analysis's abstract rows and sections (docs/ANALYSIS.md, "Abstract rows and sections"):
/// what a selector key's symbolic meaning (``RowSelectorKey/meaning(_:_:)``) is stated over.

/// Three-valued truth, for evaluating a selector on a row whose id, kind or tags are not all
/// chosen yet (docs/ANALYSIS.md, "The decision procedure").
package enum Tri: Equatable, Sendable {
    case yes, no, unknown

    package init(_ b: Bool) { self = b ? .yes : .no }

    package static prefix func ! (a: Tri) -> Tri {
        switch a {
        case .yes: .no
        case .no: .yes
        case .unknown: .unknown
        }
    }

    package static func && (a: Tri, b: @autoclosure () -> Tri) -> Tri {
        if a == .no { return .no }
        let b = b()
        if b == .no { return .no }
        return a == .yes && b == .yes ? .yes : .unknown
    }

    package static func || (a: Tri, b: @autoclosure () -> Tri) -> Tri {
        if a == .yes { return .yes }
        let b = b()
        if b == .yes { return .yes }
        return a == .no && b == .no ? .no : .unknown
    }
}

/// A row whose id, kind and tags are chosen one by one (nil: not chosen yet).
package struct PartialRow {
    package var id: String?
    package var kindChosen = false
    package var kind: String?
    /// Per tag of ``Vocabulary/rowTags``: chosen present, chosen absent, or not chosen (nil).
    package var tags: [Bool?]
    package let tagNames: [String]

    package init(tagNames: [String]) {
        self.tagNames = tagNames
        tags = Array(repeating: nil, count: tagNames.count)
    }

    package init(_ row: Row, tagNames: [String]) {
        self.tagNames = tagNames
        id = row.id
        kindChosen = true
        kind = row.kind
        tags = tagNames.map { row.tags.contains($0) }
    }

    package var row: Row {
        Row(id: id ?? "", kind: kind, tags: tagNames.indices.filter { tags[$0] == true }.map { tagNames[$0] })
    }

    package func hasID(in list: [String]) -> Tri {
        guard let id else { return .unknown }
        return Tri(list.contains(id))
    }

    package func hasKind(in list: [String]) -> Tri {
        guard kindChosen else { return .unknown }
        guard let kind else { return .no }
        return Tri(list.contains(kind))
    }

    package func hasTag(in list: [String]) -> Tri {
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
package struct SectionSite: Hashable {
    package var section: Section
    package var index: Int
    package var count: Int

    package init(section: Section, index: Int, count: Int) {
        self.section = section
        self.index = index
        self.count = count
    }

    /// Whether `selector` selects this section (SPEC §2.1, §8.2).
    package func selected(by selector: SectionSelector) -> Bool {
        switch selector {
        case .all: return true
        case .some(let refs):
            return refs.contains { ref in
                switch ref {
                case .index(let i): return (i < 0 ? count + i : i) == index
                case .id(let id): return section.id == id
                case .matching(let f): return f.meaning(self)
                }
            }
        }
    }

}

/// Where a row is: its section and its index `k` among `n` rows.
package struct RowSite {
    package var section: SectionSite
    package var k: Int
    package var n: Int

    package init(section: SectionSite, k: Int, n: Int) {
        self.section = section
        self.k = k
        self.n = n
    }

    /// Whether `s` selects a row of this site, and whether it does so through the end (which
    /// makes a pin's default anchor `end`, SPEC §7, §8.1), in three-valued logic: the keys'
    /// meanings (``RowSelectorKey/meaning(_:_:)``) joined as SPEC §8.1 joins them.
    package func match(_ s: RowSelector, _ row: PartialRow) -> (matches: Tri, fromEnd: Tri) {
        switch s.form {
        case .list(let items):
            var m = Tri.no, fe = Tri.no
            for item in items {
                let r = match(item, row)
                m = m || r.matches
                fe = fe || r.fromEnd
            }
            return (m, fe)
        case .mapping(let keys):
            var m = Tri.yes, fromEnd = false
            for i in keys.indices {
                let r = keys[i].meaning(self, row)
                m = m && r.matches
                if m == .no { return (.no, .no) }
                fromEnd = fromEnd || r.fromEnd
            }
            return (m, fromEnd ? m : .no)
        }
    }
}

