import Foundation
import Testing

/// The pre-commit hooks (.pre-commit-hooks.yaml) run by pre-commit itself (`try-repo` on this
/// checkout) in a scratch git repository, with the built CLI first on PATH.
@Suite(.enabled(if: CLI.python("pre_commit") || CLI.inCI, "needs PyPI's pre-commit (installed by .ci/run)"))
struct PreCommitTests {
    /// Runs `command` in `directory` with the built CLI first on PATH: status and output.
    static func run(_ command: [String], in directory: URL) throws -> (Int32, String) {
        var env = ["NO_COLOR": "1", "GIT_AUTHOR_NAME": "test", "GIT_COMMITTER_NAME": "test",
                   "GIT_AUTHOR_EMAIL": "test@example.invalid", "GIT_COMMITTER_EMAIL": "test@example.invalid"]
        env["PATH"] = CLI.executable.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try CLI.program(command, in: directory, environment: env)
    }

    static func repository(_ files: [String: String]) throws -> URL {
        let root = try CLI.tree(files)
        #expect(try run(["git", "init", "-q"], in: root).0 == 0)
        #expect(try run(["git", "add", "."], in: root).0 == 0)
        return root
    }

    @Test func theHooksPassCleanFilesAndSkipOtherYAML() throws {
        let root = try Self.repository([
            "policies/board.yaml": try String(contentsOf: CLI.packageRoot.appendingPathComponent("policies/board.yaml"), encoding: .utf8),
            "policies/tables/sprint.yaml": try String(contentsOf: CLI.packageRoot.appendingPathComponent("policies/tables/sprint.yaml"), encoding: .utf8),
            // Not a policy, and not laid out as fmt would: both hooks must leave it alone.
            ".github/workflows/ci.yml": "on:   push\njobs:    {}\n",
        ])
        let (status, output) = try Self.run(["pre-commit", "try-repo", CLI.packageRoot.path, "--all-files"], in: root)
        #expect(status == 0, "\(output)")
        #expect(output.contains("reorder-policy lint") && output.contains("reorder-policy fmt --check"), "\(output)")
    }

    @Test func theHooksFailABrokenOrUntidyPolicy() throws {
        let root = try Self.repository([
            "broken.yaml": "reorder-policy: 1\nname: broken\nrules: [ { pin: } ]\n",
            "untidy.yaml": "reorder-policy: 1\nname: untidy\nrules:\n    - pin: {first: 1}\n",
        ])
        let lint = try Self.run(["pre-commit", "try-repo", CLI.packageRoot.path, "reorder-policy-lint", "--all-files"], in: root)
        #expect(lint.0 == 1, "\(lint.1)")
        #expect(lint.1.contains("broken.yaml:3:17: error[type-mismatch]"), "\(lint.1)")
        let fmt = try Self.run(["pre-commit", "try-repo", CLI.packageRoot.path, "reorder-policy-fmt", "--all-files"], in: root)
        #expect(fmt.0 == 1, "\(fmt.1)")
        #expect(fmt.1.contains("+  - pin: { first: 1 }"), "\(fmt.1)")
    }

    /// The optional compare hook reports what the staged edit changes in decisions and does
    /// not block the commit; other YAML is skipped.
    @Test func theCompareHookReportsWithoutBlocking() throws {
        let root = try Self.repository([
            "policies/status.yaml": "reorder-policy: 1\nname: status\nrules:\n  - pin: { first: 1 }\n    id: status-row\n",
            "ci.yml": "on: push\n",
        ])
        #expect(try Self.run(["git", "commit", "-qm", "policies"], in: root).0 == 0)
        try "reorder-policy: 1\nname: status\nrules:\n  - pin: { first: 2 }\n    id: status-row\n"
            .write(to: root.appendingPathComponent("policies/status.yaml"), atomically: true, encoding: .utf8)
        try "on: [push]\n".write(to: root.appendingPathComponent("ci.yml"), atomically: true, encoding: .utf8)
        #expect(try Self.run(["git", "add", "."], in: root).0 == 0)
        let (status, output) = try Self.run(["pre-commit", "try-repo", CLI.packageRoot.path, "reorder-policy-compare"], in: root)
        #expect(status == 0, "\(output)")
        #expect(output.contains("policies/status.yaml: changes decisions") && output.contains("allowed → denied"), "\(output)")
        #expect(!output.contains("ci.yml"), "\(output)")
    }
}
