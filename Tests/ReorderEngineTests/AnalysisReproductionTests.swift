import Foundation
import Testing
import ReorderEngine
import ReorderPolicy

/// Every finding of lint's analysis that carries a counterexample, over random policies:
/// the counterexample's table loads as a table file, its move fits, and the policy decides
/// it as the finding says (what `check` prints for that table and move); its plain rows
/// never take an id the policy mentions.
@Suite struct AnalysisReproductionTests {
    @Test(arguments: 0..<4)
    func counterexamplesReproduce(chunk: Int) throws {
        var gen = RandomPolicies(seed: 0xA11A + UInt64(chunk))
        var checked = 0
        for n in 0..<60 {
            // Locks and positional pins in most policies: they are what counterexamples show.
            var random = gen.policy()
            if gen.chance(0.7) { random.rules.append(RowRule(.lock(gen.rowSelector()), metadata: RuleMetadata(id: "lock-\(n)"))) }
            if gen.chance(0.3) {
                random.rules.append(RowRule(.pin(RowSelector(position: .indices([gen.int(0...3)])), anchor: nil), metadata: RuleMetadata(id: "pin-\(n)")))
            }
            // Rows held at both ends, and rows frozen between pins.
            if gen.chance(0.3) {
                random.rules.append(RowRule(.reserve(edge: .end, count: gen.int(1...3), section: nil), metadata: RuleMetadata(id: "reserve-\(n)")))
            }
            if gen.chance(0.2) {
                random.rules.append(RowRule(.pin(RowSelector(position: .indices([0, gen.int(2...3)])), anchor: nil), metadata: RuleMetadata(id: "gap-\(n)")))
                random.rules.append(RowRule(.keepInSection(.all), metadata: RuleMetadata(id: "stay-\(n)")))
            }
            let text = PolicyWriter.yaml(random)
            let document = PolicyLoader.load(text: text, path: "r.yaml")
            guard let policy = document.policy, let compiled = document.compiled() else { continue }
            let findings = PolicyAnalyzer(policy: policy, source: document.source, bound: AnalysisBound(sections: 2, rows: 3)).run()
            for finding in findings {
                guard let json = finding.counterexample?.json else { continue }
                let o = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
                let tableText = String(decoding: try JSONSerialization.data(withJSONObject: o["table"]!), as: UTF8.self)
                let (table, problems) = TableLoader.load(text: tableText)
                let t = try #require(table, "\(problems)\n\(json)")
                let move = o["move"] as! [String: Any]
                let from = move["from"] as! [Int], to = move["to"] as! [Int]
                let decision = try compiled.bind(t).decide(.row(from: Position(section: from[0], row: from[1]), to: Position(section: to[0], row: to[1])))
                #expect(decision.kind.rawValue == o["decision"] as? String, "\(finding.code): \(json)\n\(text)")
                // SPEC §10: the rule the finding stands at is among the move's violations and
                // named in `rules` (a lock's shifted row is shown by a move it allows: there a
                // lock refuses nothing).
                if finding.code != .lockDisplaced {
                    let at = policy.rules.first { $0.metadata.location?.line == finding.span.start.line }?.metadata.id
                    let named = o["rules"] as? [String] ?? []
                    #expect(at.map { id in named.contains(id) && decision.violations.contains { $0.rule == id } } ?? false,
                            "\(finding.code) at \(at ?? "?"): \(json)\n\(text)")
                }
                // Plain rows are named apart from every id the policy mentions.
                let mentioned = Set(policy.rules.flatMap { $0.kind.unit.mentions.rows.flatMap(Self.ids) })
                for row in t.sections.flatMap(\.rows) where row.id.hasPrefix("row-") {
                    #expect(!mentioned.contains(row.id), "\(row.id) is mentioned by the policy: \(text)")
                }
                checked += 1
            }
        }
        #expect(checked >= 10, "too few counterexamples to mean anything: \(checked)")
    }

    static func ids(_ s: RowSelector) -> [String] {
        (s.ids ?? []) + (s.alternatives ?? []).flatMap(ids) + (s.not.map(ids) ?? [])
    }
}
