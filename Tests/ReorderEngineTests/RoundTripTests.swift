import Testing
import ReorderEngine
import ReorderPolicy

/// Writes policy models as YAML text, so random policies can go through the real loader.
/// Each rule's argument is written by its kind (`argumentYAML`).
enum PolicyWriter {
    static func yaml(_ p: Policy) -> String {
        var out = "reorder-policy: 1\nname: \(FlowYAML.scalar(p.name))\nretarget: \(p.retarget.rawValue)\n"
        out += p.rules.isEmpty ? "rules: []\n" : "rules:\n"
        for rule in p.rules {
            out += "  - \(rule.keyword): \(rule.kind.unit.argumentYAML)\n    id: \(FlowYAML.scalar(rule.metadata.id))\n"
        }
        if !p.sectionRules.isEmpty { out += "section-rules:\n" }
        for rule in p.sectionRules {
            out += "  - \(rule.keyword): \(rule.kind.unit.argumentYAML)\n    id: \(FlowYAML.scalar(rule.metadata.id))\n"
        }
        return out
    }
}

@Suite struct RoundTripTests {
    @Test func randomPoliciesSurviveTheLoader() {
        var gen = RandomPolicies(seed: 11)
        for _ in 0..<1000 {
            let policy = gen.policy()
            let text = PolicyWriter.yaml(policy)
            let document = PolicyLoader.load(text: text, path: "r.yaml")
            guard let loaded = document.policy else {
                Issue.record("\(document.diagnostics.map(\.message))\n\(text)")
                return
            }
            // `all` is the keyword even quoted or in a list, so compare what the two mean, as written.
            #expect(PolicyWriter.yaml(loaded) == text, "\(text)")
            #expect(loaded.rules.map(\.metadata.id) == policy.rules.map(\.metadata.id))
            #expect(loaded.retarget == policy.retarget)
        }
    }
}

