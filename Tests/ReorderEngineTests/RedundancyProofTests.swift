import Testing
import ReorderEngine
import ReorderPolicy

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
            let a = try CompiledPolicy(with), b = try CompiledPolicy(policy)
            for _ in 0..<6 {
                let table = gen.table()
                let ba = a.bind(table), bb = b.bind(table)
                for (s, section) in table.sections.enumerated() {
                    for i in section.rows.indices {
                        let from = Position(section: s, row: i)
                        #expect(ba.canMove(from) == bb.canMove(from), "canMove \(from): \(with)\n\(table)")
                        for (t, target) in table.sections.enumerated() {
                            for j in 0...(t == s ? target.rows.count - 1 : target.rows.count) {
                                let to = Position(section: t, row: j)
                                if ba.target(from: from, proposed: to) != bb.target(from: from, proposed: to) {
                                    Issue.record("target \(from)->\(to) differs: \(with)\n\(table)")
                                    return
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(proved > 100)
    }
}
