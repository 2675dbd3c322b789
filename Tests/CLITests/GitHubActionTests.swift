import Foundation
import Testing

/// action.yml: its inputs reach the script its Lint step runs, and that script (run here as the
/// step runs it, with the built CLI) annotates, writes SARIF, runs the tests and fails the job
/// on errors.
@Suite struct GitHubActionTests {
    static let script = CLI.packageRoot.appendingPathComponent("scripts/github-action").path

    static func step(_ inputs: [String: String], in directory: URL, binary: String = CLI.executable.path) throws -> (status: Int32, stdout: String, output: String) {
        let outputFile = directory.appendingPathComponent("github-output").path
        _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
        let run = try CLI.program([script, binary], in: directory,
                                  environment: inputs.merging(["NO_COLOR": "1", "GITHUB_OUTPUT": outputFile]) { $1 }, mergingErrors: false)
        return (run.status, run.output, try String(contentsOfFile: outputFile, encoding: .utf8))
    }

    @Test(.enabled(if: CLI.python("yaml") || CLI.inCI, "needs PyPI's pyyaml (installed by .ci/run)"))
    func theActionPassesItsInputsToTheScript() throws {
        let (status, text) = try CLI.runPython("""
            import sys, yaml, json
            a = yaml.safe_load(sys.stdin)
            steps = a["runs"]["steps"]
            lint = [s for s in steps if s.get("id") == "lint"][0]
            print(json.dumps({"using": a["runs"]["using"], "inputs": sorted(a["inputs"]), "env": lint["env"], "run": lint["run"],
                              "output": a["outputs"]["sarif-file"]["value"]}))
            """, input: try String(contentsOf: CLI.packageRoot.appendingPathComponent("action.yml"), encoding: .utf8))
        #expect(status == 0, "\(text)")
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        #expect(json["using"] as? String == "composite")
        #expect(json["inputs"] as? [String] == ["compare-base", "compare-markdown", "paths", "sarif-file", "strict", "swift-version", "test"])
        let env = json["env"] as! [String: String]
        let scriptText = try String(contentsOfFile: Self.script, encoding: .utf8)
        for (name, value) in env {
            let input = String(value.dropFirst("${{ inputs.".count).dropLast(" }}".count))
            #expect(name == "INPUT_" + input.uppercased().replacingOccurrences(of: "-", with: "_"))
            #expect(scriptText.contains(name), "the script never reads \(name)")
        }
        #expect((json["run"] as! String).contains("scripts/github-action"))
        #expect(json["output"] as? String == "${{ steps.lint.outputs.sarif-file }}")
    }

