import Foundation
import Testing
import ReorderEngine
import ReorderPolicy

/// Every registered rule kind is covered by the reference evaluator and the random policies,
/// so a kind added to the registry without its test file fails here, not silently.
@Suite struct RuleKindCoverageTests {
    @Test func everyKindHasAReferenceMeaningAndARandomGenerator() {
        for kind in RuleRegistry.rowKinds {
            #expect(kind is any ReferenceMeaning.Type, "\(kind.keyword): conform its type to ReferenceMeaning in its test file")
            #expect(kind is any RandomRuleKind.Type, "\(kind.keyword): conform its type to RandomRuleKind in its test file")
        }
        for kind in SectionRuleRegistry.kinds {
            #expect(kind is any ReferenceSectionMeaning.Type, "section \(kind.keyword): conform its type to ReferenceSectionMeaning in its test file")
            #expect(kind is any RandomSectionRuleKind.Type, "section \(kind.keyword): conform its type to RandomSectionRuleKind in its test file")
        }
    }

    /// The language guide documents every kind: a row of its rule table starts with the keyword.
    @Test func everyKindIsDocumented() throws {
        let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../docs/LANGUAGE.md")
        let text = try String(contentsOf: guide, encoding: .utf8)
        for kind in RuleRegistry.rowKinds {
            #expect(text.contains("| `\(kind.keyword):"), "docs/LANGUAGE.md has no row for '\(kind.keyword)'")
        }
        // Section-rule kinds: a row of the table under "## Section rules".
        let sectionPart = try #require(text.range(of: "## Section rules")).upperBound
        let sections = text[sectionPart...].prefix { $0 != "#" }
        for kind in SectionRuleRegistry.kinds {
            #expect(sections.contains("| `\(kind.keyword):"), "docs/LANGUAGE.md's section rules have no row for '\(kind.keyword)'")
        }
    }

    /// The JSON Schema is valid JSON and offers exactly the registered kinds.
    @Test func theSchemaListsEveryKind() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(PolicySchema.json.utf8)) as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        let rowRule = try #require(defs["rowRule"] as? [String: Any])
        let properties = try #require(rowRule["properties"] as? [String: Any])
        #expect(Set(properties.keys) == Set(RuleRegistry.rowKinds.map { $0.keyword } + ["id", "message"]))
        let sectionRule = try #require(defs["sectionRule"] as? [String: Any])
        let sectionProperties = try #require(sectionRule["properties"] as? [String: Any])
        #expect(Set(sectionProperties.keys) == Set(SectionRuleRegistry.kinds.map { $0.keyword } + ["id", "message"]))
    }

    @Test func keywordsAreDistinct() {
        let keywords = RuleRegistry.rowKinds.map { $0.keyword }
        #expect(Set(keywords).count == keywords.count)
        let sectionKeywords = SectionRuleRegistry.kinds.map { $0.keyword }
        #expect(Set(sectionKeywords).count == sectionKeywords.count)
    }

    /// Deciding and explaining cannot disagree, and neither disagrees with SPEC §2: the rules
    /// the explanation's trace marks violated are the decision's violations, and they are the
    /// rules the brute-force reference finds broken by simulating the move (or, for a row that
    /// cannot be picked up, the rules that hold it). `explain` takes its verdicts from the
    /// decision rather than asking each rule again, so the reference is what checks them.
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
            let reference = ReferenceEvaluator(policy: policy, table: table).rowOutcome(from, to)
            #expect(Set(violated) == Set(reference.ruleIDs), "policy \(policy) table \(table) move \(from)->\(to): reference \(reference)")
            // Every rule is in the trace once, and only the broken ones are violated.
            #expect(explanation.trace.filter { policy.rules.map(\.metadata.id).contains($0.rule) }.count == policy.rules.count)
            // A section move of the same table: the section rules' verdicts, likewise.
            let count = table.sections.count
            let (a, b) = (gen.int(0...(count - 1)), gen.int(0...(count - 1)))
            let sectionExplanation = try bound.explain(.section(from: a, to: b))
            let sectionViolated = sectionExplanation.trace.filter { $0.verdict == .violated }.map(\.rule)
            let sectionReference = ReferenceEvaluator(policy: policy, table: table).sectionOutcome(a, b)
            #expect(Set(sectionViolated) == Set(sectionReference.ruleIDs), "policy \(policy) table \(table) section move \(a)->\(b): reference \(sectionReference)")
            compared += 1
        }
        #expect(compared > 300)
    }
}
