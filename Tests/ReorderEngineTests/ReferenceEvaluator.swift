import ReorderEngine
import Testing

/// A deliberately simple evaluator written straight from SPEC §2: it simulates every
/// candidate destination on a copy of the table and checks every rule by its definition.
/// Used only to check the fast engine; it shares no code with it.
struct ReferenceEvaluator {
    let policy: Policy
    let table: Table

    struct Outcome: Equatable, CustomStringConvertible {
        var kind: DecisionKind
        var target: Destination
        var ruleIDs: [String]
        var description: String { "\(kind) \(target) \(ruleIDs)" }
    }

    // MARK: Selectors, literally

    func sections(_ selector: SectionSelector) -> (selected: Set<Int>, fromEnd: Set<Int>) {
        let count = table.sections.count
        switch selector {
        case .all: return (Set(0..<count), [])
        case .some(let refs):
            var selected = Set<Int>(), fromEnd = Set<Int>()
            for ref in refs {
                switch ref {
                case .index(let i):
                    let r = i < 0 ? count + i : i
                    if (0..<count).contains(r) {
                        selected.insert(r)
                        if i < 0 { fromEnd.insert(r) }
                    }
                case .id(let id):
                    for u in 0..<count where table.sections[u].id == id { selected.insert(u) }
                case .matching(let filter):
                    for u in 0..<count where matches(filter, u) { selected.insert(u) }
                }
            }
            return (selected, fromEnd)
        }
    }

    /// SPEC §8.2: every key present must match, each by its meaning from the SPEC
    /// (Selectors/SelectorKeyReferences.swift).
    func matches(_ filter: SectionFilter, _ u: Int) -> Bool {
        filter.keys.allSatisfy { key in
            guard let reference = key as? any ReferenceSectionKeyMeaning else {
                Issue.record("section key '\(type(of: key).keyword)' has no ReferenceSectionKeyMeaning")
                return false
            }
            return reference.referenceSelects(u, in: self)
        }
    }

    /// Whether `selector` selects the row at `p`, and whether through the end.
    func selects(_ selector: RowSelector, _ p: Position) -> (Bool, Bool) {
        // SPEC §8.1: a list matches when any item does; it is `end` when an item selecting it is.
        if let items = selector.alternatives {
            let hits = items.map { selects($0, p) }.filter(\.0)
            return (!hits.isEmpty, hits.contains { $0.1 })
        }
        // A mapping: every key must match, each by its meaning from the SPEC
        // (Selectors/SelectorKeyReferences.swift); it is `end` when a key selecting it is.
        var fromEnd = false
        for key in selector.keys {
            guard let reference = key as? any ReferenceKeyMeaning else {
                Issue.record("selector key '\(type(of: key).keyword)' has no ReferenceKeyMeaning")
                return (false, false)
            }
            let m = reference.referenceSelects(p, in: self)
            if !m.matches { return (false, false) }
            fromEnd = fromEnd || m.fromEnd
        }
        return (true, fromEnd)
    }

    func allPositions() -> [Position] {
        table.sections.indices.flatMap { s in table.sections[s].rows.indices.map { Position(section: s, row: $0) } }
    }

    /// Rows a rule holds (cannot be picked up), with the anchor each keeps; empty when it holds none.
    func held(_ rule: RowRule) -> [(Position, Anchor)] {
        meaning(rule).held(in: self)
    }

    /// Every position of the table, in reading order.
    func positions(in sections: Set<Int>? = nil) -> [Position] {
        allPositions().filter { sections?.contains($0.section) ?? true }
    }

    /// The rule's meaning as its kind's test file writes it (every registered kind has one:
    /// `RuleKindCoverageTests` checks).
    func meaning(_ rule: RowRule) -> any ReferenceMeaning {
        guard let meaning = rule.kind.argument as? any ReferenceMeaning else {
            fatalError("rule kind '\(rule.keyword)' has no reference meaning; add one in its test file")
        }
        return meaning
    }

