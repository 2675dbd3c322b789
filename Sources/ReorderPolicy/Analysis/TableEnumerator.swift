/// The small tables the analysis tries: every shape up to the bound (sections × rows),
/// first with plain rows, then with one row (or one section id) at a time drawn from the
/// words the policy mentions, plus one word it does not mention.
struct TableEnumerator {
    let bound: AnalysisBound
    /// Row variants: one per id, kind and tag the policy mentions.
    let variants: [Row]
    /// Section ids the policy mentions.
    let sectionIDs: [String]

    static let plainID = "·"

    init(policy: Policy, bound: AnalysisBound) {
        self.bound = bound
        var ids: [String] = [], kinds: [String] = [], tags: [String] = [], sections: [String] = []
        func add(_ selector: RowSelector) {
            ids += selector.ids ?? []
            kinds += selector.kinds ?? []
            tags += selector.tags ?? []
            if let s = selector.section { addSections(s) }
        }
        func addSections(_ s: SectionSelector) {
            if case .some(let refs) = s {
                for case .id(let id) in refs { sections.append(id) }
            }
        }
        for rule in policy.rules {
            let mentions = rule.kind.unit.mentions
            mentions.sections.forEach(addSections)
            mentions.rows.forEach(add)
        }
        for rule in policy.sectionRules {
            switch rule.kind {
            case .lock(.sections(let s)), .pin(.sections(let s), _): addSections(s)
            default: break
            }
        }
        func unique(_ list: [String]) -> [String] {
            var seen = Set<String>()
            return list.filter { seen.insert($0).inserted }
        }
        variants = unique(ids).map { Row(id: $0) } + unique(kinds).map { Row(id: Self.plainID, kind: $0) }
            + unique(tags).map { Row(id: Self.plainID, tags: [$0]) }
        sectionIDs = unique(sections)
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

    private func tables(shape: [Int], _ body: (Table) -> Bool) -> Bool {
        let plain = Table(sections: shape.map { Section(rows: Array(repeating: Row(id: Self.plainID), count: $0)) })
        if !body(plain) { return false }
        for id in sectionIDs {
            for u in shape.indices {
                var t = plain
                t.sections[u].id = id
                if !body(t) { return false }
            }
        }
        for variant in variants {
            for u in shape.indices {
                for k in 0..<shape[u] {
                    var t = plain
                    t.sections[u].rows[k] = variant
                    if !body(t) { return false }
                }
            }
        }
        return true
    }
}
