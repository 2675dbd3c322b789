import Testing
import ReorderEngine

/// The fast engine against the brute-force reference on thousands of random cases.
@Suite struct ReferenceComparisonTests {
    @Test(arguments: 0..<8)
    func rowMovesMatchTheReference(chunk: Int) throws {
        var gen = RandomPolicies(seed: 0xC0FFEE + UInt64(chunk))
        for _ in 0..<400 {
            let policy = gen.policy(), table = gen.table()
            let bound = try CompiledPolicy(policy).bind(table)
            let reference = ReferenceEvaluator(policy: policy, table: table)
            for _ in 0..<6 {
                guard let (from, to) = gen.rowMove(in: table) else { break }
                let decision = try bound.decide(.row(from: from, to: to))
                let expected = reference.rowOutcome(from, to)
                let actual = ReferenceEvaluator.Outcome(kind: decision.kind, target: decision.target, ruleIDs: decision.violations.map(\.rule))
                #expect(actual == expected, "policy \(policy) table \(table) move \(from)->\(to)")
                if actual != expected { return }
                // The fast target and validity agree with the decision.
                if case .row(let p) = decision.target, decision.kind != .denied {
                    #expect(bound.target(from: from, proposed: to) == p)
                }
                let valid = Set(bound.validDestinations(from: from).flatMap { v in v.rows.flatMap { r in r.map { Position(section: v.section, row: $0) } } })
                #expect(valid == reference.validRows(from), "valid destinations, policy \(policy) table \(table) from \(from)")
            }
        }
    }

    @Test(arguments: 0..<4)
    func sectionMovesMatchTheReference(chunk: Int) throws {
        var gen = RandomPolicies(seed: 0xBEEF + UInt64(chunk))
        for _ in 0..<500 {
            let policy = gen.policy(), table = gen.table()
            let bound = try CompiledPolicy(policy).bind(table)
            let reference = ReferenceEvaluator(policy: policy, table: table)
            let count = table.sections.count
            for _ in 0..<4 {
                let a = gen.int(0...(count - 1)), b = gen.int(0...(count - 1))
                let decision = try bound.decide(.section(from: a, to: b))
                let expected = reference.sectionOutcome(a, b)
                let actual = ReferenceEvaluator.Outcome(kind: decision.kind, target: decision.target, ruleIDs: decision.violations.map(\.rule))
                #expect(actual == expected, "policy \(policy) table \(table) section move \(a)->\(b)")
                if actual != expected { return }
            }
        }
    }
}
