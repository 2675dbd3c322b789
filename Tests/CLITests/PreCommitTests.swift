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
        // One run for all the staged files, so one summary: pre-commit split them between two
        // parallel runs, and the run that got only ci.yml printed "summary: 0 compared" (issue 63).
        #expect(output.components(separatedBy: "summary:").count - 1 == 1, "\(output)")
    }

    /// The lint hook is verbose: a warning is shown although the hook passes, so a `lock`
    /// written where `pin` was meant does not commit silently (issue 63).
    @Test func theLintHookShowsWarningsWithoutBlocking() throws {
        let root = try Self.repository([
            "header.yaml": "reorder-policy: 1\nname: header\nrules:\n  - lock: { first: 1 }\n    id: header\n",
        ])
        let (status, output) = try Self.run(["pre-commit", "try-repo", CLI.packageRoot.path, "reorder-policy-lint", "--all-files"], in: root)
        #expect(status == 0, "\(output)")
        #expect(output.contains("header.yaml:4:5: warning[lock-displaced]"), "\(output)")
    }

    /// The README's pre-commit block (the first ```yaml block under "### pre-commit"), copied as
    /// written into .pre-commit-config.yaml, is a configuration pre-commit accepts. pre-commit 4
    /// refused the old one, a top-level list without `repos:` ("Expected a Config map but got a
    /// list"; issue 63).
    @Test func theReadmeConfigurationValidates() throws {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(Self.firstYAMLBlock(under: "### pre-commit", in: readme),
                                 "README.md has no ```yaml block under its '### pre-commit' heading")
        #expect(block.contains("id: reorder-policy-lint"), "\(block)")
        let root = try Self.repository([".pre-commit-config.yaml": block])
        let (status, output) = try Self.run(["pre-commit", "validate-config", ".pre-commit-config.yaml"], in: root)
        #expect(status == 0, "pre-commit validate-config refused the README's block:\n\(block)\n\(output)")
    }

    /// The lines of the first ```yaml block after the line `heading` and before the next
    /// heading, as written (nil when there is none).
    static func firstYAMLBlock(under heading: String, in text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == heading }) else { return nil }
        var block: [Substring] = []
        var inside = false
        for line in lines[(start + 1)...] {
            if inside {
                if line.hasPrefix("```") { return block.joined(separator: "\n") + "\n" }
                block.append(line)
            } else if line == "```yaml" {
                inside = true
            } else if line.hasPrefix("#") {
                return nil  // the next heading: this section has no yaml block
            }
        }
        return nil
    }
}

/// scripts/pre-commit-hook without reorder-policy on PATH: it builds the CLI once from its
/// checkout, saying so first. Run here from a copy of the hook in a scratch checkout, with a
/// stand-in `swift` that records its call, prints progress and leaves a stand-in CLI behind.
@Suite struct PreCommitHookBuildTests {
    @Test("the fallback build says what it does and that it takes minutes, before building; progress goes to stderr")
    func theFallbackBuildIsAnnounced() throws {
        let hook = try String(contentsOf: CLI.packageRoot.appendingPathComponent("scripts/pre-commit-hook"), encoding: .utf8)
        let checkout = try CLI.tree(["scripts/pre-commit-hook": hook])
        let tools = try CLI.tree([
            "swift": """
                #!/bin/sh
                echo "swift $*" >> "$(dirname "$0")/swift-calls"
                echo "[1/1] Compiling reorder-policy (fake)"
                mkdir -p "\(checkout.path)/.build/release"
                printf '#!/bin/sh\\necho "ran reorder-policy $*"\\n' > "\(checkout.path)/.build/release/reorder-policy"
                chmod +x "\(checkout.path)/.build/release/reorder-policy"
                """,
        ])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: checkout.appendingPathComponent("scripts/pre-commit-hook").path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tools.appendingPathComponent("swift").path)
        let work = try CLI.tree([:])
        func runHook() throws -> (status: Int32, stdout: String, stderr: String) {
            let command = "'\(checkout.path)/scripts/pre-commit-hook' lint --only-policies p.yaml > out.txt 2> err.txt"
            // No reorder-policy on this PATH: only the stand-in swift and the system's tools.
            let (status, _) = try CLI.program(["bash", "-c", command], in: work, environment: ["PATH": tools.path + ":/usr/bin:/bin"])
            return (status, try String(contentsOf: work.appendingPathComponent("out.txt"), encoding: .utf8),
                    try String(contentsOf: work.appendingPathComponent("err.txt"), encoding: .utf8))
        }
        let first = try runHook()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "ran reorder-policy lint --only-policies p.yaml\n")
        let lines = first.stderr.split(separator: "\n").map(String.init)
        // The notice comes first, says what is being built and that it takes a few minutes, once.
        #expect(lines.first?.contains("building it from \(checkout.path)") == true, "\(first.stderr)")
        #expect(lines.first?.contains("a few minutes") == true && lines.first?.contains("once") == true, "\(first.stderr)")
        // swift build's progress is on standard error, after the notice.
        #expect(lines.dropFirst().contains("[1/1] Compiling reorder-policy (fake)"), "\(first.stderr)")
        let calls = try String(contentsOf: tools.appendingPathComponent("swift-calls"), encoding: .utf8)
        #expect(calls == "swift build --package-path \(checkout.path) -c release --product reorder-policy\n")
        // Once: the next run uses the build, silently.
        let second = try runHook()
        #expect(second.status == 0 && second.stderr.isEmpty, "\(second.stderr)")
        #expect(try String(contentsOf: tools.appendingPathComponent("swift-calls"), encoding: .utf8) == calls)
    }

    @Test("a failed fallback build says so and fails the hook")
    func aFailedBuildIsReported() throws {
        let hook = try String(contentsOf: CLI.packageRoot.appendingPathComponent("scripts/pre-commit-hook"), encoding: .utf8)
        let checkout = try CLI.tree(["scripts/pre-commit-hook": hook])
        let tools = try CLI.tree(["swift": "#!/bin/sh\necho 'error: no such module' >&2\nexit 1\n"])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: checkout.appendingPathComponent("scripts/pre-commit-hook").path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tools.appendingPathComponent("swift").path)
        let (status, output) = try CLI.program(["bash", "-c", "'\(checkout.path)/scripts/pre-commit-hook' lint p.yaml"], in: checkout,
                                               environment: ["PATH": tools.path + ":/usr/bin:/bin"])
        #expect(status != 0)
        #expect(output.contains("building reorder-policy in \(checkout.path) failed"), "\(output)")
    }
}
