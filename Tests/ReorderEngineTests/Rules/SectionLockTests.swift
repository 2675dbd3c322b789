import Testing
import ReorderEngine

extension SectionLockRule: ReferenceSectionMeaning, RandomSectionRuleKind {
    func held(in ref: ReferenceEvaluator) -> Set<Int> { ref.sectionsSelected(target) }

    /// A lock forbids no move of a section it does not hold.
    func isBroken(byOrder order: [Int], in ref: ReferenceEvaluator) -> Bool { false }

    static let weight = 3
    static func random(_ g: inout RandomPolicies) -> SectionRule.Kind { .lock(g.sectionRuleTarget()) }
}

@Suite struct SectionLockRuleTests {
    @Test func lockedSectionsCannotBePickedUpButMayShift() throws {
        let policy = Policy(name: "t", sectionRules: [SectionRule(.lock(.first(1)), metadata: RuleMetadata(id: "top"))])
        let table = Table(sections: [Section(id: "a", rows: []), Section(id: "b", rows: []), Section(id: "c", rows: [])])
        let bound = try CompiledPolicy(policy).bind(table)
        #expect(!bound.canMoveSection(0))
        #expect(try bound.decide(.section(from: 2, to: 0)).kind == .allowed)
        let denied = try bound.decide(.section(from: 0, to: 1))
        #expect(denied.kind == .denied)
        #expect(denied.violations.map(\.reason) == [#"section 0 ("a") is locked"#])
        let trace = try bound.explain(.section(from: 2, to: 1)).trace
        #expect(trace.map(\.reason) == [#"does not select section 2 ("c"); locked sections may still shift"#])
    }
}
