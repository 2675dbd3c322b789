import ReorderEngine

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
    /// The same for a section's index and distance from the end among the sections (`index: k`
    /// → k, k + 1; `index: -k` → k - 1, k; a section rule's `first N`/`last N` → N).
    var sectionBreakpoints: [Int] = []
    /// An id no selector names, for plain rows.
    var plainID = "row"

    init(_ policies: [Policy]) {
        var rowIDLists: [[String]], rowKindLists: [[String]], rowTagLists: [[String]]
        var secIDLists: [[String]] = [], secKindLists: [[String]] = [], secTagLists: [[String]] = []
        let allIDs: Set<String>
        var breakpoints = Set<Int>(), sectionCuts = Set<Int>()
        func sectionIndex(_ i: Int) {
            sectionConstant = max(sectionConstant, i < 0 ? -i : i + 1)
            sectionCuts.formUnion(i < 0 ? [-i - 1, -i] : [i, i + 1])
        }
        /// Collects what one section mapping compares sections with, through each key's own account.
        struct SectionWords: SectionWordSink {
            var lists: [SectionAttribute: [[String]]] = [:]
            var indices: [Int] = []
            var nested: [SectionSelector] = []
            mutating func sectionWords(_ attribute: SectionAttribute, _ list: [String]) { lists[attribute, default: []].append(list) }
            mutating func sectionIndices(_ list: [Int]) { indices += list }
            mutating func sectionSelector(_ selector: SectionSelector) { nested.append(selector) }
        }
        func section(_ s: SectionSelector?) {
            guard case .some(let refs)? = s else { return }
            for ref in refs {
                switch ref {
                case .index(let i): sectionIndex(i)
                case .id(let id): secIDLists.append([id])
                case .matching(let f):
                    var heard = SectionWords()
                    f.words(into: &heard)
                    heard.indices.forEach(sectionIndex)
                    secIDLists += heard.lists[.id] ?? []
                    secKindLists += heard.lists[.kind] ?? []
                    secTagLists += heard.lists[.tag] ?? []
                    heard.nested.forEach { section($0) }
                }
            }
        }
        /// Collects what row selectors compare rows with, through each key's own account.
        struct Words: SelectorWordSink {
            var lists: [RowAttribute: [[String]]] = [:]
            var thresholds: [Int] = []
            var sections: [SectionSelector] = []
            mutating func rowWords(_ attribute: RowAttribute, _ list: [String]) { lists[attribute, default: []].append(list) }
            mutating func rowThresholds(_ list: [Int]) { thresholds += list }
            mutating func sectionSelector(_ selector: SectionSelector) { sections.append(selector) }
            mutating func rowSelector(_ selector: RowSelector, negated: Bool) { selector.words(into: &self) }
        }
        var words = Words()
        func row(_ s: RowSelector) { s.words(into: &words) }
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
                case .capacity(let sections, _, _, let rows):
                    section(sections)
                    if let rows { row(rows) }
                case .keepOrder(let sections): section(sections)
                case .keepAmong(.rows(let rows)): row(rows)
                case .keepAmong(.kind): break
                }
            }
            for rule in policy.sectionRules {
                switch rule.target {
                case .sections(let s): section(s)
                case .first(let n), .last(let n):
                    sectionConstant = max(sectionConstant, n)
                    sectionCuts.insert(n)
                }
            }
        }
        words.sections.forEach(section)
        rowConstant = max(rowConstant, words.thresholds.max() ?? 0)
        breakpoints.formUnion(words.thresholds)
        rowIDLists = words.lists[.id] ?? []
        rowKindLists = words.lists[.kind] ?? []
        rowTagLists = words.lists[.tag] ?? []
        allIDs = Set(rowIDLists.joined())
        rowBreakpoints = breakpoints.filter { $0 > 0 }.sorted()
        sectionBreakpoints = sectionCuts.filter { $0 > 0 }.sorted()
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
        // Three-valued evaluation is monotone: a constraint true of a partial row is true of
        // every row that chooses more, so each branch asks only the constraints still unknown
        // at its parent (the same rows are found in the same order; the work is what shrinks).
        // The constraint that was false last is asked first (rows are mostly given up by the
        // same one); the order never changes the answer.
        var hint = -1
        // The constraints in `pending` still unknown on the row, or nil when one is false.
        func narrow(_ pending: [Int]) -> [Int]? {
            var open: [Int] = []
            let hinted = hint >= 0 && pending.contains(hint)
            var hintOpen = false
            if hinted {
                work += 1
                switch constraints[hint](row) {
                case .no: return nil
                case .unknown: hintOpen = true
                case .yes: break
                }
            }
            for i in pending where !(hinted && i == hint) {
                work += 1
                switch constraints[i](row) {
                case .no:
                    hint = i
                    return nil
                case .unknown: open.append(i)
                case .yes: break
                }
            }
            if hintOpen { open.append(hint) }
            return open
        }
        // `open`: the constraints unknown on the row as it is.
        func tags(_ k: Int, _ open: [Int]) -> Bool {
            if open.isEmpty {
                for j in k..<row.tags.count { row.tags[j] = false }
                return true
            }
            if k == row.tags.count { return false }
            for value in [false, true] {
                row.tags[k] = value
                if let next = narrow(open), tags(k + 1, next) { return true }
            }
            row.tags[k] = nil
            return false
        }
        func kinds(_ open: [Int]) -> Bool {
            for kind in [nil] + vocabulary.rowKinds.map(Optional.some) {
                row.kind = kind
                row.kindChosen = true
                if let next = narrow(open), tags(0, next) { return true }
            }
            row.kindChosen = false
            return false
        }
        let all = Array(constraints.indices)
        for id in [vocabulary.plainID] + vocabulary.rowIDs {
            row.id = id
            if let open = narrow(all), kinds(open) { return row.row }
        }
        return nil
    }
}
