import Foundation
import Testing

/// SPEC §8 through the built CLI: decisions, reasons, explain and input errors.
@Suite struct LanguageAdditionsTests {
    static let policy = """
        reorder-policy: 1
        name: kanban
        rules:
          - capacity: { section: { kind: bucket }, max: { attribute: wip } }
            id: wip
          - keep-order: { tag: frozen }
            id: frozen
          - lock: { not: { kind: card } }
            id: only-cards
          - pin:
              - { index: 0, kind: header }
              - { last: 1, kind: footer }
            id: chrome

        """
    static let table = """
        sections:
          - { id: Todo, kind: pool, rows: [ {id: H, kind: header}, {id: A, kind: card}, {id: B, kind: card}, {id: F, kind: footer} ] }
          - { id: Doing, kind: bucket, attributes: { wip: 2 }, rows: [ {id: C, kind: card}, {id: D, kind: card} ] }
          - { id: Done, kind: bucket, tags: [frozen], rows: [ {id: E, kind: card}, {id: G, kind: card} ] }

        """

    func paths() throws -> [String] {
        ["--policy", try CLI.scratch("kanban-policy.yaml", Self.policy), "--table", try CLI.scratch("kanban-table.yaml", Self.table)]
    }

    @Test func decisionsFollowSectionDataListsAndNot() throws {
        let moves = try CLI.scratch("kanban-moves.yaml", """
            - { from: [0, 1], to: [1, 0] }
            - { from: [0, 1], to: [2, 0] }
            - { from: [2, 0], to: [2, 1] }
            - { from: [0, 0], to: [0, 1] }
            - { from: [0, 2], to: [0, 3] }
            - { from: [1, 0], to: [0, 3] }

            """)
        let result = try CLI.run(["check"] + paths() + ["--moves", moves, "--format", "json"])
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try #require(json["results"] as? [[String: Any]])
        let decisions = results.map { $0["decision"] as? String ?? "" }
        let targets = results.map { ($0["target"] as? [Int]) ?? [] }
        let rules = results.map { ($0["violations"] as? [[String: Any]] ?? []).map { $0["rule"] as? String ?? "" } }
        // Doing is full by its own wip attribute; Done has no wip, so it is unbounded; Done's order is fixed;
        // the header is not a card (locked) and pinned; a drop below the footer is refused by the pin.
        #expect(decisions == ["retargeted", "allowed", "rejected", "denied", "rejected", "allowed"])
        #expect(targets == [[0, 2], [2, 0], [2, 0], [0, 0], [0, 2], [0, 3]])
        #expect(rules == [["wip"], [], ["frozen"], ["only-cards", "chrome"], ["chrome"], []])
    }

    @Test func theCapacityReasonNamesTheAttributeAndSection() throws {
        let result = try CLI.run(["check"] + paths() + ["--from", "0.1", "--to", "1.0"])
        #expect(result.stdout.contains("would put 3 rows in section 1 (\"Doing\"), more than its max of 2 (its attribute 'wip')"), "\(result.stdout)")
    }

    @Test func explainShowsABlockFormSelectorOnOneLine() throws {
        let result = try CLI.run(["explain"] + paths() + ["--from", "0.1", "--to", "0.0"])
        #expect(result.stdout.contains("reads as: pin: [{ index: 0, kind: header }, { last: 1, kind: footer }]"), "\(result.stdout)")
        // A rule written on one line is shown by its code frame alone.
        let oneLine = try CLI.run(["explain"] + paths() + ["--from", "2.0", "--to", "2.1"])
        #expect(oneLine.stdout.contains("keep-order: { tag: frozen }"))
        #expect(!oneLine.stdout.contains("reads as:"), "\(oneLine.stdout)")
        // With `id` first, the frame's line holds no argument either.
        let idFirst = try CLI.scratch("kanban-id-first.yaml", "reorder-policy: 1\nname: k\nrules:\n  - id: frozen\n    keep-order: { tag: frozen }\n")
        let shown = try CLI.run(["explain", "--policy", idFirst, "--table", try CLI.scratch("kanban-table.yaml", Self.table), "--from", "2.0", "--to", "2.1"])
        #expect(shown.stdout.contains("reads as: keep-order: { tag: frozen }"), "\(shown.stdout)")
    }

    /// The frame marks the rule as the decoder spanned it (issue #24: spans kept whole), not
    /// its line as text: a comment after a one-line rule is not underlined.
    @Test func explainFramesTheRuleNotItsComment() throws {
        let policy = try CLI.scratch("framed-policy.yaml", "reorder-policy: 1\nname: f\nrules:\n  - { pin: { first: 1 }, id: header }   # the header stays on top\n")
        let table = try CLI.scratch("framed-table.yaml", "sections:\n  - rows: [h, a, b]\n")
        let result = try CLI.run(["explain", "--policy", policy, "--table", table, "--from", "0.0", "--to", "0.2"])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let framed = try #require(lines.firstIndex { $0.hasSuffix("- { pin: { first: 1 }, id: header }   # the header stays on top") })
        let carets = lines[framed + 1].filter { $0 == "^" }.count
        #expect(carets == "{ pin: { first: 1 }, id: header }".count, "\(result.stdout)")
    }

    @Test func aTableWithABadAttributeIsAnInputError() throws {
        let table = try CLI.scratch("kanban-bad-table.yaml", "sections:\n  - { id: Doing, attributes: { wip: -2 }, rows: [A] }\n")
        let result = try CLI.run(["check", "--policy", try CLI.scratch("kanban-policy.yaml", Self.policy), "--table", table,
                                  "--from", "0.0", "--to", "0.0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("kanban-bad-table.yaml:2:37: error[type-mismatch]"), "\(result.stderr)")
    }
}
