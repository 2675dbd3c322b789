import Testing
import ReorderPolicy

/// The README's "Embedding in a service" example, verbatim, with its claims checked.
@Suite struct ReadmeExampleTests {
    @Test func embeddingExampleWorksAsWritten() throws {
        let document = PolicyLoader.load(text: """
            reorder-policy: 1
            name: status-list
            rules:
              - pin: { first: 1 }
                id: status-row
                message: The status row stays first.
            """)
        guard let compiled = document.compiled() else {
            Issue.record("\(document.diagnostics.map(\.message).joined(separator: "\n"))")
            return
        }

        let table = Table(sections: [Section(id: "Inbox", rowIDs: ["Status", "Groceries", "Dentist", "Taxes"])])
        let bound = compiled.bind(table)

        #expect(bound.canMove(Position(section: 0, row: 0)) == false)
        #expect(bound.target(from: Position(section: 0, row: 3), proposed: Position(section: 0, row: 0)) == Position(section: 0, row: 1))

        let decision = try bound.decide(.row(from: Position(section: 0, row: 3), to: Position(section: 0, row: 0)))
        #expect(decision.kind == .retargeted)
        #expect(decision.violations.first?.reason == "moving \"Taxes\" to 0.0 would shift pinned row \"Status\" from 0.0 to 0.1")

        let after = try table.applying(.row(from: Position(section: 0, row: 3), to: Position(section: 0, row: 1)))
        #expect(after.sections[0].rows.map(\.id) == ["Status", "Taxes", "Groceries", "Dentist"])
    }

    @Test func runtimeKitExamplesWorkAsWritten() throws {
        let compiled = try #require(PolicyLoader.load(text: "reorder-policy: 1\nname: t\nrules:\n  - pin: { first: 1 }\n").compiled())
        let board = Table(sections: [Section(rowIDs: ["Status", "A", "B"]), Section(rowIDs: ["C"])])
        var drag = try #require(DragSession(bound: compiled.bind(board), source: Position(section: 0, row: 2)))
        #expect(drag.hover(Position(section: 0, row: 0)) == Position(section: 0, row: 1))
        #expect(drag.displayedRowCount(section: 0) == 3)
        #expect(drag.dataSourcePosition(forVisible: Position(section: 0, row: 2)) == Position(section: 0, row: 1))
        #expect(drag.drop() == .row(from: Position(section: 0, row: 2), to: Position(section: 0, row: 1)))

        #expect(IndexConvention.finalIndex(source: 0, offset: 4) == 3)
        #expect(IndexConvention.move(fromOffsets: [1, 2], toOffset: 4, section: 0)
                == MultiRowMove(section: 0, rows: [1, 2], to: Position(section: 0, row: 2)))

        let list = Table(sections: [Section(rowIDs: ["Status", "A", "B", "C"])])
        let block = try compiled.bind(list).decide(MultiRowMove(section: 0, rows: [2, 3], to: Position(section: 0, row: 0)))
        #expect(block.kind == .retargeted && block.target == Position(section: 0, row: 1))

        #expect(try PersistencePlan.integerWrites(keys: [[10, 20, 30, 40]], from: Position(section: 0, row: 3), to: Position(section: 0, row: 1))
                == [PersistencePlan.Write(position: Position(section: 0, row: 3), key: 15)])
        let plan = try PersistencePlan.fractionalWrites(keys: [["a", "b", "c"]], from: Position(section: 0, row: 2), to: Position(section: 0, row: 1))
        #expect(plan.writes == [PersistencePlan.Write(position: Position(section: 0, row: 2), key: "aV")])

        let change = MoveInference.infer(before: board, after: try board.applying(.row(from: Position(section: 0, row: 2), to: Position(section: 1, row: 0))))
        #expect(change == .move(.row(from: Position(section: 0, row: 2), to: Position(section: 1, row: 0))))
    }

    @Test func compiledPoliciesAreSharedAcrossTasks() async throws {
        let compiled = try #require(PolicyLoader.load(text: "reorder-policy: 1\nname: t\nrules:\n  - keep-in-section: all\n").compiled())
        let results = await withTaskGroup(of: Position.self) { group in
            for n in 0..<8 {
                group.addTask {
                    let table = Table(sections: [Section(rowIDs: (0..<(n + 2)).map { "r\($0)" }), Section(rowIDs: ["x"])])
                    return compiled.bind(table).target(from: Position(section: 0, row: 0), proposed: Position(section: 1, row: 0))
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        // Dragging into the section below lands on the last slot of the own section.
        #expect(Set(results) == Set((0..<8).map { Position(section: 0, row: $0 + 1) }))
    }
}

/// The throwing entry point and how load errors read.
@Suite struct LoadErrorTests {
    @Test func compileThrowsTheFilesDiagnosticsRenderedLikeLint() throws {
        let good = try PolicyLoader.compile(text: "reorder-policy: 1\nname: ok\nrules: []\n")
        #expect(good.policy.name == "ok")
        do {
            _ = try PolicyLoader.compile(text: "reorder-policy: 1\nname: bad\nrules:\n  - pinn: all\n", path: "bad.yaml")
            Issue.record("a broken policy compiled")
        } catch {
            #expect(error.diagnostics.map(\.code) == [.unknownKey])
            #expect(error.description.hasPrefix("bad.yaml:4:5: error[unknown-key]: unknown key 'pinn' in rule; did you mean 'pin'?"))
            #expect(error.localizedDescription == error.description)
            #expect("\(error.diagnostics[0])" == error.description)
        }
        let broken = PolicyLoader.load(text: "not: a policy", path: "x.yaml")
        #expect(broken.compiled() == nil)
        #expect(throws: PolicyLoadError.self) { try broken.compile() }
    }
}
