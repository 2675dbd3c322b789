import Testing
import ReorderEngine

extension ReferenceEvaluator {
    /// Multi-row moves by definition: simulate, then check every rule on the moved block.
    func multiViolations(_ move: MultiRowMove, to: Position) -> [String] {
        violatedRules(simulate(section: move.section, rows: move.rows, to: to))
    }

    func multiOutcome(_ move: MultiRowMove) -> Outcome {
        let moving = move.rows.map { Position(section: move.section, row: $0) }
        let holding = policy.rules.filter { rule in held(rule).contains { moving.contains($0.0) } }
        if !holding.isEmpty { return Outcome(kind: .denied, target: .row(move.source), ruleIDs: holding.map(\.metadata.id)) }
        let violated = multiViolations(move, to: move.to)
        if violated.isEmpty { return Outcome(kind: .allowed, target: .row(move.to), ruleIDs: []) }
        if policy.retarget == .cancel { return Outcome(kind: .rejected, target: .row(move.source), ruleIDs: violated) }
        if policy.retarget == .sourceSection {
            // SPEC §13.1 for a block (docs/LANGUAGE.md): the valid landing of its own section
            // nearest to min(j, n_s - m), on a tie the one nearer to where the block starts.
            let n = table.sections[move.section].rows.count - moving.count
            let c = min(move.to.row, n), start = min(move.rows[0], n)
            let best = (0...n).filter { multiViolations(move, to: Position(section: move.section, row: $0)).isEmpty }
                .min { (abs($0 - c), abs($0 - start)) < (abs($1 - c), abs($1 - start)) }
            let target = best.map { Position(section: move.section, row: $0) } ?? move.source
            return Outcome(kind: target == move.source ? .rejected : .retargeted, target: .row(target), ruleIDs: violated)
        }
        var slots: [Position] = []
        for (u, section) in table.sections.enumerated() {
            let count = u == move.section ? section.rows.count - moving.count + 1 : section.rows.count + 1
            for k in 0..<count { slots.append(Position(section: u, row: k)) }
        }
        let p = slots.firstIndex(of: move.to)!, q = slots.firstIndex(of: move.source)!
        let best = slots.indices.filter { multiViolations(move, to: slots[$0]).isEmpty }
            .min { (abs($0 - p), abs($0 - q)) < (abs($1 - p), abs($1 - q)) }
        let target = best.map { slots[$0] } ?? move.source
        return Outcome(kind: target == move.source ? .rejected : .retargeted, target: .row(target), ruleIDs: violated)
    }
}

@Suite struct MultiRowTests {
    @Test(arguments: 0..<4)
    func multiRowMovesMatchTheReference(chunk: Int) throws {
        var gen = RandomPolicies(seed: 0x5EED + UInt64(chunk))
        var compared = 0
        for _ in 0..<500 {
            let policy = gen.policy(), table = gen.table()
            let bound = try CompiledPolicy(policy).bind(table)
            let reference = ReferenceEvaluator(policy: policy, table: table)
            let candidates = table.sections.indices.filter { table.sections[$0].rows.count >= 1 }
            guard !candidates.isEmpty else { continue }
            let s = gen.pick(candidates), n = table.sections[s].rows.count
            let rows = Array(Set((0..<gen.int(1...n)).map { _ in gen.int(0...(n - 1)) })).sorted()
            let t = gen.int(0...(table.sections.count - 1))
            let limit = t == s ? n - rows.count : table.sections[t].rows.count
            let move = MultiRowMove(section: s, rows: rows, to: Position(section: t, row: gen.int(0...limit)))
            let decision = try bound.decide(move)
            let expected = reference.multiOutcome(move)
            let actual = ReferenceEvaluator.Outcome(kind: decision.kind, target: .row(decision.target), ruleIDs: decision.violations.map(\.rule))
            #expect(actual == expected, "policy \(policy) table \(table) move \(move)")
            if actual != expected { return }
            compared += 1
        }
        #expect(compared > 300)
    }

    /// Issue #26: a block retargeted past many pinned rows counted the pinned rows once per
    /// destination (O(destinations × held rows): 10 s at 160,000 rows). Its growth (8 times the
    /// rows, about 8 times the time) is a release size guard (Benchmarks/Sources/SizeGuards,
    /// "a block retargeted past pinned rows"); here, its answer.
    @Test func aBlockRetargetedPastPinnedRowsLandsBeforeThem() throws {
        let n = 20_000
        let policy = Policy(name: "t", rules: [RowRule(.pin(RowSelector(position: .last(n / 2)), anchor: .start), metadata: RuleMetadata(id: "p"))])
        let bound = try CompiledPolicy(policy).bind(Table(sections: [Section(rowIDs: (0..<n).map { "r\($0)" })]))
        let decision = try bound.decide(MultiRowMove(section: 0, rows: [0, 1], to: Position(section: 0, row: 3 * n / 4)))
        #expect(decision.kind == .retargeted && decision.target == Position(section: 0, row: n / 2 - 2))
    }

