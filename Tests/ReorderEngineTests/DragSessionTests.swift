import Testing
import ReorderEngine

@Suite struct DragSessionTests {
    @Test(arguments: 0..<4)
    func replayedHoverTracesShowExactlyTheFinalMove(chunk: Int) throws {
        var gen = RandomPolicies(seed: 0xD4A6 + UInt64(chunk))
        var sessions = 0
        for _ in 0..<300 {
            let policy = gen.policy(), table = gen.table()
            let bound = try CompiledPolicy(policy).bind(table)
            guard let (source, _) = gen.rowMove(in: table), var session = DragSession(bound: bound, source: source) else { continue }
            sessions += 1
            for _ in 0..<gen.int(1...6) {
                guard let (_, proposed) = gen.rowMove(in: Table(sections: table.sections)) else { break }
                // Hovers are proposals for this source; skip ones that do not fit it.
                guard (try? table.validate(.row(from: source, to: proposed))) != nil else { continue }
                let landed = session.hover(proposed)
                #expect(landed == bound.target(from: source, proposed: proposed))
                // What the view shows is the table after moving the row to the placeholder.
                let shown = try table.applying(.row(from: source, to: session.target))
                for (u, section) in shown.sections.enumerated() {
                    #expect(session.displayedRowCount(section: u) == section.rows.count)
                    for k in section.rows.indices {
                        let p = try #require(session.dataSourcePosition(forVisible: Position(section: u, row: k)))
                        #expect(table.row(at: p) == section.rows[k])
                        #expect(session.isPlaceholder(Position(section: u, row: k)) == (p == source))
                    }
                    #expect(session.dataSourcePosition(forVisible: Position(section: u, row: section.rows.count)) == nil)
                }
            }
            // The drop is the one move that produces what was shown.
            let final = try table.applying(.row(from: source, to: session.target))
            if let move = session.drop() {
                #expect(try table.applying(move) == final)
                #expect(try bound.decide(move).kind == .allowed)
            } else {
                #expect(final == table)
            }
        }
        #expect(sessions > 100)
    }

    @Test func immovableRowsCannotBeDragged() throws {
        let policy = Policy(name: "t", rules: [RowRule(.pin(RowSelector(position: .first(1)), anchor: nil), metadata: RuleMetadata(id: "p"))])
        let bound = try CompiledPolicy(policy).bind(Table(sections: [Section(rowIDs: ["a", "b"])]))
        #expect(DragSession(bound: bound, source: Position(section: 0, row: 0)) == nil)
        var session = try #require(DragSession(bound: bound, source: Position(section: 0, row: 1)))
        #expect(session.hover(Position(section: 0, row: 0)) == Position(section: 0, row: 1))
        #expect(session.drop() == nil)
    }
}
