import Testing
import ReorderEngine

extension SectionPinRule: ReferenceSectionMeaning, RandomSectionRuleKind {
    func held(in ref: ReferenceEvaluator) -> Set<Int> { ref.sectionsSelected(target) }

    /// SPEC §2.5: invalid if a pinned section's index (or distance from the end: the same,
    /// the count never changes) is not what it was.
    func isBroken(byOrder order: [Int], in ref: ReferenceEvaluator) -> Bool {
        held(in: ref).contains { order[$0] != $0 }
    }

    static let weight = 7
    static func random(_ g: inout RandomPolicies) -> SectionRule.Kind {
        let target = g.sectionRuleTarget()
        return .pin(target, anchor: g.chance(0.3) ? g.pick([.start, .end]) : nil)
    }
}

@Suite struct SectionPinRuleTests {
    @Test func pinnedSectionsKeepTheirIndex() throws {
        let policy = Policy(name: "t", sectionRules: [SectionRule(.pin(.last(1), anchor: nil), metadata: RuleMetadata(id: "footer"))])
        let table = Table(sections: [Section(id: "a", rows: []), Section(id: "b", rows: []), Section(id: "c", rows: [])])
        let bound = try CompiledPolicy(policy).bind(table)
        #expect(!bound.canMoveSection(2))
        #expect(try bound.decide(.section(from: 0, to: 1)).kind == .allowed)
        let moved = try bound.decide(.section(from: 0, to: 2))
        #expect(moved.kind == .retargeted)
        #expect(moved.target == .section(1))
        #expect(moved.violations.map(\.reason) == [#"moving section 0 ("a") to 2 would shift pinned section 2 ("c") from 2 to 1"#])
        #expect(try bound.explain(.section(from: 0, to: 1)).trace.map(\.reason) == ["no pinned section would shift"])
    }
}
