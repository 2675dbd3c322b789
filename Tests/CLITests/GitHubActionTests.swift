import Foundation
import Testing

/// action.yml: its inputs reach the script its Lint step runs, and that script (run here as the
/// step runs it, with the built CLI) annotates, writes SARIF, runs the tests and fails the job
/// on errors.
@Suite struct GitHubActionTests {
    static let script = CLI.packageRoot.appendingPathComponent("scripts/github-action").path

    static func step(_ inputs: [String: String], in directory: URL) throws -> (status: Int32, stdout: String, output: String) {
        let outputFile = directory.appendingPathComponent("github-output").path
        _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
        let run = try CLI.program([script, CLI.executable.path], in: directory,
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
        #expect(json["inputs"] as? [String] == ["paths", "sarif-file", "strict", "test"])
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

    @Test func theTestsRunAndCountByDefault() throws {
        let root = try CLI.tree([
            "p.yaml": "reorder-policy: 1\nname: t\nrules:\n  - pin: { first: 1 }\n    id: top\ntests:\n  - name: wrong on purpose\n    table: { sections: [{ rows: [a, b] }] }\n    move: { from: [0, 1], to: [0, 0] }\n    expect: allowed\n",
        ])
        let run = try Self.step(["INPUT_PATHS": "p.yaml"], in: root)
        #expect(run.status == 1)
        #expect(run.stdout.contains("0 passed, 1 failed"), "\(run.stdout)")
        #expect(try Self.step(["INPUT_PATHS": "p.yaml", "INPUT_TEST": "false"], in: root).status == 0)
    }
}
