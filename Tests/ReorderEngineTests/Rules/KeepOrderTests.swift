import Testing
import ReorderEngine
import ReorderPolicy

extension KeepOrderRule: ReferenceMeaning, RandomRuleKind {
    /// SPEC §8.4, literally: within a selected section, every row must end where it was.
    func isBroken(by move: SimulatedMove, in ref: ReferenceEvaluator) -> Bool {
        guard !move.crossesSections, ref.sections(section).selected.contains(move.s) else { return false }
        return move.moving.contains { move.whereIs[$0] != $0 }
    }

    static let weight = 1
    static func random(_ g: inout RandomPolicies) -> RowRule.Kind { .keepOrder(g.sectionSelector()) }
}

@Suite struct KeepOrderRuleTests {
    static let pool = Table(sections: [Section(id: "Pool", rowIDs: ["a", "b", "c"]), Section(id: "Picked", rowIDs: ["x", "y"])])

    static func bound(retarget: RetargetMode = .nearest) throws -> BoundPolicy {
        let policy = Policy(name: "t", retarget: retarget, rules: [RowRule(.keepOrder(.id("Pool")), metadata: RuleMetadata(id: "fixed"))])
        return try CompiledPolicy(policy).bind(pool)
    }

    @Test func rowsOfAFixedSectionMayLeaveAndEnterButNotReorder() throws {
        let bound = try Self.bound()
        let p = { (s: Int, r: Int) in Position(section: s, row: r) }
        #expect(bound.canMove(p(0, 1)))
        #expect(bound.isValid(from: p(0, 1), to: p(0, 1)))
        #expect(!bound.isValid(from: p(0, 1), to: p(0, 0)))
        #expect(bound.isValid(from: p(0, 1), to: p(1, 0)))
        #expect(bound.isValid(from: p(1, 0), to: p(0, 0)))
        #expect(bound.isValid(from: p(1, 0), to: p(1, 1)))
        let decision = try bound.decide(.row(from: p(0, 0), to: p(0, 2)))
        #expect(decision.violations.map(\.reason) == ["moving \"a\" to 0.2 would change the order of section 0 (\"Pool\"), which is fixed"])
    }

    /// SPEC §8.5: an invalid drop inside a fixed-order section lands on the nearest valid slot
    /// in reading order, which may be in a neighbouring section that takes the row.
    @Test func retargetingFollowsReadingOrder() throws {
        let bound = try Self.bound()
        // Pool has 3 slots for its own row (offsets 0-2), Picked 3 (offsets 3-5). From 0.0 to 0.2:
        // valid are 0.0 (offset 0) and all of Picked; 1.0 (offset 3) is one away, 0.0 two.
        #expect(bound.target(from: Position(section: 0, row: 0), proposed: Position(section: 0, row: 2)) == Position(section: 1, row: 0))
        #expect(try Self.bound(retarget: .cancel).target(from: Position(section: 0, row: 0), proposed: Position(section: 0, row: 2))
                == Position(section: 0, row: 0))
    }

    @Test func blocksKeepTheOrderOnlyWhereTheyWere() throws {
        let bound = try Self.bound()
        #expect(try bound.decide(MultiRowMove(section: 0, rows: [0, 1], to: Position(section: 0, row: 0))).kind == .allowed)
        #expect(try bound.decide(MultiRowMove(section: 0, rows: [0, 1], to: Position(section: 0, row: 1))).kind != .allowed)
        #expect(try bound.decide(MultiRowMove(section: 0, rows: [0, 2], to: Position(section: 0, row: 0))).kind != .allowed)
        #expect(try bound.decide(MultiRowMove(section: 0, rows: [0, 2], to: Position(section: 1, row: 0))).kind == .allowed)
    }

    @Test func itReadsFromPolicyFilesAndMisspellingsAreLocated() throws {
        let document = PolicyLoader.load(text: """
            reorder-policy: 1
            name: pool
            rules:
              - keep-order: [Pool, 2]
            """)
        #expect(document.policy?.rules.first?.kind == .keepOrder(.some([.id("Pool"), .index(2)])))
        let wrong = PolicyLoader.load(text: """
            reorder-policy: 1
            name: pool
            rules:
              - keep-ordr: Pool
            """)
        #expect(wrong.diagnostics.contains { $0.code == .unknownKey && $0.message.contains("did you mean 'keep-order'?") && $0.span.start.line == 4 })
        let section = PolicyLoader.load(text: """
            reorder-policy: 1
            name: pool
            rules: []
            section-rules:
              - keep-order: Pool
            """)
        #expect(section.hasErrors)
    }
}
