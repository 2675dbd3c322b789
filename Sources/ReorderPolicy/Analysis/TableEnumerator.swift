/// The small tables the analysis tries: every shape up to the bound (sections × rows),
/// first with plain rows, then with one row (or one section) at a time drawn from the
/// words the policy mentions, plus one word it does not mention. Sections vary by the ids,
/// kinds and tags the policy's section selectors name (also inside lists and `not`), each
/// alone and with every attribute the policy reads set to 0, 1 and the row bound.
struct TableEnumerator {
    let bound: AnalysisBound
    /// Row variants: one per id, kind and tag the policy mentions.
    let variants: [Row]
    /// Section variants (their rows are filled in per shape).
    let sectionVariants: [Section]

    /// The id of rows the policy does not name: one no selector mentions.
    let plainID: String
    /// Every row id the policy's selectors mention (counterexamples name their plain rows apart from these).
    let mentionedIDs: Set<String>

    /// Row variants used as the filler around the varied row: words that occur under a `not`.
    let fillers: [Row]

    init(policy: Policy, bound: AnalysisBound) {
        self.bound = bound
        // Each word with the selectors that name it (its signature). Two words named by
        // exactly the same selectors are interchangeable on every table — a row's id, kind or
        // tag matters only through those selectors — so one word per signature is tried
        // (a selector listing 1,000 ids adds one row variant, not 1,000).
        var ids = Words(), kinds = Words(), tags = Words()
        var sectionIDs = Words(), sectionKinds = Words(), sectionTags = Words()
        var attributes: [String] = [], negated = Set<String>()
        var selectorCount = 0
        /// Hears one selector's words, through each key's own account (``RowSelectorKey/words(into:)``).
        struct Hearing: SelectorWordSink {
            var words: [(RowAttribute, [String])] = []
            var sections: [SectionSelector] = []
            var nested: [(RowSelector, Bool)] = []
            mutating func rowWords(_ attribute: RowAttribute, _ list: [String]) { words.append((attribute, list)) }
            mutating func rowThresholds(_ thresholds: [Int]) {}
            mutating func sectionSelector(_ selector: SectionSelector) { sections.append(selector) }
            mutating func rowSelector(_ selector: RowSelector, negated: Bool) { nested.append((selector, negated)) }
        }
        /// Hears one section mapping's words (``SectionFilterKey/words(into:)``).
        struct SectionHearing: SectionWordSink {
            var words: [(SectionAttribute, [String])] = []
            var nested: [SectionSelector] = []
            mutating func sectionWords(_ attribute: SectionAttribute, _ list: [String]) { words.append((attribute, list)) }
            mutating func sectionIndices(_ list: [Int]) {}
            mutating func sectionSelector(_ selector: SectionSelector) { nested.append(selector) }
        }
        func add(_ selector: RowSelector, underNot: Bool) {
            selectorCount += 1
            let n = selectorCount
            var hearing = Hearing()
            selector.words(into: &hearing)
            for (attribute, list) in hearing.words {
                for word in list {
                    switch attribute {
                    case .id: ids.add(word, n); if underNot { negated.insert("id:" + word) }
                    case .kind: kinds.add(word, n); if underNot { negated.insert("kind:" + word) }
                    case .tag: tags.add(word, n); if underNot { negated.insert("tag:" + word) }
                    }
                }
            }
            hearing.sections.forEach(addSections)
            for (nested, negated) in hearing.nested { add(nested, underNot: underNot || negated) }
        }
        func addSections(_ s: SectionSelector) {
            guard case .some(let refs) = s else { return }
            selectorCount += 1
            let n = selectorCount
            for ref in refs {
                switch ref {
                case .index: break
                case .id(let id): sectionIDs.add(id, n)
                case .matching(let f):
                    selectorCount += 1
                    let m = selectorCount
                    var heard = SectionHearing()
                    f.words(into: &heard)
                    for (attribute, list) in heard.words {
                        for word in list {
                            switch attribute {
                            case .id: sectionIDs.add(word, m)
                            case .kind: sectionKinds.add(word, m)
                            case .tag: sectionTags.add(word, m)
                            }
                        }
                    }
                    heard.nested.forEach(addSections)
                }
            }
        }
        for rule in policy.rules {
            let mentions = rule.kind.unit.mentions
            mentions.sections.forEach(addSections)
            mentions.rows.forEach { add($0, underNot: false) }
            attributes += mentions.attributes
        }
        for rule in policy.sectionRules {
            switch rule.kind.meaning {
            case .hold(.sections(let s), _, _): addSections(s)
            case .hold(.first, _, _), .hold(.last, _, _): break
            }
        }
        mentionedIDs = Set(ids.all)
        var plain = "·"
        while mentionedIDs.contains(plain) { plain += "·" }
        plainID = plain
        func unique(_ list: [String]) -> [String] {
            var seen = Set<String>()
            return list.filter { seen.insert($0).inserted }
        }
        let idWords = ids.representatives, kindWords = kinds.representatives, tagWords = tags.representatives
        variants = idWords.map { Row(id: $0) } + kindWords.map { Row(id: plain, kind: $0) } + tagWords.map { Row(id: plain, tags: [$0]) }
        // The rows around the varied one are plain, and each negated word in turn: where a
        // policy lets only named rows move (`lock: { not: { kind: card } }`), a card must meet
        // a header or another card.
        fillers = idWords.filter { negated.contains("id:" + $0) }.map { Row(id: $0) }
            + kindWords.filter { negated.contains("kind:" + $0) }.map { Row(id: plain, kind: $0) }
            + tagWords.filter { negated.contains("tag:" + $0) }.map { Row(id: plain, tags: [$0]) }
        let words = [Section(rows: [])] + sectionIDs.representatives.map { Section(id: $0, rows: []) }
            + sectionKinds.representatives.map { Section(kind: $0, rows: []) } + sectionTags.representatives.map { Section(tags: [$0], rows: []) }
        let names = unique(attributes)
        var profiles = Array(words.dropFirst())
        if !names.isEmpty {
            // 0 closes a section (max) or never limits (min); the bound fills it (max) or empties it (min).
            for value in Set([0, 1, bound.rows]).sorted() {
                for word in words {
                    var section = word
                    section.attributes = Dictionary(uniqueKeysWithValues: names.map { ($0, value) })
                    profiles.append(section)
                }
            }
        }
        sectionVariants = profiles
    }

