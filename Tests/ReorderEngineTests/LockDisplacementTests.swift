import Testing
import ReorderEngine
@testable import ReorderPolicy

/// `lock-displaced` decided by the search (docs/ANALYSIS.md, "Locks whose rows shift"): every
/// witness is an allowed move that shifts a locked row on the engine, and every "never" holds
/// on many random tables, larger than the theorem's bound included (lists, `not`, section
/// mappings, duplicate section ids, positions from both ends, from the random policies).
@Suite struct LockDisplacementTests {
    @Test(arguments: 0..<3)
    func displacementIsDecidedOnEveryTableTried(chunk: Int) throws {
        var gen = RandomPolicies(seed: 0x10CD + UInt64(chunk))
        var found = 0, never = 0
        for n in 0..<50 {
            var policy = gen.policy()
            // A lock, often beside pins and rules that keep rows still.
            policy.rules.insert(RowRule(.lock(gen.rowSelector()), metadata: RuleMetadata(id: "lock-\(n)")), at: gen.int(0...policy.rules.count))
            if gen.chance(0.4) { policy.rules.append(RowRule(.keepOrder(gen.chance(0.5) ? .all : gen.sectionSelector()), metadata: RuleMetadata(id: "order-\(n)"))) }
            if gen.chance(0.4) { policy.rules.append(RowRule(.keepInSection(gen.chance(0.5) ? .all : gen.rowSelector()), metadata: RuleMetadata(id: "stay-\(n)"))) }
            let compiled = try CompiledPolicy(policy)
            let tables = ExactAnalysisTests.tables(&gen, 80)
            let locks = policy.rules.indices.filter {
                guard case .hold(_, pins: false, _) = policy.rules[$0].kind.meaning else { return false }
                return true
            }
            let answers = ExactAnalysis.displacements(ofLocks: locks, in: policy, compiled, work: ExactAnalysis.defaultWork)
            for r in locks {
                switch answers[r] ?? .unknown {
                case .found(let w):
                    #expect(PolicyAnalyzer.displaces(r, w, compiled), "witness of lock \(r) does not shift a locked row: \(policy)\n\(w.table) \(w.from)->\(w.to)")
                    found += 1
                case .none:
                    never += 1
                    for table in tables {
                        let bound = compiled.bind(table)
                        let held = bound.rowsHeld(byRule: r).map(\.position)
                        guard !held.isEmpty else { continue }
                        for (s, section) in table.sections.enumerated() {
                            for i in section.rows.indices where bound.canMove(Position(section: s, row: i)) {
                                let from = Position(section: s, row: i)
                                for (t, target) in table.sections.enumerated() {
                                    for j in 0...(t == s ? target.rows.count - 1 : target.rows.count) {
                                        let to = Position(section: t, row: j)
                                        guard to != from, bound.isValid(from: from, to: to) else { continue }
                                        if held.contains(where: { $0 != from && PolicyAnalyzer.shifts($0, from: from, to: to) }) {
                                            Issue.record("lock \(r) said never shifted, but \(from)->\(to) shifts it: \(policy)\n\(table)")
                                            return
                                        }
                                    }
                                }
                            }
                        }
                    }
                case .unknown:
                    Issue.record("lock \(r) undecided: \(policy)")
                }
            }
        }
        #expect(found > 10 && never > 10, "found \(found), never \(never)")
    }
}
