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

    init(policy: Policy, bound: AnalysisBound) {
        self.bound = bound
        var ids: [String] = [], kinds: [String] = [], tags: [String] = []
        var sectionIDs: [String] = [], sectionKinds: [String] = [], sectionTags: [String] = [], attributes: [String] = []
        func add(_ selector: RowSelector) {
            ids += selector.ids ?? []
            kinds += selector.kinds ?? []
            tags += selector.tags ?? []
            if let s = selector.section { addSections(s) }
            selector.alternatives?.forEach(add)
            if let not = selector.not { add(not) }
        }
        func addSections(_ s: SectionSelector) {
            guard case .some(let refs) = s else { return }
            for ref in refs {
                switch ref {
                case .index: break
                case .id(let id): sectionIDs.append(id)
                case .matching(let f):
                    sectionIDs += f.ids ?? []
                    sectionKinds += f.kinds ?? []
                    sectionTags += f.tags ?? []
                    if let not = f.not { addSections(not) }
                }
            }
        }
        for rule in policy.rules {
            let mentions = rule.kind.unit.mentions
            mentions.sections.forEach(addSections)
            mentions.rows.forEach(add)
            attributes += mentions.attributes
        }
        for rule in policy.sectionRules {
            switch rule.kind {
            case .lock(.sections(let s)), .pin(.sections(let s), _): addSections(s)
            default: break
            }
        }
        mentionedIDs = Set(ids)
        var plain = "·"
        while mentionedIDs.contains(plain) { plain += "·" }
        plainID = plain
        func unique(_ list: [String]) -> [String] {
            var seen = Set<String>()
            return list.filter { seen.insert($0).inserted }
        }
        variants = unique(ids).map { Row(id: $0) } + unique(kinds).map { Row(id: plain, kind: $0) }
            + unique(tags).map { Row(id: plain, tags: [$0]) }
        let words = [Section(rows: [])] + unique(sectionIDs).map { Section(id: $0, rows: []) }
            + unique(sectionKinds).map { Section(kind: $0, rows: []) } + unique(sectionTags).map { Section(tags: [$0], rows: []) }
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
        for filler in [Row(id: plainID)] + variants {
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