    @Test func aSingleRowBlockDecidesLikeARowMove() throws {
        var gen = RandomPolicies(seed: 77)
        for _ in 0..<300 {
            let policy = gen.policy(), table = gen.table()
            let bound = try CompiledPolicy(policy).bind(table)
            guard let (from, to) = gen.rowMove(in: table) else { continue }
            let single = try bound.decide(.row(from: from, to: to))
            let block = try bound.decide(MultiRowMove(section: from.section, rows: [from.row], to: to))
            #expect(block.kind == single.kind && Destination.row(block.target) == single.target)
            #expect(block.violations.map(\.rule) == single.violations.map(\.rule))
        }
    }

    @Test func blocksKeepTheirOrderAndNothingIsLost() throws {
        let table = Table(sections: [Section(rowIDs: ["a", "b", "c", "d", "e"]), Section(rowIDs: ["x"])])
        let after = try table.applying(MultiRowMove(section: 0, rows: [3, 1], to: Position(section: 0, row: 0)))
        #expect(after.sections[0].rows.map(\.id) == ["b", "d", "a", "c", "e"])
        let across = try table.applying(MultiRowMove(section: 0, rows: [0, 4], to: Position(section: 1, row: 1)))
        #expect(across.sections.map { $0.rows.map(\.id) } == [["b", "c", "d"], ["x", "a", "e"]])
    }

    @Test func capacityCountsEveryMovingRow() throws {
        let policy = Policy(name: "t", rules: [RowRule(.capacity(section: .index(1), max: 3, min: nil), metadata: RuleMetadata(id: "wip"))])
        let bound = try CompiledPolicy(policy).bind(Table(sections: [Section(rowIDs: ["a", "b", "c"]), Section(rowIDs: ["x"])]))
        #expect(try bound.decide(MultiRowMove(section: 0, rows: [0, 1], to: Position(section: 1, row: 0))).kind == .allowed)
        let three = try bound.decide(MultiRowMove(section: 0, rows: [0, 1, 2], to: Position(section: 1, row: 0)))
        #expect(three.kind == .rejected)
        #expect(three.violations.first?.reason == "moving \"a\", \"b\" and \"c\" to 1.0–1.2 would put 4 rows in section 1, more than its max of 3")
    }
}

@Suite struct IndexConventionTests {
    @Test func swiftUIOffsetsAreOneSlotPastFinalIndicesWhenMovingDown() {
        // A B C D: move A to the end. SwiftUI says offset 4; UIKit says final index 3.
        #expect(IndexConvention.finalIndex(source: 0, offset: 4) == 3)
        #expect(IndexConvention.offset(source: 0, finalIndex: 3) == 4)
        // Moving up, both agree.
        #expect(IndexConvention.finalIndex(source: 3, offset: 1) == 1)
    }

    @Test(arguments: 0..<200)
    func adaptersRoundTripAndMatchMoveSubranges(seed: Int) throws {
        var gen = RandomPolicies(seed: UInt64(seed) &* 0x9E37)
        let n = gen.int(1...7)
        let sources = Array(Set((0..<gen.int(1...n)).map { _ in gen.int(0...(n - 1)) })).sorted()
        let offset = gen.int(0...n)
        // What the standard library's moveSubranges does, by hand: remove, then insert before `offset`.
        var ids = (0..<n).map { "r\($0)" }
        let moving = sources.map { ids[$0] }
        let before = ids.prefix(offset).filter { !moving.contains($0) }, after = ids.dropFirst(offset).filter { !moving.contains($0) }
        ids = before + moving + after
        let move = IndexConvention.move(fromOffsets: sources, toOffset: offset, section: 0)
        let table = Table(sections: [Section(rowIDs: (0..<n).map { "r\($0)" })])
        #expect(try table.applying(move).sections[0].rows.map(\.id) == ids)
        #expect(IndexConvention.finalIndex(sources: sources, offset: IndexConvention.offset(sources: sources, finalIndex: move.to.row)) == move.to.row)
        if sources.count == 1 {
            #expect(IndexConvention.offset(source: sources[0], finalIndex: IndexConvention.finalIndex(source: sources[0], offset: offset))
                    == (offset == sources[0] + 1 ? sources[0] : offset))
        }
    }
}

@Suite struct MultiRowExplanationTests {
    @Test func everyRefusedRowIsNamed() throws {
        let policy = Policy(name: "t", rules: [
            RowRule(.keepInSection(RowSelector(kinds: ["item"])), metadata: RuleMetadata(id: "own")),
            RowRule(.accept(section: .index(1), from: .all, rows: RowSelector(ids: ["b"])), metadata: RuleMetadata(id: "only-b")),
        ])
        let table = Table(sections: [Section(rows: [Row(id: "a", kind: "item"), Row(id: "b"), Row(id: "c", kind: "item")]), Section(rowIDs: ["x"])])
        let decision = try CompiledPolicy(policy).bind(table).decide(MultiRowMove(section: 0, rows: [0, 1, 2], to: Position(section: 1, row: 0)))
        #expect(decision.violations.map(\.reason) == [
            "moving \"a\" and \"c\" to 1.0–1.2 would take them out of section 0",
            "section 1 does not accept rows \"a\" and \"c\"",
        ])
    }
}