    @Test func theLintStepAnnotatesWritesSARIFAndFailsOnErrors() throws {
        let root = try CLI.tree([
            "policies/broken.yaml": "reorder-policy: 1\nname: broken\nrules: [ { pin: } ]\n",
            "policies/warns.yaml": "reorder-policy: 1\nname: warns\nrules:\n  - pin: { first: 1 }\n    id: top\n  - lock: { first: 1 }\n    id: twice\n",
        ])
        let run = try Self.step(["INPUT_PATHS": "policies", "INPUT_SARIF_FILE": "out.sarif", "INPUT_TEST": "false"], in: root)
        #expect(run.status == 1)
        #expect(run.stdout.contains("::error file=policies/broken.yaml,line=3,col=17"), "\(run.stdout)")
        #expect(run.stdout.contains("::warning file=policies/warns.yaml"), "\(run.stdout)")
        #expect(run.output == "sarif-file=out.sarif\n")
        let sarif = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("out.sarif"))) as! [String: Any]
        let results = ((sarif["runs"] as! [[String: Any]])[0]["results"] as! [[String: Any]])
        #expect(results.count == 2)
        // Only the warning: passes, unless strict.
        try FileManager.default.removeItem(at: root.appendingPathComponent("policies/broken.yaml"))
        #expect(try Self.step(["INPUT_PATHS": "policies"], in: root).status == 0)
        #expect(try Self.step(["INPUT_PATHS": "policies", "INPUT_STRICT": "true"], in: root).status == 1)
    }

    /// The optional compare step, as a pull request runs it: annotations at the changed rule and
    /// a Markdown report (output compare-markdown); changed decisions do not fail the step.
    @Test func theCompareStepAnnotatesAndWritesTheReport() throws {
        let root = try CLI.tree(["policies/status.yaml": "reorder-policy: 1\nname: status\nrules:\n  - pin: { first: 1 }\n    id: top\n"])
        for args in [["init", "-q"], ["add", "."], ["commit", "-qm", "base"]] {
            #expect(try CLI.program(["git", "-c", "user.name=t", "-c", "user.email=t@example.com"] + args, in: root).status == 0)
        }
        try "reorder-policy: 1\nname: status\nrules:\n  - pin: { first: 2 }\n    id: top\n"
            .write(to: root.appendingPathComponent("policies/status.yaml"), atomically: true, encoding: .utf8)
        let run = try Self.step(["INPUT_PATHS": "policies", "INPUT_TEST": "false", "INPUT_COMPARE_BASE": "HEAD",
                                 "INPUT_COMPARE_MARKDOWN": "compare.md"], in: root)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("::notice file=policies/status.yaml,line=4,col=5,title=reorder-policy compare"), "\(run.stdout)")
        #expect(run.output.contains("compare-markdown=compare.md"), "\(run.output)")
        let report = try String(contentsOf: root.appendingPathComponent("compare.md"), encoding: .utf8)
        #expect(report.contains("| `policies/status.yaml` | **changes decisions** |"), "\(report)")
        // A base that is no revision fails the step.
        #expect(try Self.step(["INPUT_PATHS": "policies", "INPUT_TEST": "false", "INPUT_COMPARE_BASE": "no-such-rev"], in: root).status == 2)
    }

    @Test func theTestsRunAndCountByDefault() throws {
        let root = try CLI.tree([
            "p.yaml": "reorder-policy: 1\nname: t\nrules:\n  - pin: { first: 1 }\n    id: top\ntests:\n  - name: wrong on purpose\n    table: { sections: [{ rows: [a, b] }] }\n    move: { from: [0, 1], to: [0, 0] }\n    expect: allowed\n",
        ])
        let run = try Self.step(["INPUT_PATHS": "p.yaml"], in: root)
        #expect(run.status == 1)
        #expect(run.stdout.contains("0 passed, 1 failed"), "\(run.stdout)")
        #expect(try Self.step(["INPUT_PATHS": "p.yaml", "INPUT_TEST": "false"], in: root).status == 0)
    }

    /// A stand-in for the CLI that records each subcommand it runs in `invocations`, then runs the real one.
    static func countingBinary(in directory: URL) throws -> (binary: String, invocations: URL) {
        let invocations = directory.appendingPathComponent("invocations")
        let binary = directory.appendingPathComponent("counting-reorder-policy")
        try "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '\(invocations.path)'\nexec '\(CLI.executable.path)' \"$@\"\n"
            .write(to: binary, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: binary.path)
        return (binary.path, invocations)
    }

    @Test("one lint run gives both the annotations and the SARIF log; paths are one per line and may hold spaces")
    func oneLintRunForPathsWithSpaces() throws {
        let root = try CLI.tree([
            "my policies/broken.yaml": "reorder-policy: 1\nname: broken\nrules: [ { pin: } ]\n",
            "other.yaml": "reorder-policy: 1\nname: warns\nrules:\n  - pin: { first: 1 }\n    id: top\n  - lock: { first: 1 }\n    id: twice\n",
        ])
        let (binary, invocations) = try Self.countingBinary(in: try CLI.tree([:]))
        // As `paths: |` gives it: one path per line, a trailing newline, a blank line, spaces around one.
        let run = try Self.step(["INPUT_PATHS": "my policies\n\n  other.yaml  \n", "INPUT_SARIF_FILE": "out.sarif", "INPUT_TEST": "true"],
                                in: root, binary: binary)
        #expect(run.status == 1, "\(run.stdout)")
        #expect(run.stdout.contains("::error file=my policies/broken.yaml,line=3,col=17"), "\(run.stdout)")
        #expect(run.stdout.contains("::warning file=other.yaml"), "\(run.stdout)")
        let sarif = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("out.sarif"))) as! [String: Any]
        let results = (sarif["runs"] as! [[String: Any]])[0]["results"] as! [[String: Any]]
        #expect(results.count == 2)
        // The analysis ran once: one lint, then the tests.
        let ran = try String(contentsOf: invocations, encoding: .utf8)
        #expect(ran == "lint\ntest\n", "\(ran)")
    }

    @Test("lint --sarif-output writes SARIF to the file while standard output keeps --format")
    func sarifOutputBesideAnotherFormat() throws {
        let root = try CLI.tree(["p.yaml": "reorder-policy: 1\nname: broken\nrules: [ { pin: } ]\n"])
        let result = try CLI.run(["lint", "--format", "text", "--sarif-output", "lint.sarif", "p.yaml"], in: root)
        #expect(result.status == 1)
        #expect(result.stdout.contains("p.yaml:3:17: error[type-mismatch]"), "\(result.stdout)")
        let sarif = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("lint.sarif"))) as? [String: Any]
        #expect(sarif?["version"] as? String == "2.1.0")
        // A file that cannot be written is an error (exit 2), said on standard error.
        let unwritable = try CLI.run(["lint", "--sarif-output", "no/such/dir/lint.sarif", "p.yaml"], in: root)
        #expect(unwritable.status == 2)
        #expect(unwritable.stderr.contains("cannot write 'no/such/dir/lint.sarif'"), "\(unwritable.stderr)")
        #expect(try CLI.run(["lint", "--help"]).stdout.contains("--sarif-output"))
    }

    /// action.yml as JSON (through PyPI's pyyaml).
    static func action() throws -> [String: Any] {
        let (status, text) = try CLI.runPython("import sys, yaml, json; print(json.dumps(yaml.safe_load(sys.stdin)))",
                                               input: try String(contentsOf: CLI.packageRoot.appendingPathComponent("action.yml"), encoding: .utf8))
        #expect(status == 0, "\(text)")
        return try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    }

    /// Runs a `run:` step as GitHub runs a bash step (`bash --noprofile --norc -eo pipefail`),
    /// with the action's folder and an output file: its status, what it printed and its outputs.
    static func runStep(_ script: String, actionPath: URL, environment: [String: String] = [:]) throws -> (Int32, String, [String: String]) {
        let scratch = try CLI.tree([:])
        let outputFile = scratch.appendingPathComponent("github-output")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let run = try CLI.program(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: scratch,
                                  environment: environment.merging(["GITHUB_ACTION_PATH": actionPath.path, "GITHUB_OUTPUT": outputFile.path]) { $1 })
        var outputs: [String: String] = [:]
        for line in try String(contentsOf: outputFile, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { outputs[String(parts[0])] = String(parts[1]) }
        }
        return (run.status, run.output, outputs)
    }

    @Test(.enabled(if: CLI.python("yaml") || CLI.inCI, "needs PyPI's pyyaml (installed by .ci/run)"))
    func theActionSetsUpSwiftOnlyWhenMissingAndCachesTheBuild() throws {
        let steps = (try Self.action()["runs"] as! [String: Any])["steps"] as! [[String: Any]]
        func index(_ test: ([String: Any]) -> Bool) -> Int? { steps.firstIndex(where: test) }
        let look = try #require(index { $0["id"] as? String == "swift" })
        let setup = try #require(index { ($0["uses"] as? String)?.hasPrefix("swift-actions/setup-swift@") == true })
        let key = try #require(index { $0["id"] as? String == "cache-key" })
        let cache = try #require(index { ($0["uses"] as? String)?.hasPrefix("actions/cache@") == true })
        let build = try #require(index { ($0["run"] as? String)?.contains("swift build") == true })
        let lint = try #require(index { $0["id"] as? String == "lint" })
        #expect(look < setup && setup < key && key < cache && cache < build && build < lint)
        #expect(steps[setup]["if"] as? String == "steps.swift.outputs.found != 'true'")
        let with = steps[cache]["with"] as? [String: String] ?? [:]
        #expect(with["path"] == "${{ github.action_path }}/.build")
        #expect(with["key"]?.contains("${{ steps.cache-key.outputs.swift }}-${{ steps.cache-key.outputs.sources }}") == true, "\(with)")
        // Only the Lint step runs the CLI, and it runs the script once.
        #expect(steps.filter { ($0["run"] as? String)?.contains("scripts/github-action") == true }.count == 1)

        // The Swift check, run as the runner runs it: the Swift running these tests is found;
        // a Swift 5 or none at all is not (then setup-swift runs).
        let check = steps[look]["run"] as! String
        let here = try Self.runStep(check, actionPath: CLI.packageRoot)
        #expect(here.0 == 0 && here.2["found"] == "true", "\(here.1)")
        let old = try CLI.tree(["swift": "#!/bin/sh\necho 'Swift version 5.10 (swift-5.10-RELEASE)'\n"])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: old.appendingPathComponent("swift").path)
        let five = try Self.runStep(check, actionPath: CLI.packageRoot, environment: ["PATH": old.path + ":/usr/bin:/bin"])
        #expect(five.0 == 0 && five.2["found"] == "false", "\(five.1)")
        let none = try Self.runStep(check, actionPath: CLI.packageRoot, environment: ["PATH": "/usr/bin:/bin"])
        #expect(none.0 == 0 && none.2["found"] == "false", "\(none.1)")

        // The cache key follows the sources and the compiler, not the rest of the checkout.
        let keyStep = steps[key]["run"] as! String
        let package = try CLI.tree(["Package.swift": "// swift-tools-version: 6.0\n", "Sources/a/a.swift": "let a = 1\n", "README.md": "x\n"])
        let first = try Self.runStep(keyStep, actionPath: package).2
        #expect(first["sources"]?.count == 64 && first["swift"]?.count == 16, "\(first)")
        try "y\n".write(to: package.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        #expect(try Self.runStep(keyStep, actionPath: package).2 == first)
        try "let a = 2\n".write(to: package.appendingPathComponent("Sources/a/a.swift"), atomically: true, encoding: .utf8)
        let changed = try Self.runStep(keyStep, actionPath: package).2
        #expect(changed["sources"] != first["sources"] && changed["swift"] == first["swift"])
    }
}
