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
