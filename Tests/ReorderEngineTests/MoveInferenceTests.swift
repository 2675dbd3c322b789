import Testing
import ReorderEngine

@Suite struct MoveInferenceTests {
    func apply(_ moves: [Move], to table: Table) throws -> Table {
        var t = table
        for m in moves { t = try t.applying(m) }
        return t
    }

    @Test func diffOfOneMoveRecoversIt() throws {
        var gen = RandomPolicies(seed: 3)
        var checked = 0
        for _ in 0..<2000 {
            // Unique ids so the move is recoverable up to equivalence.
            var n = 0
            let table = Table(sections: gen.table().sections.map { s in
                Section(id: s.id, rows: s.rows.map { _ in n += 1; return Row(id: "r\(n)") })
            })
            guard let (from, to) = gen.rowMove(in: table) else { continue }
            let after = try table.applying(.row(from: from, to: to))
            switch MoveInference.infer(before: table, after: after) {
            case .unchanged: #expect(after == table)
            case .move(let m):
                #expect(try table.applying(m) == after)
                checked += 1
            default: Issue.record("one move should be recovered as one move: \(table) \(from)->\(to)")
            }
        }
        #expect(checked > 1000)
    }

    @Test func randomReorderingsAreReproducedWithTheFewestMoves() throws {
        var gen = RandomPolicies(seed: 4)
        for _ in 0..<500 {
            var table = Table(sections: (0..<gen.int(1...3)).map { s in Section(id: "S\(s)", rowIDs: (0..<gen.int(0...5)).map { "s\(s)r\($0)" }) })
            let before = table
            var applied = 0
            for _ in 0..<gen.int(0...4) {
                guard let (from, to) = gen.rowMove(in: table) else { break }
                table = try table.applying(.row(from: from, to: to))
                applied += 1
            }
            let moves: [Move]
            switch MoveInference.infer(before: before, after: table) {
            case .unchanged: moves = []
            case .move(let m): moves = [m]
            case .exchange(_, _, let m), .moves(let m): moves = m
            case .notAReorder(let why): Issue.record("\(why)"); continue
            }
            #expect(try apply(moves, to: before) == table)
            #expect(moves.count <= applied)
        }
    }

    func moves(_ change: MoveInference.Change) -> [Move]? {
        switch change {
        case .unchanged: []
        case .move(let m): [m]
        case .exchange(_, _, let m), .moves(let m): m
        case .notAReorder: nil
        }
    }

    @Test func duplicateIdsAndSectionReordersTakeTheFewestMoves() throws {
        var gen = RandomPolicies(seed: 5)
        var sectionMoves = 0
        for _ in 0..<1500 {
            // Few ids, so rows repeat; sections sometimes share ids or have none.
            var table = Table(sections: (0..<gen.int(1...4)).map { _ in
                Section(id: gen.chance(0.5) ? gen.pick(["S", "T", "U"]) : nil, rowIDs: (0..<gen.int(0...5)).map { _ in gen.pick(["a", "b", "c"]) })
            })
            let before = table
            var applied = 0
            for _ in 0..<gen.int(0...3) {
                if gen.chance(0.3) {
                    let n = table.sections.count
                    table = try table.applying(.section(from: gen.int(0...(n - 1)), to: gen.int(0...(n - 1))))
                } else {
                    guard let (from, to) = gen.rowMove(in: table) else { break }
                    table = try table.applying(.row(from: from, to: to))
                }
                applied += 1
            }
            let change = MoveInference.infer(before: before, after: table)
            let list = try #require(moves(change), "\(change) \(before) → \(table)")
            #expect(try apply(list, to: before) == table, "\(before) → \(table): \(list)")
            #expect(list.count <= applied, "\(before) → \(table): \(list) after \(applied) moves")
            sectionMoves += list.filter { if case .section = $0 { true } else { false } }.count
        }
        #expect(sectionMoves > 100)
    }