    // MARK: Rows

    /// Simulates moving `rows` of section `s` as one block to `to` (a single row is a block of one).
    func simulate(section s: Int, rows: [Int], to: Position) -> SimulatedMove {
        var grid = table.sections.indices.map { s in table.sections[s].rows.indices.map { Position(section: s, row: $0) } }
        let moving = rows.map { Position(section: s, row: $0) }
        grid[s].removeAll { moving.contains($0) }
        grid[to.section].insert(contentsOf: moving, at: to.row)
        var whereIs: [Position: Position] = [:]
        for (u, list) in grid.enumerated() {
            for (r, original) in list.enumerated() { whereIs[original] = Position(section: u, row: r) }
        }
        return SimulatedMove(moving: moving, to: to, whereIs: whereIs, oldCounts: table.sections.map(\.rows.count), newCounts: grid.map(\.count))
    }

    /// Whether the simulated move changes the section or anchored position of a held row.
    func shiftsHeldRow(_ held: [(Position, Anchor)], _ move: SimulatedMove) -> Bool {
        held.contains { p, anchor in
            let q = move.whereIs[p]!
            let n0 = move.oldCounts[p.section], n1 = move.newCounts[q.section]
            return q.section != p.section || (anchor == .start && q.row != p.row)
                || (anchor == .end && n1 - 1 - q.row != n0 - 1 - p.row)
        }
    }

    func violatedRules(_ move: SimulatedMove) -> [String] {
        policy.rules.filter { meaning($0).isBroken(by: move, in: self) }.map(\.metadata.id)
    }

    func violatedRules(_ from: Position, _ to: Position) -> [String] {
        violatedRules(simulate(section: from.section, rows: [from.row], to: to))
    }

    func rowOutcome(_ from: Position, _ to: Position) -> Outcome {
        let holding = policy.rules.filter { rule in held(rule).contains { $0.0 == from } }
        if !holding.isEmpty { return Outcome(kind: .denied, target: .row(from), ruleIDs: holding.map(\.metadata.id)) }
        let violated = violatedRules(from, to)
        if violated.isEmpty { return Outcome(kind: .allowed, target: .row(to), ruleIDs: []) }
        if policy.retarget == .cancel { return Outcome(kind: .rejected, target: .row(from), ruleIDs: violated) }
        if policy.retarget == .sourceSection {
            // SPEC §13.1: the valid row [s, k] of the own section that minimises |k - c|,
            // c = min(j, n_s - 1), on a tie the one nearer to i.
            let n = table.sections[from.section].rows.count, c = min(to.row, n - 1)
            let k = (0..<n).filter { violatedRules(from, Position(section: from.section, row: $0)).isEmpty }
                .min { (abs($0 - c), abs($0 - from.row)) < (abs($1 - c), abs($1 - from.row)) }!
            let target = Position(section: from.section, row: k)
            return Outcome(kind: target == from ? .rejected : .retargeted, target: .row(target), ruleIDs: violated)
        }
        // Every destination slot in reading order.
        var slots: [Position] = []
        for (u, section) in table.sections.enumerated() {
            let count = u == from.section ? section.rows.count : section.rows.count + 1
            for k in 0..<count { slots.append(Position(section: u, row: k)) }
        }
        let p = slots.firstIndex(of: to)!, q = slots.firstIndex(of: from)!
        let best = slots.indices.filter { violatedRules(from, slots[$0]).isEmpty }
            .min { (abs($0 - p), abs($0 - q)) < (abs($1 - p), abs($1 - q)) }!
        let target = slots[best]
        return Outcome(kind: target == from ? .rejected : .retargeted, target: .row(target), ruleIDs: violated)
    }

    func validRows(_ from: Position) -> Set<Position> {
        guard rowOutcome(from, from).kind != .denied else { return [] }
        var out = Set<Position>()
        for (u, section) in table.sections.enumerated() {
            let count = u == from.section ? section.rows.count : section.rows.count + 1
            for k in 0..<count where violatedRules(from, Position(section: u, row: k)).isEmpty {
                out.insert(Position(section: u, row: k))
            }
        }
        return out
    }

