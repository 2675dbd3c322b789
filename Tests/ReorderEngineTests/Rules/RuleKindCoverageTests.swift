import Testing
import ReorderEngine

/// Every registered rule kind is covered by the reference evaluator and the random policies,
/// so a kind added to the registry without its test file fails here, not silently.
@Suite struct RuleKindCoverageTests {
    @Test func everyKindHasAReferenceMeaningAndARandomGenerator() {
        for kind in RuleRegistry.rowKinds {
            #expect(kind is any ReferenceMeaning.Type, "\(kind.keyword): conform its type to ReferenceMeaning in its test file")
            #expect(kind is any RandomRuleKind.Type, "\(kind.keyword): conform its type to RandomRuleKind in its test file")
        }
    }

    @Test func keywordsAreDistinct() {
        let keywords = RuleRegistry.rowKinds.map { $0.keyword }
        #expect(Set(keywords).count == keywords.count)
    }

    /// Deciding and explaining cannot disagree: the violations of a decision are exactly the
    /// rules the explanation's trace marks violated.
    @Test(arguments: 0..<2)
    func decisionsAndTracesNameTheSameRules(chunk: Int) throws {
        var gen = RandomPolicies(seed: 0xD1CE + UInt64(chunk))
        var compared = 0
        for _ in 0..<400 {
            let policy = gen.policy(), table = gen.table()
            let bound = try CompiledPolicy(policy).bind(table)
            guard let (from, to) = gen.rowMove(in: table) else { continue }
            let explanation = try bound.explain(.row(from: from, to: to))
            let violated = explanation.trace.filter { $0.verdict == .violated }.map(\.rule)
            #expect(Set(violated) == Set(explanation.decision.violations.map(\.rule)), "policy \(policy) table \(table) move \(from)->\(to)")
            compared += 1
        }
        #expect(compared > 300)
    }
}
