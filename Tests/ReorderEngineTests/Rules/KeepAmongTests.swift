import Testing
import ReorderEngine
import ReorderPolicy

extension KeepAmongRule: ReferenceMeaning, RandomRuleKind {
    /// SPEC §13.2, literally: within one section, the rows whose index the move changes (the
    /// moving rows aside) must all be in a moving row's group; groups are read on the table
    /// before the move.
    func isBroken(by move: SimulatedMove, in ref: ReferenceEvaluator) -> Bool {
        guard !move.crossesSections else { return false }
        func group(_ p: Position) -> String {
            switch groups {
            case .kind: return ref.table.sections[p.section].rows[p.row].kind.map { "kind:" + $0 } ?? "none"
            case .rows(let selector): return ref.selects(selector, p).0 ? "in" : "out"
            }
        }
        let shifted = move.whereIs.filter { old, new in old.section == move.s && !move.moving.contains(old) && new != old }.keys
        return shifted.contains { p in move.moving.contains { group($0) != group(p) } }
    }

    static let weight = 1
    static func random(_ g: inout RandomPolicies) -> RowRule.Kind {
        .keepAmong(g.chance(0.3) ? .kind : .rows(g.rowSelector()))
    }
}

@Suite struct KeepAmongRuleTests {
    static func bound(_ groups: KeepAmongRule.Groups, _ table: Table, retarget: RetargetMode = .nearest) throws -> BoundPolicy {
        let policy = Policy(name: "t", retarget: retarget, rules: [RowRule(.keepAmong(groups), metadata: RuleMetadata(id: "among"))])
        return try CompiledPolicy(policy).bind(table)
    }

    static let chats = Table(sections: [Section(id: "Chats", rows: [
        Row(id: "Pinned-1", tags: ["pinned"]), Row(id: "Pinned-2", tags: ["pinned"]),
        Row(id: "Inbox"), Row(id: "Work"), Row(id: "Family"),
    ]), Section(id: "Archive", rows: [Row(id: "Old")])])

