import Testing
import ReorderEngine
@testable import ReorderPolicy

/// The dead-rule proofs (AnalysisProofs.subsumes) against the engine: a random policy plus a
/// rule that another provably makes redundant decides every move on random tables exactly as
/// the policy without it — canMove, validity and target alike. A wrong proof fails here.
@Suite struct RedundancyProofTests {
    @Test(arguments: 0..<4)
    func redundantRulesChangeNothing(chunk: Int) throws {
        var gen = RandomPolicies(seed: 0xDEAD + UInt64(chunk))
        var proved = 0
        for n in 0..<300 {
            var policy = gen.policy()
            let x = gen.rowSelector()
            // A rule and one that is provably inside it (or a copy of an existing rule).
            // (Cases 6 and 7 pair unrelated selectors: a proof must not claim those.)
            let pair: [RowRule.Kind] = switch gen.int(0...7) {
            case 0: [.pin(x, anchor: nil), .lock(x)]
            case 1: [.pin(.all, anchor: gen.pick([nil, .start, .end])), .keepInSection(x)]
            case 2: [.lock(.all), .lock(x)]
            case 3: [.keepInSection(.all), .keepInSection(x)]
            case 4: [.lock(x), .keepInSection(x)]
            case 6: [.pin(gen.rowSelector(), anchor: nil), .lock(x)]
            case 7: [.lock(gen.rowSelector()), .keepInSection(x)]
            default: policy.rules.isEmpty ? [.lock(x), .lock(x)] : [gen.pick(policy.rules).kind, gen.pick(policy.rules).kind]
            }
            let strong = RowRule(pair[0], metadata: RuleMetadata(id: "strong-\(n)"))
            let weak = RowRule(pair[1], metadata: RuleMetadata(id: "weak-\(n)"))
            policy.rules.insert(strong, at: gen.int(0...policy.rules.count))
            var with = policy
            with.rules.insert(weak, at: gen.int(0...with.rules.count))
            let index = with.rules.firstIndex { $0.metadata.id == weak.metadata.id }!
            guard PolicyAnalyzer.redundancy(of: index, in: with.rules) != nil else { continue }
            proved += 1
            guard try decidesAlike(CompiledPolicy(with), CompiledPolicy(policy), &gen, "\(with)") else { return }
        }
        #expect(proved > 100)
    }

    /// The proofs from words (`AnalysisProofs.covers`, which the exact analysis reads before a
    /// search: a rule inside another is dead) against the engine: a rule and one drawn inside
    /// it (narrower rows, fewer sections, a closer accept), or two unrelated rules; whenever the
    /// proof says the second is covered, the policy decides every move on random tables with
    /// it exactly as without it.
    @Test(arguments: 0..<4)
    func rulesInsideOthersChangeNothing(chunk: Int) throws {
        var gen = RandomPolicies(seed: 0xC0FE + UInt64(chunk))
        var proved = 0, refused = 0
        for n in 0..<300 {
            var policy = gen.policy()
            let x = gen.rowSelector(), s = gen.sectionSelector()
            let anchor: Anchor? = gen.pick([nil, .start, .end])
            let pair: [RowRule.Kind] = switch gen.int(0...8) {
            case 0: [.pin(x, anchor: anchor), .pin(narrower(x, &gen), anchor: gen.pick([anchor, nil, .start]))]
            case 1: [.pin(x, anchor: anchor), .lock(narrower(x, &gen))]
            case 2: [gen.pick([.lock(x), .pin(x, anchor: anchor), .keepInSection(x)]), .keepInSection(narrower(x, &gen))]
            case 3:
                { let edge: Anchor = gen.pick([.start, .end]), c = gen.int(1...3)
                  return [.reserve(edge: edge, count: c, section: s),
                          gen.chance(0.5) ? .reserve(edge: edge, count: gen.int(1...c), section: fewer(s, &gen))
                                          : .pin(narrower(RowSelector(section: s, position: edge == .start ? .first(c) : .last(c)), &gen), anchor: gen.pick([nil, edge]))] }()
            case 4: [.keepOrder(s), .keepOrder(fewer(s, &gen))]
            case 5:
                { let from = gen.sectionSelector()
                  return [.accept(section: s, from: fewer(from, &gen), rows: narrower(x, &gen)), .accept(section: fewer(s, &gen), from: from, rows: x)] }()
            default: [gen.rule(0).kind, gen.rule(1).kind]
            }
            let strong = RowRule(pair[0], metadata: RuleMetadata(id: "strong-\(n)"))
            let weak = RowRule(pair[1], metadata: RuleMetadata(id: "weak-\(n)"))
            policy.rules.insert(strong, at: gen.int(0...policy.rules.count))
            var with = policy
            with.rules.insert(weak, at: gen.int(0...with.rules.count))
            // (A drawn pin may pair an anchor with a list, which the loader refuses.)
            guard let a = try? CompiledPolicy(with), let b = try? CompiledPolicy(policy) else { continue }
            guard AnalysisProofs.covers(strong.kind.meaning, weak.kind.meaning) else { refused += 1; continue }
            proved += 1
            guard decidesAlike(a, b, &gen, "\(with)") else { return }
        }
        // Both ways: most pairs drawn inside are proved, unrelated ones mostly are not.
        #expect(proved > 120)
        #expect(refused > 40)
    }

