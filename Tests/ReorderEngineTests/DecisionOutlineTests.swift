import Testing
@testable import ReorderEngine
@testable import ReorderPolicy

/// A batch's JSON is written from each row move's outline (`BoundPolicy.outline`): the outcome,
/// the target and the rules to word, whose reasons go straight into the output. It must be,
/// byte for byte, what the decision (`BoundPolicy.decide`) gives.
@Suite struct DecisionOutlineTests {
    private struct Tally { var moves = 0, refused = 0, denied = 0, several = 0, invalid = 0 }

    /// Every row move of `bound`'s table (and some that do not fit it), written both ways.
    private func expectSameResults(_ bound: BoundPolicy, _ tally: inout Tally, every step: Int = 1) {
        var decisions = DecisionJSON.PrefixCache(), outlines = DecisionJSON.PrefixCache()
        let table = bound.table
        var n = 0
        for (s, section) in table.sections.enumerated() {
            for i in -1...section.rows.count {
                for (t, target) in table.sections.enumerated() {
                    for j in 0...target.rows.count + 1 {
                        n += 1
                        guard n % step == 0 else { continue }
                        let move = Move.row(from: Position(section: s, row: i), to: Position(section: t, row: j))
                        let decision = Result { () throws(MoveError) in try bound.decide(move) }
                        let outline = Result { () throws(MoveError) in try bound.outline(move) }
                        switch (decision, outline) {
                        case (.failure(let a), .failure(let b)):
                            #expect(a == b, "\(move)")
                            tally.invalid += 1
                        case (.success(let d), .success(let o?)):
                            #expect(o.kind == d.kind && o.target == d.target, "\(move)")
                            #expect(Array(o.rules) == d.violations.map(\.ruleReference.ordinal), "\(move)")
                            var a = JSONWriter(), b = JSONWriter()
                            DecisionJSON.result(d, cache: &decisions, into: &a)
                            withUnsafePointer(to: bound) { DecisionJSON.result(o, bound: bound, at: $0, cache: &outlines, into: &b) }
                            #expect(a.text == b.text, "\(move)")
                            tally.moves += 1
                            if d.kind != .allowed { tally.refused += 1 }
                            if d.kind == .denied { tally.denied += 1 }
                            if d.violationCount > 1 { tally.several += 1 }
                        default:
                            Issue.record("\(move): decided \(decision), outlined \(outline)")
                        }
                    }
                }
            }
        }
    }

