import Foundation
import ReorderEngine
import Testing

/// A CLI invocation whose stdout is pinned by a golden file, with its exit status.
struct GoldenCase: CustomTestStringConvertible, Sendable {
    let golden: String
    let arguments: [String]
    let status: Int32
    var testDescription: String { golden }
}

@Suite struct GoldenOutputTests {
    static let policy = "Tests/CLITests/Fixtures/explain-policy.yaml"
    static let table = "Tests/CLITests/Fixtures/explain-table.yaml"

    static func explain(_ name: String, _ move: [String], _ status: Int32) -> [GoldenCase] {
        [GoldenCase(golden: "explain-\(name).txt", arguments: ["explain", "--policy", policy, "--table", table] + move, status: status),
         GoldenCase(golden: "explain-\(name).json", arguments: ["explain", "--policy", policy, "--table", table] + move + ["--format", "json"], status: status)]
    }

    static let cases: [GoldenCase] = [
        GoldenCase(golden: "lint-broken.txt", arguments: ["lint", "Tests/CLITests/Fixtures/broken.yaml"], status: 1),
        GoldenCase(golden: "lint-broken.json", arguments: ["lint", "--format", "json", "Tests/CLITests/Fixtures/broken.yaml"], status: 1),
        GoldenCase(golden: "lint-broken.github", arguments: ["lint", "--format", "github", "Tests/CLITests/Fixtures/broken.yaml"], status: 1),
        GoldenCase(golden: "lint-policies.txt", arguments: ["lint", "policies"], status: 0),
        GoldenCase(golden: "test-failing.txt", arguments: ["test", "Tests/CLITests/Fixtures/failing-tests.yaml"], status: 1),
        GoldenCase(golden: "test-policies.txt", arguments: ["test", "policies"], status: 0),
        GoldenCase(golden: "check-moves.txt", arguments: ["check", "--policy", "policies/board.yaml", "--table", "policies/tables/sprint.yaml",
                                                         "--moves", "policies/moves/sprint-moves.yaml"], status: 2),
        GoldenCase(golden: "check-moves.json", arguments: ["check", "--policy", "policies/board.yaml", "--table", "policies/tables/sprint.yaml",
                                                          "--moves", "policies/moves/sprint-moves.yaml", "--format", "json"], status: 2),
    ]
        + explain("denied-pinned-row", ["--from", "0.0", "--to", "0.2"], 1)
        + explain("drop-above-pinned-header", ["--from", "0.3", "--to", "0.0"], 1)
        + explain("pulled-back-into-own-section", ["--from", "0.1", "--to", "1.1"], 1)
        + explain("drop-into-full-section", ["--from", "0.3", "--to", "2.1"], 1)
        + explain("section-move", ["--section-from", "2", "--section-to", "0"], 1)
        + explain("allowed", ["--from", "0.1", "--to", "0.2"], 0)

    /// The row-rule keywords as a diagnostic lists them, in `RuleRegistry` order. The goldens
    /// hold `{row-rule keywords}` in their place, so adding a rule kind (one file and its
    /// registry line) leaves them as they are; a list that differs from the registry's is not
    /// replaced, and the golden fails.
    static let ruleKeywords = RuleRegistry.rowKinds.map { "'\($0.keyword)'" }.joined(separator: ", ")

    @Test(arguments: cases)
    func outputMatchesGolden(_ c: GoldenCase) throws {
        let result = try CLI.run(c.arguments)
        #expect(result.status == c.status, "stderr: \(result.stderr)")
        try CLI.assertGolden(result.stdout.replacingOccurrences(of: Self.ruleKeywords, with: "{row-rule keywords}"), c.golden)
    }

    @Test func explainFitsIn100ColumnsAndElidesLongSections() throws {
        let ids = (0..<60).map { "row-\($0)-" + String(repeating: "x", count: 50) }
        let table = try CLI.scratch("long.yaml", "sections:\n  - rows: [\(ids.joined(separator: ", "))]\n  - rows: [a, b]\n")
        let policy = try CLI.scratch("long-policy.yaml", "reorder-policy: 1\nname: long\nrules:\n  - pin: { first: 1 }\n    message: " + String(repeating: "m", count: 20) + "\n")
        let result = try CLI.run(["explain", "--policy", policy, "--table", table, "--from", "0.30", "--to", "0.0"])
        // Every line of the output fits, not only the drawing: long reasons wrap, frames are cut.
        for line in result.stdout.split(separator: "\n") {
            #expect(line.count <= 100, "too wide: \(line)")
        }
        let drawing = result.stdout.components(separatedBy: "\ntable")[1]
        #expect(drawing.contains("⋮"))
        #expect(drawing.contains("30  row-30-"))
        #expect(!drawing.contains(" 15  row-15-"))
        // Up to 30 rows are drawn in full.
        let short = try CLI.scratch("short.yaml", "sections:\n  - rows: [\((0..<30).map { "r\($0)" }.joined(separator: ", "))]\n")
        let full = try CLI.run(["explain", "--policy", policy, "--table", short, "--from", "0.29", "--to", "0.0"])
        #expect(!full.stdout.contains("⋮"))
        #expect(full.stdout.contains("29  r29"))
    }

    @Test func colourOnlyWithoutNoColor() throws {
        // Output to a pipe is never coloured, whatever NO_COLOR says.
        let result = try CLI.run(["lint", "Tests/CLITests/Fixtures/broken.yaml"], environment: ["NO_COLOR": ""])
        #expect(!result.stdout.contains("\u{1B}["))
    }
}
