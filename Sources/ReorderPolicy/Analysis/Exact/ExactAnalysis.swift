import ReorderEngine

/// The §10 properties of one policy's row rules, decided by ``MoveSearch`` (docs/ANALYSIS.md).
/// A property is reported only when the search answered: `.unknown` (work budget spent, or a
/// candidate the engine did not confirm) gives no claim either way.
struct ExactAnalysis {
    /// A rule whose selector (`rows`, `section`, `accept.section`, `accept.rows`) selects nothing.
    var selectsNothing: [(rule: Int, what: String)] = []
    /// Rules whose deletion changes no decision on any table.
    var dead: [Int] = []
    /// Accepts under which no row from another section ever enters.
    var admitsNothing: [Int] = []
    /// Whether some question went unanswered (budget or an unconfirmed candidate).
    var incomplete = false

    /// The default work budget per policy (constraint evaluations and programme steps).
    static let defaultWork = 40_000_000

    init(_ policy: Policy, _ compiled: CompiledPolicy, work: Int = defaultWork) {
        let rules = policy.rules.enumerated().map { AnalysedRule(policy: 0, index: $0.offset, meaning: $0.element.kind.meaning) }
        let vocabulary = Vocabulary([policy])
        var search = MoveSearch(rules: rules, policies: [compiled], vocabulary: vocabulary, budget: work)
        // Last to first: a rule found dead is left out of the questions about the rules before
        // it, so of two copies only the later is reported, and the dead rules can be deleted
        // together (rules only ever add refusals, so the decisions are squeezed between those
        // of the policy and of the policy without them: docs/ANALYSIS.md).
        var all = Set(rules.indices)
        var holders: Set<Int> { Set(all.filter { rules[$0].holds }) }
        for r in rules.indices.reversed() {
            // 1. Selectors that choose which rows or sections the rule is about.
            var empty: String? = nil
            var unanswered = false
            for (what, selector) in Self.subjects(rules[r].meaning) {
                let answer: Bool?
                switch selector {
                case .rows(let s): answer = search.rowSelectorSelectsSomething(s)
                case .sections(let s): answer = search.sectionSelectorSelectsSomething(s)
                }
                if answer == false { empty = what; break }
                if answer == nil { unanswered = true }
            }
            if let empty {
                selectsNothing.insert((r, empty), at: 0)
                continue
            }
            if unanswered { incomplete = true; continue }
            // 3. Accepts that admit nothing (when `from` selects some section somewhere).
            if case .accept(let section, let from, _) = rules[r].meaning {
                if search.sectionSelectorSelectsSomething(from) == true {
                    var q = MoveQuery()
                    q.crossSection = true
                    q.destination = { $0.selected(by: section) }
                    q.mustNotBreak = all
                    q.mustNotHold = holders
                    switch search.findMove(q) {
                    case .none:
                        admitsNothing.append(r)
                        continue
                    case .unknown: incomplete = true
                    case .found: break
                    }
                }
            }
            // 2. Dead: no row held by it alone, no move refused by it alone.
            var alive = false, unknown = false
            if rules[r].holds {
                switch search.findHeldRow(mustHold: [r], mustNotHold: holders.subtracting([r])) {
                case .found: alive = true
                case .unknown: unknown = true
                case .none: break
                }
            }
            if !alive && (!rules[r].holds || rules[r].pins) {
                var q = MoveQuery()
                q.mustBreak = [r]
                q.mustNotBreak = all.subtracting([r])
                q.mustNotHold = holders
                switch search.findMove(q) {
                case .found: alive = true
                case .unknown: unknown = true
                case .none: break
                }
            }
            if unknown { incomplete = true } else if !alive {
                dead.append(r)
                all.remove(r)
            }
        }
    }

    enum Subject {
        case rows(RowSelector)
        case sections(SectionSelector)
    }

    /// The selectors that choose what a rule applies to (SPEC §10.1; not `accept.from`).
    static func subjects(_ meaning: RuleMeaning) -> [(String, Subject)] {
        switch meaning {
        case .hold(let rows, _, _), .keepInSection(let rows): [("its rows", .rows(rows))]
        case .reserve(_, _, let sections): sections.map { [("its 'section'", .sections($0))] } ?? []
        case .accept(let section, _, let rows): [("its 'section'", .sections(section)), ("its 'rows'", .rows(rows))]
        case .capacity(let section, _, _, let rows):
            [("its 'section'", .sections(section))] + (rows.map { [("its 'rows'", .rows($0))] } ?? [])
        case .keepOrder(let section): [("its sections", .sections(section))]
        }
    }
}
