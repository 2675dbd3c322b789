import Foundation
import Testing

@Suite struct JSONLinesTests {
    @Test("check --format jsonl: a line per result, equal to the JSON document's results, then the summary")
    func linesMatchTheDocument() throws {
        let moves = try CLI.scratch("jsonl-moves.yaml", """
            - { from: [0, 0], to: [1, 1] }
            - { from: [1, 2], to: [2, 0] }
            - { from: [0, 0], to: [9, 1] }
            - { x: 1 }
            - { from-offsets: [0, 1], to-offset: 3, section: 0 }
            - { section-from: 1, section-to: 0 }
            """)
        let base = ["check", "--policy", "policies/board.yaml", "--table", "policies/tables/sprint.yaml", "--moves", moves]
        let document = try CLI.run(base + ["--format", "json"])
        let lines = try CLI.run(base + ["--format", "jsonl"])
        #expect(lines.status == document.status)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(document.stdout.utf8)) as? [String: Any])
        let objects = try lines.stdout.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.count == 7)
        let results = json["results"] as! [[String: Any]]
        for (a, b) in zip(objects.dropLast(), results) {
            let same = NSDictionary(dictionary: a).isEqual(to: b)
            #expect(same)
        }
        #expect(objects.last?["policy"] as? String == "board")
        let summary = try #require(objects.last?["summary"] as? [String: Int])
        #expect(summary == json["summary"] as? [String: Int])
    }

    @Test("jsonl is for check only")
    func explainAndDiffRefuseJSONLines() throws {
        let explain = try CLI.run(["explain", "--policy", "policies/board.yaml", "--table", "policies/tables/sprint.yaml",
                                   "--from", "0.0", "--to", "0.1", "--format", "jsonl"])
        #expect(explain.status == 2)
        let diff = try CLI.run(["diff", "--policy", "policies/board.yaml", "--before", "policies/tables/sprint.yaml",
                                "--after", "policies/tables/sprint.yaml", "--format", "jsonl"])
        #expect(diff.status == 2)
    }
}
