import Testing
import ReorderEngine
import ReorderPolicy

/// A binding updated after each move within a section (``BoundPolicy/follow(_:)``, as `diff`
/// uses it) decides every row and section move exactly as a fresh binding of the moved table.
/// The random policies select rows by content, by position from both ends, by both at once,
/// in lists and `not`s, over several sections and sections that share an id; every row move
/// is followed (only selector keys the fast paths do not know would make a binding decline).
@Suite struct FollowMoveTests {
    /// Every row move and every section move that fits `table`.
    static func everyMove(_ table: Table) -> [Move] {
        var moves: [Move] = []
        let n = table.sections.count
        for s in 0..<n {
            for i in table.sections[s].rows.indices {
                for t in 0..<n {
                    let limit = t == s ? table.sections[s].rows.count - 1 : table.sections[t].rows.count
                    for j in 0...limit { moves.append(.row(from: Position(section: s, row: i), to: Position(section: t, row: j))) }
                }
            }
        }
        for a in 0..<n { for b in 0..<n { moves.append(.section(from: a, to: b)) } }
        return moves
    }

    @Test(arguments: 0..<4)
    func followedBindingsDecideAsFreshBindings(chunk: Int) throws {
        var gen = RandomPolicies(seed: 0xF0_1100 + UInt64(chunk))
        var followed = 0, declined = 0, across = 0
        for _ in 0..<90 {
            let compiled = try CompiledPolicy(gen.policy())
            var table = gen.table()
            // Half the time through a memo of the rows' content, as `diff` binds (lists and
            // `not`s of content keys then follow too).
            let memo = gen.chance(0.5)
            var bound = memo ? compiled.bind(table, memo: RowContentMemo(table)) : compiled.bind(table)
            for _ in 0..<8 {
                let fresh = compiled.bind(table)
                for move in Self.everyMove(table) {
                    let expected = try fresh.decide(move), actual = try bound.decide(move)
                    #expect(actual == expected, "policy \(compiled.policy) table \(table) move \(move) after \(followed) followed")
                    if actual != expected { return }
                    #expect(try bound.explain(move) == fresh.explain(move), "explain \(move)")
                    if case .row(let from, let to) = move {
                        // The fast path (`target`, its lanes and summaries), not only `decide`.
                        #expect(bound.canMove(from) == fresh.canMove(from), "canMove \(from)")
                        #expect(bound.target(from: from, proposed: to) == fresh.target(from: from, proposed: to), "target \(move)")
                    }
                }
                // Blocks of rows, contiguous or not, within and across sections.
                for _ in 0..<4 {
                    guard let (from, to) = gen.rowMove(in: table) else { break }
                    let n = table.sections[from.section].rows.count
                    let rows = Array(Set([from.row, gen.int(0...(n - 1))])).sorted()
                    let block = MultiRowMove(section: from.section, rows: rows, to: Position(section: to.section, row: min(to.row, table.sections[to.section].rows.count - (to.section == from.section ? rows.count : 0))))
                    let expected = try? fresh.decide(block), actual = try? bound.decide(block)
                    #expect(actual == expected, "block \(block)")
                }
                // A move within a section or to another one, as `diff` infers them.
                guard let (from, proposed) = gen.rowMove(in: table) else { break }
                let within = gen.chance(0.5) ? Position(section: from.section, row: gen.int(0...(table.sections[from.section].rows.count - 1))) : proposed
                let move = Move.row(from: from, to: within)
                let before = table
                var copy = bound
                try table.apply(move)
                if try bound.follow(move) {
                    followed += 1
                    if from.section != within.section { across += 1 }
                    #expect(bound.table == table)
                    // A copy taken before is left as it was (the row order is copied on write).
                    #expect(copy.table == before)
                    if try copy.follow(move) { #expect(copy.table == table) }
                } else {
                    // A `keep-among` reads its groups on the table before each move: such a
                    // binding declines, and the caller binds again (BoundPolicy.follow).
                    let groups = compiled.policy.rules.contains { if case .keepAmong = $0.kind.meaning { true } else { false } }
                    if !groups { declined += 1 }
                    bound = compiled.bind(table)
                }
            }
        }
        // Every row move is followed (but under `keep-among`): no built-in selector key makes a
        // binding decline.
        #expect(followed > 250, "followed \(followed), declined \(declined)")
        #expect(across > 60, "followed \(followed) (\(across) between sections), declined \(declined)")
        #expect(declined == 0, "followed \(followed), declined \(declined)")
    }

    /// Policies whose sections take `target`'s fast path (every row kept in its section, held
    /// rows only at the ends: ``SectionSummary/fast``), which the random policies rarely draw:
    /// a followed binding must update those lanes too.
    static let fastPathPolicies = [
        "  - lock: { id: a }\n  - keep-in-section: {}\n",
        "  - pin: { kind: status }\n  - keep-in-section: {}\n",
        "  - pin: { kind: add, anchor: end }\n  - lock: { tag: x }\n  - keep-in-section: {}\n",
        "  - reserve: { last: 1 }\n  - pin: { id: [b, c] }\n  - keep-in-section: {}\n",
    ]

    @Test(arguments: fastPathPolicies.indices)
    func followedFastLanesTargetAsFreshBindings(policy: Int) throws {
        // Moves within sections only: the lanes stay fast.
        let (followed, _) = try Self.followedDecideAsFresh(Self.fastPathPolicies[policy], seed: 0xFA57 + UInt64(policy), tables: 150, across: false)
        #expect(followed > 300)
    }

    /// Binds `policy` to random tables, follows random moves (within sections unless
    /// `across`), and compares the followed binding with a fresh one on every move of the
    /// table after each (`decide`, `canMove`, `target`, the table). Returns the moves followed,
    /// and how many of them went to another section.
    static func followedDecideAsFresh(_ policy: String, seed: UInt64, tables: Int, across: Bool) throws -> (followed: Int, across: Int) {
        let compiled = try PolicyLoader.load(text: "reorder-policy: 1\nname: t\nrules:\n" + policy).compile()
        var gen = RandomPolicies(seed: seed)
        var followed = 0, crossed = 0
        for _ in 0..<tables {
            var table = gen.table()
            // Through a memo, as `diff` binds (a `not` of content keys then follows too).
            var bound = compiled.bind(table, memo: RowContentMemo(table))
            for _ in 0..<8 {
                let fresh = compiled.bind(table)
                for move in Self.everyMove(table) {
                    let expected = try fresh.decide(move), actual = try bound.decide(move)
                    #expect(actual == expected, "move \(move) in \(table)")
                    if actual != expected { return (followed, crossed) }
                    if case .row(let from, let to) = move {
                        #expect(bound.canMove(from) == fresh.canMove(from), "canMove \(from) in \(table)")
                        #expect(bound.target(from: from, proposed: to) == fresh.target(from: from, proposed: to), "target \(move) in \(table)")
                    }
                }
                guard let (from, proposed) = gen.rowMove(in: table) else { break }
                let to = across ? proposed : Position(section: from.section, row: gen.int(0...(table.sections[from.section].rows.count - 1)))
                let move = Move.row(from: from, to: to)
                try table.apply(move)
                if try bound.follow(move) {
                    followed += 1
                    if from.section != to.section { crossed += 1 }
                    #expect(bound.table == table)
                } else {
                    bound = compiled.bind(table, memo: RowContentMemo(table))
                }
            }
        }
        return (followed, crossed)
    }

    /// Policies whose held rows and limits change when a row moves, most of all to another
    /// section: rules choosing rows by content in some sections only, by position from either
    /// end, by both, limits on counts. A followed binding must decide as a fresh one.
    static let acrossPolicies = [
        "  - lock: { tag: x, section: 0 }\n",
        // Chosen in some sections only, anchored at the end: a row joining one is tested.
        "  - pin: { kind: status, anchor: end, section: [0, -1] }\n  - lock: { id: [a, b], section: { not: { id: In } } }\n",
        "  - pin: { kind: status, section: [1, 2] }\n  - lock: { id: a }\n",
        "  - pin: { last: 1 }\n  - pin: { first: 1, section: 1 }\n",
        "  - reserve: { last: 1 }\n  - lock: { index: [0, -2] }\n",
        "  - capacity: { section: 0, max: 3, min: 1 }\n  - pin: { tag: x }\n",
        "  - pin: { kind: status, anchor: end }\n  - lock: { section: 2 }\n  - keep-in-section: { id: b }\n",
        "  - accept: { section: 1, rows: { not: { tag: x } } }\n  - pin: { last: 2, section: 0 }\n",
        // Position and content together: laid out again from the rows now in those places.
        "  - pin: { first: 1, kind: status }\n  - lock: { last: 2, tag: x, section: [0, 2] }\n",
        "  - lock: { index: [0, -1], id: [a, b] }\n  - pin: { first: 2, tag: x, anchor: end }\n  - reserve: { last: 1 }\n",
        // Lists of plain selectors that each name a position (policies/chats.yaml): laid out
        // again from every item's places; a row two items select counts from the end if either does.
        "  - pin: [{ last: 2, tag: x }, { first: 2, kind: status }]\n",
        "  - pin: [{ first: 2, tag: x }, { index: -1, kind: status, section: [1, 2] }, { last: 2, id: [a, b] }]\n  - lock: [{ index: [0, -2], section: 0 }, { last: 1 }]\n",
        // Lists whose items name a position or not: the rows the others hold by content go
        // with their rows, the places are laid out again, a row both hold counts from the end
        // when its place does; items choosing some sections only (a row joining one is tested).
        "  - pin: [{ kind: status }, { last: 1 }]\n",
        "  - lock: [{ tag: x, section: 0 }, { first: 2 }]\n  - pin: [{ id: a, section: [1, 2] }, { index: -1, tag: x }, { kind: status }]\n",
        "  - pin: [{ kind: status }, { last: 2 }, { first: 1, tag: x }]\n  - reserve: { first: 1, section: 2 }\n",
        "  - pin: [{ section: 1 }, { id: [a, b] }]\n  - lock: [{ kind: status, section: 0 }, { tag: x, section: -1 }]\n",
        // Rows held through a `not` or nested list reading positions or sections: the rows at
        // the places they name, and the moved row, are tested again.
        "  - pin: { kind: status, not: { first: 1 } }\n  - lock: [[{ last: 1 }], { tag: x, section: 0 }]\n",
        "  - pin: { section: [0, 1], not: [{ index: [0, -1] }, { id: a }] }\n",
        "  - lock: { not: { last: 2, tag: x } }\n  - pin: { not: [{ section: 0 }, { first: 2 }] }\n",
        // Queries that are lists or `not`s reading positions or sections: the rows at the
        // places they name, and the moved row, are tested again.
        "  - keep-in-section: { not: [{ first: 1 }, { kind: status }] }\n",
        "  - accept: { section: 1, rows: [{ last: 2 }, { index: [0, -2], tag: x }, { not: { index: 1 } }] }\n  - pin: { kind: status }\n",
        "  - keep-in-section: [{ section: 0, not: { tag: x } }, { last: 1, section: [1, 2] }]\n  - lock: { first: 1, section: 2 }\n",
        // Counts of chosen rows (SPEC §12): full and low sections change as rows cross.
        "  - capacity: { section: [0, 1], max: 2, min: 1, rows: { tag: x } }\n  - pin: { last: 1 }\n",
        "  - capacity: { section: [0, 1, 2, 3], max: 3, min: 2, rows: { not: { kind: status } } }\n  - capacity: { section: 2, max: 1, rows: { id: [a, b] } }\n",
        // Counts of rows chosen by position: rows that cross a place it names are counted again.
        "  - capacity: { section: [0, 1], max: 1, min: 1, rows: { first: 2, tag: x } }\n  - capacity: { section: [0, 1, 2, 3], max: 2, rows: { last: 1 } }\n",
        "  - capacity: { section: [0, 1, 2], max: 2, min: 1, rows: [{ index: [1, -2], kind: status }, { not: { first: 3 } }] }\n",
        "  - capacity: { section: [1, 2], max: 1, rows: { section: 1, not: { index: -1 } } }\n  - pin: { kind: status }\n",
        "  - capacity: { section: [0, 1, 2], max: 2, min: 1, rows: { not: { index: -1 } } }\n",
    ]

    @Test(arguments: acrossPolicies.indices)
    func rowsFollowedAcrossSectionsDecideAsFreshBindings(policy: Int) throws {
        let (_, across) = try Self.followedDecideAsFresh(Self.acrossPolicies[policy], seed: 0xAC_2055 + UInt64(policy), tables: 120, across: true)
        #expect(across > 100, "\(across) moves between sections followed")
    }

    /// A move that does not fit the table is refused with its error, within a section or
    /// across, before anything is read at the places it names.
    @Test func followRefusesMovesOutsideTheTable() throws {
        let compiled = try PolicyLoader.load(text: "reorder-policy: 1\nname: t\nrules:\n  - lock: { tag: x, section: 0 }\n").compile()
        let table = Table(sections: [Section(rowIDs: ["a", "b"]), Section(rowIDs: ["c"])])
        for move in [Move.row(from: Position(section: 5, row: 0), to: Position(section: 0, row: 0)),
                     .row(from: Position(section: 0, row: 0), to: Position(section: 7, row: 0)),
                     .row(from: Position(section: 0, row: 0), to: Position(section: 1, row: 3)),
                     .row(from: Position(section: 0, row: 2), to: Position(section: 0, row: 0))] {
            var bound = compiled.bind(table)
            #expect(throws: MoveError.self, "\(move)") { try bound.follow(move) }
        }
        // A section move, on the section rules' binding that follows them.
        for move in [Move.section(from: 2, to: 0), .section(from: 0, to: -1)] {
            var sections = compiled.bindSections(table)
            #expect(throws: MoveError.self, "\(move)") { try sections.follow(move) }
        }
    }

    /// A binding of the section rules alone (`diff`'s leading section moves) decides every
    /// section move as a whole binding does.
    @Test func sectionRulesAloneDecideSectionMoves() throws {
        var gen = RandomPolicies(seed: 0x5EC7_0001)
        var compared = 0
        for _ in 0..<400 {
            let compiled = try CompiledPolicy(gen.policy())
            let table = gen.table()
            let whole = compiled.bind(table), sections = compiled.bindSections(table)
            for move in Self.everyMove(table) {
                guard case .section = move else { continue }
                #expect(try sections.decide(move) == whole.decide(move), "policy \(compiled.policy) table \(table) move \(move)")
                compared += 1
            }
        }
        #expect(compared > 1000)
    }

    /// A binding of the section rules alone, followed through random section moves (`diff`'s
    /// leading ones), decides every section move as a fresh binding of the moved table: random
    /// section rules reading indices (from both ends), data (ids shared by several sections),
    /// or both, on tables of up to twelve sections. Each class of target is drawn.
    @Test(arguments: 0..<2)
    func sectionMovesFollowedDecideAsFreshBindings(chunk: Int) throws {
        var gen = RandomPolicies(seed: 0x5EC7_F011 + UInt64(chunk))
        var compared = 0
        var drawn: [String: Int] = [:]
        for _ in 0..<300 {
            var policy = gen.policy()
            // Random section rules draw mostly targets reading indices alone: add one reading
            // data (an id several sections share), or data and indices (from both ends).
            let id = gen.pick(gen.sectionIDs), index = gen.int(-3...3)
            let target: SectionSelector = switch gen.int(0...3) {
            case 0: .id(id)
            case 1: .some([.index(index), .id(id)])
            case 2: .matching(SectionFilter(indices: [index, gen.int(0...3)], not: .id(id)))
            default: .matching(SectionFilter(kinds: [gen.pick(gen.sectionKinds)], not: .index(index)))
            }
            let kind: SectionRule.Kind = gen.chance(0.5) ? .lock(.sections(target)) : .pin(.sections(target), anchor: gen.chance(0.5) ? .end : nil)
            policy.sectionRules.append(SectionRule(kind, metadata: RuleMetadata(id: "section-rule-added")))
            let compiled = try CompiledPolicy(policy)
            for rule in policy.sectionRules {
                let name = switch rule.target.moveEffect { case .stays: "stays"; case .moves: "moves"; case .changes: "changes" }
                drawn[name, default: 0] += 1
            }
            // Up to three random tables' sections together: more sections for moves to cross.
            var table = gen.table()
            for _ in 0..<gen.int(0...2) { table.sections += gen.table().sections }
            var bound = compiled.bindSections(table)
            for _ in 0..<10 {
                let fresh = compiled.bindSections(table)
                let n = table.sections.count
                for a in 0..<n {
                    #expect(bound.canMoveSection(a) == fresh.canMoveSection(a))
                    for b in 0..<n {
                        let move = Move.section(from: a, to: b)
                        #expect(try bound.decide(move) == fresh.decide(move), "policy \(policy) table \(table) move \(move)")
                        compared += 1
                    }
                }
                let move = Move.section(from: gen.int(0...(n - 1)), to: gen.int(0...(n - 1)))
                try table.apply(move)
                #expect(try bound.follow(move))
                #expect(bound.table == table)
                // It has no row tables: a row move is declined, not followed with stale ones.
                if let (from, to) = gen.rowMove(in: table) { #expect(try !bound.follow(.row(from: from, to: to))) }
            }
        }
        #expect(compared > 20_000)
        #expect(drawn.count == 3 && drawn.values.allSatisfy { $0 > 60 }, "\(drawn)")
        // A whole binding does not follow section moves: its row tables are laid out by section.
        let compiled = try CompiledPolicy(Policy(name: "t", sectionRules: [SectionRule(.lock(.first(1)), metadata: RuleMetadata(id: "s"))]))
        var whole = compiled.bind(Table(sections: [Section(rowIDs: ["a"]), Section(rowIDs: ["b"])]))
        #expect(try !whole.follow(.section(from: 0, to: 1)))
    }

    /// `diff` decides as binding each moved table afresh, with moves it follows, moves between
    /// sections and section moves mixed (the memo then catches up with the moves it missed).
    @Test(arguments: 0..<4)
    func diffDecidesAsFreshBindings(chunk: Int) throws {
        var gen = RandomPolicies(seed: 0xD1FF_0000 + UInt64(chunk))
        var compared = 0
        for _ in 0..<200 {
            let compiled = try CompiledPolicy(gen.policy())
            let before = gen.table()
            var after = before
            for _ in 0..<gen.int(1...6) {
                if gen.chance(0.15), after.sections.count > 1 {
                    try after.apply(.section(from: gen.int(0...(after.sections.count - 1)), to: gen.int(0...(after.sections.count - 1))))
                } else if let (from, to) = gen.rowMove(in: after) {
                    try after.apply(.row(from: from, to: to))
                }
            }
            let report = DiffReport(policy: compiled, before: before, after: after)
            let moves: [Move]
            switch report.change {
            case .unchanged, .notAReorder: moves = []
            case .move(let m): moves = [m]
            case .exchange(_, _, let m), .moves(let m): moves = m
            }
            var table = before
            var expected: [Decision] = []
            for move in moves {
                expected.append(try compiled.bind(table).decide(move))
                try table.apply(move)
            }
            #expect(report.decisions == expected, "policy \(compiled.policy) before \(before) after \(after)")
            if report.decisions != expected { return }
            compared += moves.count
        }
        #expect(compared > 300)
    }
}

/// ``SectionRanges/followRow(in:from:to:)`` against the permutation done by hand on sets of
/// indices, in sections of up to 12 rows among others.
@Suite struct SectionRangesFollowTests {
    @Test func followRowMovesMembershipWithTheRow() {
        var rng = SplitMix64(seed: 0x5EC7_1011)
        for _ in 0..<20_000 {
            let counts = (0..<Int.random(in: 1...3, using: &rng)).map { _ in Int.random(in: 0...12, using: &rng) }
            let density = Double.random(in: 0...1, using: &rng)
            let members = counts.map { n in (0..<n).filter { _ in Double.random(in: 0..<1, using: &rng) < density } }
            var ranges = SectionRanges()
            for list in members { ranges.appendSection(list.map { ($0, $0) }) }
            guard let u = counts.indices.filter({ counts[$0] > 0 }).randomElement(using: &rng) else { continue }
            let a = Int.random(in: 0..<counts[u], using: &rng), b = Int.random(in: 0..<counts[u], using: &rng)
            // By hand: the flags of section `u` in order, one taken out at `a` and put back at `b`.
            var flags = (0..<counts[u]).map { members[u].contains($0) }
            flags.insert(flags.remove(at: a), at: b)
            var expected = SectionRanges()
            for (v, list) in members.enumerated() {
                expected.appendSection(v == u ? flags.indices.filter { flags[$0] }.map { ($0, $0) } : list.map { ($0, $0) })
            }
            ranges.followRow(in: u, from: a, to: b)
            for v in counts.indices {
                let got = ranges.ranges(v).map { [$0.0, $0.1] }, want = expected.ranges(v).map { [$0.0, $0.1] }
                #expect(got == want, "members \(members) section \(u) move \(a) → \(b), section \(v)")
                if got != want { return }
            }
        }
    }

    /// ``SectionRanges/removeRow(in:at:)`` and ``SectionRanges/insertRow(in:at:member:)`` (a
    /// row followed to another section) against taking a flag out of one list and putting it
    /// into another by hand.
    @Test func removeAndInsertMoveMembershipAcrossSections() {
        var rng = SplitMix64(seed: 0xAC_1055)
        for _ in 0..<20_000 {
            let counts = (0..<Int.random(in: 2...4, using: &rng)).map { _ in Int.random(in: 0...12, using: &rng) }
            let density = Double.random(in: 0...1, using: &rng)
            let members = counts.map { n in (0..<n).filter { _ in Double.random(in: 0..<1, using: &rng) < density } }
            var ranges = SectionRanges()
            for list in members { ranges.appendSection(list.map { ($0, $0) }) }
            guard let u = counts.indices.filter({ counts[$0] > 0 }).randomElement(using: &rng) else { continue }
            let v = counts.indices.filter { $0 != u }.randomElement(using: &rng)!
            let a = Int.random(in: 0..<counts[u], using: &rng), b = Int.random(in: 0...counts[v], using: &rng)
            var flags = counts.indices.map { w in (0..<counts[w]).map { members[w].contains($0) } }
            let flag = flags[u].remove(at: a)
            flags[v].insert(flag, at: b)
            var expected = SectionRanges()
            for list in flags { expected.appendSection(list.indices.filter { list[$0] }.map { ($0, $0) }) }
            let was = ranges.removeRow(in: u, at: a)
            #expect(was == flag)
            ranges.insertRow(in: v, at: b, member: was)
            for w in counts.indices {
                let got = ranges.ranges(w).map { [$0.0, $0.1] }, want = expected.ranges(w).map { [$0.0, $0.1] }
                #expect(got == want, "members \(members) \(u).\(a) → \(v).\(b), section \(w)")
                if got != want { return }
            }
        }
    }

    /// ``SectionRanges/union(_:in:)`` (a merge of sorted sets) against sorting all their ranges.
    @Test func unionMergesAsSortingDoes() {
        var rng = SplitMix64(seed: 0x0010_0100)
        for _ in 0..<5_000 {
            let sections = Int.random(in: 1...3, using: &rng)
            let sets = (0..<Int.random(in: 0...5, using: &rng)).map { _ in
                var set = SectionRanges()
                for _ in 0..<sections {
                    let members = (0..<12).filter { _ in Int.random(in: 0...3, using: &rng) == 0 }
                    set.appendSection(members.map { ($0, $0) })
                }
                return set
            }
            for u in 0..<sections {
                var sorted = SectionRanges()
                sorted.appendSection(sets.flatMap { $0.ranges(u) })
                let merged = SectionRanges.union(sets, in: u)
                let got = zip(merged.lows, merged.highs).map { [$0, $1] }, want = sorted.ranges(0).map { [$0.0, $0.1] }
                #expect(got == want)
                if got != want { return }
            }
        }
    }
}