    @Test func aReorderingOfSectionsIsOneSectionMove() throws {
        let before = Table(sections: [Section(id: "A", rowIDs: ["a", "b"]), Section(id: "B", rowIDs: ["c"]), Section(rowIDs: ["d"])])
        let after = Table(sections: [before.sections[1], before.sections[2], before.sections[0]])
        #expect(MoveInference.infer(before: before, after: after) == .move(.section(from: 0, to: 2)))
        // Sections without ids are told apart by their rows.
        let plain = Table(sections: [Section(rowIDs: ["a", "b"]), Section(rowIDs: ["c"])])
        let reversed = Table(sections: plain.sections.reversed())
        guard case .move(let m) = MoveInference.infer(before: plain, after: reversed), case .section = m else {
            Issue.record("two sections exchanged are one section move")
            return
        }
        #expect(try plain.applying(m) == reversed)
        // Sections without ids but with different data are told apart by it: a move, not an edit.
        let kinds = Table(sections: [Section(kind: "bucket", rowIDs: ["a"]), Section(kind: "pool", rowIDs: ["a"]), Section(rowIDs: [])])
        let swapped = Table(sections: [kinds.sections[1], kinds.sections[0], kinds.sections[2]])
        guard case .move(let k) = MoveInference.infer(before: kinds, after: swapped), case .section = k else {
            Issue.record("sections told apart by kind")
            return
        }
        #expect(try kinds.applying(k) == swapped)
    }

    @Test func repeatedIdsArePairedForTheFewestMoves() {
        // Pairing the k-th "a" before with the k-th after would take 4 moves; moving "x" once suffices.
        let before = Table(sections: [Section(rowIDs: ["x", "a", "a", "a", "a"])])
        let after = Table(sections: [Section(rowIDs: ["a", "a", "a", "a", "x"])])
        #expect(MoveInference.infer(before: before, after: after) == .move(.row(from: Position(section: 0, row: 0), to: Position(section: 0, row: 4))))
        let b2 = Table(sections: [Section(rowIDs: ["a", "b", "a", "c", "a"])])
        let a2 = Table(sections: [Section(rowIDs: ["b", "a", "c", "a", "a"])])
        #expect(moves(MoveInference.infer(before: b2, after: a2))?.count == 1)
    }

    @Test func editsOfKindsTagsAndSectionDataAreReported() {
        let before = Table(sections: [Section(id: "S", kind: "bucket", attributes: ["wip": 2], rows: [Row(id: "a", kind: "card"), Row(id: "b")])])
        var kind = before
        kind.sections[0].rows[0].kind = "note"
        #expect(MoveInference.infer(before: before, after: kind) == .notAReorder("row \"a\" (now at 0.0) was edited: kind \"card\" → \"note\""))
        var tags = before
        tags.sections[0].rows[1].tags = ["x"]
        #expect(MoveInference.infer(before: before, after: tags) == .notAReorder("row \"b\" (now at 0.1) was edited: tags [] → [\"x\"]"))
        var attributes = before
        attributes.sections[0].attributes["wip"] = 3
        #expect(MoveInference.infer(before: before, after: attributes) == .notAReorder("section \"S\" was edited: attributes {wip: 2} → {wip: 3}"))
        var renamed = before
        renamed.sections[0].id = "T"
        #expect(MoveInference.infer(before: before, after: renamed) == .notAReorder("section ids changed: added \"T\" and removed \"S\""))
    }

    @Test func exchangesAndEditsAreNamed() {
        let before = Table(sections: [Section(rowIDs: ["a", "b", "c", "d"])])
        let swapped = Table(sections: [Section(rowIDs: ["d", "b", "c", "a"])])
        guard case .exchange(let p, let q, let moves) = MoveInference.infer(before: before, after: swapped) else {
            Issue.record("an exchange is not a move")
            return
        }
        #expect(Set([p, q]) == Set([Position(section: 0, row: 0), Position(section: 0, row: 3)]))
        #expect(moves.count == 2)
        guard case .notAReorder(let why) = MoveInference.infer(before: before, after: Table(sections: [Section(rowIDs: ["a", "b", "x"])])) else {
            Issue.record("rows changed")
            return
        }
        #expect(why == "rows were added \"x\" and removed \"c\", \"d\"")
        #expect(MoveInference.infer(before: before, after: before) == .unchanged)
    }
}