    // MARK: Sections

    /// The sections a section-rule target selects on this table.
    func sectionsSelected(_ target: SectionRuleTarget) -> Set<Int> {
        let count = table.sections.count
        switch target {
        case .sections(let sel): return sections(sel).selected
        case .first(let n): return Set((0..<count).filter { $0 < n })
        case .last(let n): return Set((0..<count).filter { $0 >= count - n })
        }
    }

    /// A section rule's SPEC meaning, from its kind's test file.
    func meaning(_ rule: SectionRule) -> any ReferenceSectionMeaning {
        guard let meaning = rule.kind.argument as? any ReferenceSectionMeaning else {
            fatalError("\(rule.keyword): conform its type to ReferenceSectionMeaning in its test file")
        }
        return meaning
    }

    func sectionsHeld(_ rule: SectionRule) -> Set<Int> { meaning(rule).held(in: self) }

    /// The section rules that moving section `a` to index `b` breaks: `order[k]` is the old
    /// index of the section at `k` after the move.
    func sectionViolations(_ a: Int, _ b: Int) -> [String] {
        var order = Array(table.sections.indices)
        order.insert(order.remove(at: a), at: b)
        return policy.sectionRules.compactMap { rule in
            meaning(rule).isBroken(byOrder: order, in: self) ? rule.metadata.id : nil
        }
    }

    func sectionOutcome(_ a: Int, _ b: Int) -> Outcome {
        let holding = policy.sectionRules.filter { sectionsHeld($0).contains(a) }
        if !holding.isEmpty { return Outcome(kind: .denied, target: .section(a), ruleIDs: holding.map(\.metadata.id)) }
        let violated = sectionViolations(a, b)
        if violated.isEmpty { return Outcome(kind: .allowed, target: .section(b), ruleIDs: []) }
        if policy.retarget == .cancel { return Outcome(kind: .rejected, target: .section(a), ruleIDs: violated) }
        let best = table.sections.indices.filter { sectionViolations(a, $0).isEmpty }
            .min { (abs($0 - b), abs($0 - a)) < (abs($1 - b), abs($1 - a)) }!
        return Outcome(kind: best == a ? .rejected : .retargeted, target: .section(best), ruleIDs: violated)
    }
}

/// A move simulated on a copy of the table: where every original row ends up.
struct SimulatedMove {
    /// The moving rows' original positions (one section).
    let moving: [Position]
    let to: Position
    let whereIs: [Position: Position]
    let oldCounts: [Int]
    let newCounts: [Int]

    var s: Int { moving[0].section }
    var t: Int { to.section }
    var crossesSections: Bool { s != t }
}

/// What a section-rule kind means, written from SPEC §2.5 by simulation: the sections it
/// holds (they cannot be picked up), and whether a section move breaks it.
protocol ReferenceSectionMeaning {
    func held(in ref: ReferenceEvaluator) -> Set<Int>
    /// `order[k]`: the old index of the section at `k` after the move.
    func isBroken(byOrder order: [Int], in ref: ReferenceEvaluator) -> Bool
}

/// One rule kind's meaning written straight from the SPEC, for the reference evaluator. Each
/// kind's test file (Tests/ReorderEngineTests/Rules) conforms the kind's public type.
protocol ReferenceMeaning {
    /// The rows the rule holds, with the anchor each keeps (a lock's anchor is ignored).
    func held(in ref: ReferenceEvaluator) -> [(Position, Anchor)]
    /// Whether the move breaks the rule (holding the moving row is checked separately).
    func isBroken(by move: SimulatedMove, in ref: ReferenceEvaluator) -> Bool
}

extension ReferenceMeaning {
    func held(in ref: ReferenceEvaluator) -> [(Position, Anchor)] { [] }
}
