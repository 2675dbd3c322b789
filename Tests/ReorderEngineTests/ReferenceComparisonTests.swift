import Testing
import ReorderEngine
import ReorderPolicy

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

/// Binding through a ``RowContentMemo`` (as `diff` does, once per move on the same rows)
/// decides exactly as a plain bind, while the rows are reordered and while two policies
/// share the memo (each bind then finds the other's keys at its sites and starts over).
@Suite struct RowContentMemoTests {
    @Test(arguments: 0..<4)
    func memoBindsDecideAsPlainBinds(chunk: Int) throws {
        var gen = RandomPolicies(seed: 0x3E30 + UInt64(chunk))
        for _ in 0..<150 {
            let policies = try [gen.policy(), gen.policy()].map { try CompiledPolicy($0) }
            var table = gen.table()
            let memo = RowContentMemo(table)
            for step in 0..<8 {
                for compiled in policies {
                    let plain = compiled.bind(table), memoized = compiled.bind(table, memo: memo)
                    for _ in 0..<4 {
                        guard let (from, to) = gen.rowMove(in: table) else { break }
                        let move = Move.row(from: from, to: to)
                        let expected = try plain.decide(move), actual = try memoized.decide(move)
                        #expect(actual == expected, "policy \(compiled.policy) table \(table) move \(move)")
                        if actual != expected { return }
                    }
                }
                // Reorder the rows (and now and then the sections), in the table and the memo alike.
                let move: Move
                if step % 3 == 2, table.sections.count > 1 {
                    move = .section(from: gen.int(0...(table.sections.count - 1)), to: gen.int(0...(table.sections.count - 1)))
                } else if let (from, to) = gen.rowMove(in: table) {
                    move = .row(from: from, to: to)
                } else {
                    break
                }
                try table.apply(move)
                memo.apply(move)
                for (u, section) in table.sections.enumerated() {
                    for (k, row) in section.rows.enumerated() where memo.row(u, k) != row {
                        Issue.record("the memo lost track of row \(u).\(k) after \(move): \(memo.row(u, k)) ≠ \(row)")
                        return
                    }
                }
            }
        }
    }
}

/// Lists and `not`s that read rows' content only are remembered per class of rows by the memo
/// (``CompiledRowSelector/isContentOnly``), as plain id/kind/tag keys are: a bind through the
/// memo decides as a plain bind, while the rows move under it.
@Suite struct ContentOnlySelectorMemoTests {
    static let policies = [
        "  - lock: { not: { id: [a, b] } }\n  - accept: { section: 1, rows: { not: { id: x } } }\n",
        "  - pin: [ { kind: item }, { not: { tag: x } } ]\n  - keep-in-section: [ { id: c }, { not: { kind: [add, status] } } ]\n",
        "  - capacity: { section: all, max: 3, rows: { not: { kind: status } } }\n  - pin: { not: [ { id: a }, { not: { tag: y } } ] }\n",
        "  - lock: []\n  - reserve: { first: 1 }\n  - accept: { section: all, rows: [ { id: d }, { not: { kind: item, tag: [x] } } ] }\n",
    ]

    @Test(arguments: policies.indices)
    func memoBindsDecideAsPlainBinds(policy: Int) throws {
        let compiled = try PolicyLoader.load(text: "reorder-policy: 1\nname: t\nrules:\n" + Self.policies[policy]).compile()
        var gen = RandomPolicies(seed: 0xC0_47E7 + UInt64(policy))
        for _ in 0..<120 {
            var table = gen.table()
            let memo = RowContentMemo(table)
            for _ in 0..<8 {
                let plain = compiled.bind(table), memoized = compiled.bind(table, memo: memo)
                for _ in 0..<6 {
                    guard let (from, to) = gen.rowMove(in: table) else { break }
                    let move = Move.row(from: from, to: to)
                    let expected = try plain.decide(move), actual = try memoized.decide(move)
                    #expect(actual == expected, "table \(table) move \(move)")
                    if actual != expected { return }
                }
                guard let (from, to) = gen.rowMove(in: table) else { break }
                try table.apply(.row(from: from, to: to))
                memo.apply(.row(from: from, to: to))
            }
        }
    }
}

