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