    /// SPEC §13.2's example: a chat passing a pinned chat is refused, and the reason names it.
    @Test func rowsStayAmongTheirOwn() throws {
        let bound = try Self.bound(.rows(RowSelector(tags: ["pinned"])), Self.chats)
        let p = { (s: Int, r: Int) in Position(section: s, row: r) }
        #expect(bound.canMove(p(0, 2)))
        #expect(bound.isValid(from: p(0, 2), to: p(0, 4)))
        #expect(bound.isValid(from: p(0, 0), to: p(0, 1)))
        #expect(!bound.isValid(from: p(0, 2), to: p(0, 1)))
        #expect(!bound.isValid(from: p(0, 1), to: p(0, 2)))
        // Moves to another section are not limited.
        #expect(bound.isValid(from: p(0, 0), to: p(1, 0)))
        let d = try bound.decide(.row(from: p(0, 4), to: p(0, 1)))
        #expect(d.violations.map(\.reason) == ["moving \"Family\" to 0.1 would pass \"Pinned-2\", which is not among its own (tag pinned)"])
        #expect(d.kind == .retargeted && d.target == .row(p(0, 2)))
        // The first row passed of another group, in reading order (not the first row passed).
        let mixed = try Self.bound(.rows(RowSelector(tags: ["pinned"])), Table(sections: [Section(rows: [
            Row(id: "P1", tags: ["pinned"]), Row(id: "A"), Row(id: "P2", tags: ["pinned"])])]))
        #expect(try mixed.decide(.row(from: p(0, 2), to: p(0, 0))).violations.map(\.reason)
                == ["moving \"P2\" to 0.0 would pass \"A\", which is not among its own (not tag pinned)"])
        let up = try bound.decide(.row(from: p(0, 0), to: p(0, 3)))
        #expect(up.violations.map(\.reason) == ["moving \"Pinned-1\" to 0.3 would pass \"Inbox\", which is not among its own (not tag pinned)"])
    }

    @Test func byKindRowsWithoutAKindAreOneGroup() throws {
        let table = Table(sections: [Section(rows: [Row(id: "h", kind: "header"), Row(id: "a"), Row(id: "b"), Row(id: "c", kind: "card"), Row(id: "d", kind: "card")])])
        let bound = try Self.bound(.kind, table)
        let p = { (r: Int) in Position(section: 0, row: r) }
        #expect(bound.isValid(from: p(1), to: p(2)))
        #expect(!bound.isValid(from: p(1), to: p(3)))
        #expect(bound.isValid(from: p(4), to: p(3)))
        #expect(!bound.isValid(from: p(3), to: p(2)))
        #expect(try bound.decide(.row(from: p(2), to: p(0))).violations.map(\.reason)
                == ["moving \"b\" to 0.0 would pass \"h\", which is not among its own (kind header)"])
        #expect(try bound.decide(.row(from: p(3), to: p(1))).violations.map(\.reason)
                == ["moving \"c\" to 0.1 would pass \"a\", which is not among its own (no kind)"])
    }

    /// Blocks: a block may not shift a row of another group than one of its rows.
    @Test func blocksStayAmongTheirOwn() throws {
        let bound = try Self.bound(.rows(RowSelector(tags: ["pinned"])), Self.chats)
        #expect(try bound.decide(MultiRowMove(section: 0, rows: [2, 3], to: Position(section: 0, row: 3))).kind == .allowed)
        let refused = try bound.decide(MultiRowMove(section: 0, rows: [2, 3], to: Position(section: 0, row: 1)))
        #expect(refused.kind != .allowed)
        #expect(refused.violations.map(\.reason) == ["moving \"Inbox\" and \"Work\" to 0.1–0.2 would pass \"Pinned-2\", which is not among its own (tag pinned)"])
    }

    /// With `retarget: source-section` an invalid drop stays at the nearest row among its own.
    @Test func retargetStaysAmongTheirOwn() throws {
        let bound = try Self.bound(.rows(RowSelector(tags: ["pinned"])), Self.chats, retarget: .sourceSection)
        #expect(bound.target(from: Position(section: 0, row: 3), proposed: Position(section: 0, row: 0)) == Position(section: 0, row: 2))
        #expect(bound.target(from: Position(section: 0, row: 1), proposed: Position(section: 0, row: 4)) == Position(section: 0, row: 1))
    }

    @Test func itReadsFromPolicyFilesAndRefusesOtherWords() throws {
        let document = PolicyLoader.load(text: """
            reorder-policy: 1
            name: chats
            rules:
              - keep-among: kind
              - keep-among: { tag: pinned }
              - keep-among: [{ kind: a }, { first: 1 }]
            """)
        #expect(!document.hasErrors, "\(document.diagnostics.map(\.message))")
        #expect(document.policy?.rules.map(\.kind) == [.keepAmong(.kind), .keepAmong(.rows(RowSelector(tags: ["pinned"]))),
                                                        .keepAmong(.rows(.anyOf([RowSelector(kinds: ["a"]), RowSelector(position: .first(1))])))])
        #expect(document.policy?.rules.map(\.kind.description) == ["keep-among: kind", "keep-among: { tag: pinned }", "keep-among: [{ kind: a }, { first: 1 }]"])
        let wrong = PolicyLoader.load(text: """
            reorder-policy: 1
            name: chats
            rules:
              - keep-among: kinds
            """)
        #expect(wrong.diagnostics.contains { $0.code == .invalidValue && $0.message == "expected 'kind' or a row selector for 'keep-among', found 'kinds'" && $0.span.start.line == 4 })
        let retarget = PolicyLoader.load(text: """
            reorder-policy: 1
            name: chats
            retarget: source-section
            rules: []
            """)
        #expect(retarget.policy?.retarget == .sourceSection)
    }
}