    /// Whether `a` and `b` decide every row move alike (canMove and target) on six random
    /// tables; records the first difference.
    private func decidesAlike(_ a: CompiledPolicy, _ b: CompiledPolicy, _ gen: inout RandomPolicies, _ what: String) -> Bool {
        for _ in 0..<6 {
            let table = gen.table()
            let ba = a.bind(table), bb = b.bind(table)
            for (s, section) in table.sections.enumerated() {
                for i in section.rows.indices {
                    let from = Position(section: s, row: i)
                    #expect(ba.canMove(from) == bb.canMove(from), "canMove \(from): \(what)\n\(table)")
                    for (t, target) in table.sections.enumerated() {
                        for j in 0...(t == s ? target.rows.count - 1 : target.rows.count) {
                            let to = Position(section: t, row: j)
                            if ba.target(from: from, proposed: to) != bb.target(from: from, proposed: to) {
                                Issue.record("target \(from)->\(to) differs: \(what)\n\(table)")
                                return false
                            }
                        }
                    }
                }
            }
        }
        return true
    }

    /// `x` with more keys, a shorter position, or as one item of a list (rows inside `x`).
    private func narrower(_ x: RowSelector, _ gen: inout RandomPolicies) -> RowSelector {
        if case .list(let items) = x.form { return items.isEmpty || gen.chance(0.3) ? x : .anyOf(Array(items.prefix(gen.int(0...items.count)))) }
        // Drawn keys first: a key of `x` of the same keyword or group replaces one.
        var keys: [any RowSelectorKey] = []
        for key in gen.rowSelector().keys where gen.chance(0.5) { keys.append(key) }
        var narrowed = RowSelector(keys: keys + x.keys)
        switch narrowed.position {
        case .first(let c)?: narrowed.position = .first(gen.int(1...c))
        case .last(let c)?: narrowed.position = gen.chance(0.5) ? .last(gen.int(1...c)) : .indices([-gen.int(1...c)])
        case .indices(let xs)? where !xs.isEmpty: narrowed.position = .indices(Array(xs.prefix(gen.int(1...xs.count))))
        default: break
        }
        return narrowed
    }

    /// Some of the entries of `s` (sections inside `s`).
    private func fewer(_ s: SectionSelector, _ gen: inout RandomPolicies) -> SectionSelector {
        switch s {
        case .all: gen.chance(0.5) ? .all : gen.sectionSelector()
        case .some(let refs): .some(refs.filter { _ in gen.chance(0.6) })
        }
    }
}