    /// Words in the order first mentioned, with the selectors that name each.
    struct Words {
        private(set) var all: [String] = []
        private var signatures: [String: [Int]] = [:]

        mutating func add(_ word: String, _ selector: Int) {
            if signatures[word] == nil { all.append(word) }
            if signatures[word]?.last != selector { signatures[word, default: []].append(selector) }
        }

        /// The first word of each signature.
        var representatives: [String] {
            var seen = Set<[Int]>()
            return all.filter { seen.insert(signatures[$0]!).inserted }  // `all` lists only words given a signature
        }
    }

    /// Calls `body` with every table, smallest first; stops when it returns false.
    func forEach(_ body: (Table) -> Bool) {
        for sectionCount in 1...bound.sections {
            var shape = [Int](repeating: 0, count: sectionCount)
            while true {
                if !tables(shape: shape, body) { return }
                // Next shape, like an odometer.
                var i = sectionCount - 1
                while i >= 0 && shape[i] == bound.rows {
                    shape[i] = 0
                    i -= 1
                }
                if i < 0 { break }
                shape[i] += 1
            }
        }
    }

    /// The tables of one shape. The rows around the varied one are plain, then each row
    /// variant in turn ("filler"): where a policy lets only named rows move (`lock: { not:
    /// { kind: card } }`), a card must meet a header, a bucket section or another card.
    private func tables(shape: [Int], _ body: (Table) -> Bool) -> Bool {
        for filler in [Row(id: plainID)] + fillers {
            let base = Table(sections: shape.map { Section(rows: Array(repeating: filler, count: $0)) })
            // A variant filler on an empty shape is the plain table again.
            if filler.id != plainID || filler.kind != nil || !filler.tags.isEmpty {
                guard shape.contains(where: { $0 > 0 }) else { continue }
            }
            if !body(base) { return false }
            for profile in sectionVariants {
                for u in shape.indices {
                    var t = base
                    var section = profile
                    section.rows = base.sections[u].rows
                    t.sections[u] = section
                    if !body(t) { return false }
                }
            }
            for variant in variants where variant != filler {
                for u in shape.indices {
                    for k in 0..<shape[u] {
                        var t = base
                        t.sections[u].rows[k] = variant
                        if !body(t) { return false }
                    }
                }
            }
        }
        return true
    }
}