    @Test("every row move of 300 random policies and tables is written from its outline as from its decision")
    func outlinesWriteAsDecisions() throws {
        var gen = RandomPolicies(seed: 0x0D7E)
        var tally = Tally()
        for _ in 0..<300 {
            let bound = try CompiledPolicy(gen.policy()).bind(gen.table())
            expectSameResults(bound, &tally)
        }
        // The comparison reaches every kind of result (a guard against a generator that drifts).
        #expect(tally.moves > 10_000 && tally.refused > 2_000 && tally.denied > 200 && tally.several > 100 && tally.invalid > 1_000,
                "\(tally)")
    }

    @Test("reasons worded for JSON escape hostile ids, names and kinds as the JSON writer escapes the plain reason")
    func hostileVocabulary() throws {
        var gen = RandomPolicies(seed: 0x0E5C)
        // Quotes, backslashes, control characters, non-ASCII, and ids long enough that a
        // reason outgrows its 128 inline bytes (escaped, six bytes a control character).
        let long = String(repeating: "long\u{1}", count: 30)
        gen.rowIDs = ["a", "q\"", "back\\slash", "nl\n", "\u{01}\t\u{1F}", "é💥", long]
        gen.sectionIDs = ["In", "\"S\"", "tab\t", long]
        gen.kinds = ["item", "k\"ind", "a\\b"]
        gen.tags = ["x", "t\n"]
        gen.attributeNames = ["wip", "fl\"oor"]
        var tally = Tally(), longest = 0
        for _ in 0..<200 {
            let bound = try CompiledPolicy(gen.policy()).bind(gen.table())
            expectSameResults(bound, &tally)
            // The longest reason worded for JSON (the comparison above covers it, this shows
            // that reasons past the 128 inline bytes are among those compared).
            for (s, section) in bound.table.sections.enumerated() {
                for i in section.rows.indices {
                    for (t, target) in bound.table.sections.enumerated() {
                        for j in 0...target.rows.count {
                            // (A destination past the end of its own section is invalid: skipped.)
                            guard let o = try? bound.outline(.row(from: Position(section: s, row: i), to: Position(section: t, row: j))) else { continue }
                            withUnsafePointer(to: bound) { address in
                                o.rules.forEach { bound.withJSONReason($0, of: o, at: address) { longest = max(longest, $0.count) } }
                            }
                        }
                    }
                }
            }
        }
        #expect(tally.moves > 5_000 && tally.refused > 1_000 && tally.denied > 100 && tally.several > 50, "\(tally)")
        #expect(longest > 128, "the longest JSON reason has \(longest) bytes")
    }

    @Test("rules past the 64th are named, as the brute-force reference names them, and worded from the outline as from the decision")
    func manyRules() throws {
        var gen = RandomPolicies(seed: 0x64)
        var tally = Tally(), late = 0
        for _ in 0..<12 {
            let policy = Policy(name: "many", rules: (0..<70).map { gen.rule($0) })
            let table = gen.table()
            let bound = try CompiledPolicy(policy).bind(table)
            expectSameResults(bound, &tally, every: 3)
            // The outline's rules are the rules the move breaks, past the 64th too (an outline
            // decides for the decision as well, so this is the evidence that it names them all).
            let reference = ReferenceEvaluator(policy: policy, table: table)
            for _ in 0..<40 {
                guard let (from, to) = gen.rowMove(in: table), let outline = try bound.outline(.row(from: from, to: to)) else { continue }
                let named = outline.rules.map { policy.rules[$0].metadata.id }
                #expect(ReferenceEvaluator.Outcome(kind: outline.kind, target: outline.target, ruleIDs: named) == reference.rowOutcome(from, to),
                        "\(from) -> \(to)")
                if outline.rules.contains(where: { $0 >= 64 }) { late += 1 }
            }
        }
        #expect(tally.refused > 200 && tally.several > 100 && late > 50, "\(tally), \(late) naming a rule past the 64th")
    }

    @Test("a row result's head, written in room reserved once, reads as written piece by piece, for extreme positions")
    func headAtExtremes() {
        let values = [0, 9, 10, 99, 100, -1, -10, 12_345, Int.max, Int.min, Int.min + 1]
        var gen = SplitMix64(seed: 0x4EAD)
        var cache = DecisionJSON.PrefixCache()
        for _ in 0..<500 {
            let v = (0..<6).map { _ in values[Int(gen.next() % UInt64(values.count))] }
            let kind = DecisionKind.allCases[Int(gen.next() % 4)]
            let decision = Decision(move: .row(from: Position(section: v[0], row: v[1]), to: Position(section: v[2], row: v[3])),
                                    kind: kind, target: .row(Position(section: v[4], row: v[5])), violations: [])
            var w = JSONWriter(capacity: 0)
            DecisionJSON.result(decision, cache: &cache, into: &w)
            let expected = "{\"move\": {\"from\": [\(v[0]), \(v[1])], \"to\": [\(v[2]), \(v[3])]}, \"decision\": \"\(kind.rawValue)\", \"target\": [\(v[4]), \(v[5])], \"violations\": []}"
            #expect(w.text == expected)
        }
    }

    @Test("a section move has no outline, and one that does not fit the table is invalid as for its decision")
    func sectionMoves() throws {
        let table = Table(sections: [Section(id: "S", rowIDs: ["a"]), Section(id: "T", rowIDs: [])])
        let bound = try CompiledPolicy(Policy(name: "p", rules: [])).bind(table)
        #expect(try bound.outline(.section(from: 0, to: 1)) == nil)
        let invalid = Move.section(from: 0, to: 5)
        #expect(throws: MoveError.self) { try bound.decide(invalid) }
        #expect(throws: MoveError.self) { try bound.outline(invalid) }
    }

    @Test("check's JSON and JSON Lines are the same written from outlines as from decisions (a decision log needs decisions)")
    func runnerWritesOutlines() throws {
        var gen = RandomPolicies(seed: 0x0D7F)
        for _ in 0..<100 {
            let bound = try CompiledPolicy(gen.policy()).bind(gen.table())
            var moves: [Move] = []
            for _ in 0..<40 {
                if let (from, to) = gen.rowMove(in: bound.table) { moves.append(.row(from: from, to: to)) }
            }
            moves.append(.section(from: 0, to: bound.table.sections.count - 1))
            moves.append(.row(from: Position(section: 0, row: -1), to: Position(section: 0, row: 0)))
            for format in [CheckRunner.Format.json, CheckRunner.Format(name: "jsonl")!] {
                var outlined = CheckRunner(bound: bound, format: format)
                var decided = CheckRunner(bound: bound, format: format)
                decided.log = JSONWriter()
                for move in moves {
                    outlined.decide(move)
                    decided.decide(move)
                }
                #expect(outlined.output.text == decided.output.text)
                #expect(outlined.summary.exitStatus == decided.summary.exitStatus)
            }
        }
    }
}
