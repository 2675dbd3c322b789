import Foundation
import ReorderPolicy
import Testing

/// `.reorder-policy.yml`: found upward, include/exclude, severities, analysis and formats,
/// and every mistake in it located and coded (docs/CONFIG.md).
@Suite struct ConfigTests {
    static let good = "reorder-policy: 1\nname: good\nrules:\n  - pin: { first: 1 }\n    id: top\n"
    static let broken = "reorder-policy: 1\nname: broken\nrules: [ { pin: } ]\n"
    /// Warns dead-rule: the lock holds a row the pin already holds.
    static let warns = "reorder-policy: 1\nname: warns\nrules:\n  - pin: { first: 1 }\n    id: top\n  - lock: { first: 1 }\n    id: twice\n"
    /// A lock no move can shift (nothing enters its section): the enumeration looks for a shift
    /// on every table up to the bound.
    /// The search cannot run on it (13 section tag classes), so the enumeration stands in
    /// for its locks, and the second lock is never shifted on any table it tries.
    static let slow = "reorder-policy: 1\nname: slow\nrules:\n  - lock: { first: 1, section: 0 }\n  - lock: { section: 1 }\n  - accept: { section: 1, from: [] }\n  - keep-order: [{ tag: t1 }, { tag: t2 }, { tag: t3 }, { tag: t4 }, { tag: t5 }, { tag: t6 }, { tag: t7 }, { tag: t8 }, { tag: t9 }, { tag: t10 }, { tag: t11 }, { tag: t12 }, { tag: t13 }]\n"
    static let stopped = "stopped at their work budget"

    func project(_ config: String?, extra: [String: String] = [:]) throws -> URL {
        var files = ["policies/good.yaml": Self.good, "policies/warns.yaml": Self.warns,
                     "Tests/Fixtures/broken.yaml": Self.broken, "policies/sub/.keep": ""].merging(extra) { $1 }
        if let config { files[".reorder-policy.yml"] = config }
        return try CLI.tree(files)
    }

    @Test func excludesAreFoundUpwardFromTheWorkingDirectory() throws {
        let root = try project("exclude: Tests/**/Fixtures/\n")
        // From the root and from a folder below it: the broken fixture is skipped.
        for dir in [root, root.appendingPathComponent("policies/sub")] {
            let target = dir == root ? "." : "../.."
            let result = try CLI.run(["lint", "--format", "json", target], in: dir)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(!result.stdout.contains("broken.yaml"))
            #expect(result.stdout.contains("warns.yaml"))
        }
        // --no-config, and a file named on the command line, are linted whatever the excludes say.
        #expect(try CLI.run(["lint", "--no-config", "."], in: root).status == 1)
        #expect(try CLI.run(["lint", "Tests/Fixtures/broken.yaml"], in: root).status == 1)
        // test walks the same way.
        #expect(try CLI.run(["test", "."], in: root).status == 0)
        #expect(try CLI.run(["test", "--no-config", "."], in: root).status == 1)
    }

    @Test func anExcludedFolderIsNotEntered() throws {
        // A dangling link named *.yaml is reported by a walk that enters its folder (exit 2).
        let root = try project("exclude: Tests/**/Fixtures/\n")
        let link = root.appendingPathComponent("Tests/Fixtures/gone.yaml").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/nonexistent/gone.yaml")
        #expect(try CLI.run(["lint", "--no-config", "--no-analysis", "."], in: root).status == 2)
        let pruned = try CLI.run(["lint", "--no-analysis", "."], in: root)
        #expect(pruned.status == 0, "\(pruned.stdout)")
    }

    @Test func includeTakesOnlyMatchingFiles() throws {
        let root = try project("include: [\"policies/good.*\"]\n")
        let result = try CLI.run(["lint", "--format", "json", "."], in: root)
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"summary\": {\"files\": 1, \"errors\": 0, \"warnings\": 0}"), "\(result.stdout)")
        // Nothing left: a clear error, exit 2, naming the config.
        let none = try project("include: nothing/**\n")
        let empty = try CLI.run(["lint", "."], in: none)
        #expect(empty.status == 2)
        #expect(empty.stdout.contains("no policy files below '.' that \(none.path)/.reorder-policy.yml includes") ||
                empty.stdout.contains("that /") , "\(empty.stdout)")
    }

    @Test func severitiesTurnWarningsOffOrIntoErrors() throws {
        let plain = try CLI.run(["lint", "--format", "json", "policies/warns.yaml"], in: try project(nil))
        #expect(plain.status == 0 && plain.stdout.contains("\"dead-rule\""))
        let off = try CLI.run(["lint", "--format", "json", "policies/warns.yaml"], in: try project("severity: { dead-rule: off }\n"))
        #expect(off.status == 0 && !off.stdout.contains("\"dead-rule\""), "\(off.stdout)")
        let error = try CLI.run(["lint", "--format", "json", "policies/warns.yaml"], in: try project("severity: { dead-rule: error }\n"))
        #expect(error.status == 1)
        #expect(error.stdout.contains("\"severity\": \"error\""), "\(error.stdout)")
    }

    @Test func analysisAndFormatsComeFromTheConfigUnlessOptionsSayOtherwise() throws {
        let root = try project("analysis: { enabled: false }\nformat: { lint: github, test: junit }\n")
        let lint = try CLI.run(["lint", "policies/warns.yaml"], in: root)
        #expect(lint.status == 0 && !lint.stdout.contains("::warning") && lint.stdout.contains("checked 1 policy file"), "\(lint.stdout)")
        let text = try CLI.run(["lint", "--format", "text", "policies/warns.yaml"], in: root)
        #expect(text.stdout.contains("0 warnings"))
        let test = try CLI.run(["test", "policies"], in: root)
        #expect(test.stdout.hasPrefix("<?xml"), "\(test.stdout)")
        // --config names another file; a bound from the config is used by lint.
        let other = try CLI.scratch("other-config.yml", "analysis: { bound: 1x1 }\n")
        let bounded = try CLI.run(["lint", "--config", other, "--format", "json", "policies/warns.yaml"], in: root)
        #expect(bounded.status == 0 && bounded.stdout.contains("dead-rule"))
    }

    @Test("a broken configuration is located and coded, and nothing is checked", arguments: [
        ("exclude: [ ]\nfoo: 1\n", "2:1: error[unknown-key]: unknown key 'foo' in the configuration"),
        ("severity: { yaml-syntax: off }\n", "1:13: error[invalid-value]: 'yaml-syntax' is an error, and errors cannot be configured"),
        ("severity: { stuk-row: error }\n", "1:13: error[unknown-key]: unknown warning code 'stuk-row'; did you mean 'stuck-row'?"),
        ("severity: { stuck-row: loud }\n", "1:24: error[invalid-value]: expected error, warning or off for 'stuck-row', found 'loud'"),
        ("severity: [dead-rule]\n", "1:11: error[type-mismatch]"),
        // The formats are listed from the registry, so a new lint format leaves this test alone.
        ("format: { lint: sarf }\n", "1:17: error[invalid-value]: 'sarf' is not a format of lint; expected \(LintReport.formats.map(\.name).joined(separator: ", ")); did you mean 'sarif'?"),
        ("format: { check: json }\n", "1:11: error[unknown-key]: unknown key 'check' in 'format'"),
        ("analysis: { bound: 9x9 }\n", "1:20: error[invalid-value]: 'analysis.bound' expects SECTIONSxROWS"),
        ("analysis: { enabled: yes }\n", "1:22: error[type-mismatch]: expected true or false for 'analysis.enabled'"),
        ("analysis: { budget: 0 }\n", "1:21: error[invalid-value]: 'analysis.budget' expects a number of seconds above 0"),
        ("analysis: { budget: '5' }\n", "1:21: error[invalid-value]: 'analysis.budget' expects a number of seconds above 0"),
        ("analysis: { budget: 1e3 }\n", "1:21: error[invalid-value]: 'analysis.budget' expects a number of seconds above 0"),
        ("include: \"[abc\"\n", "1:10: error[invalid-value]: '[abc' is not a glob pattern"),
        ("include: { a: 1 }\n", "1:10: error[type-mismatch]"),
        ("exclude: &a x\n", "error[yaml-alias]"),
        ("exclude: [x\n", "error[yaml-syntax]"),
        ("- just a list\n", "1:1: error[type-mismatch]: expected a mapping for the configuration"),
    ])
    func brokenConfigurations(_ text: String, _ expected: String) throws {
        let root = try project(text)
        for command in ["lint", "test"] {
            let result = try CLI.run([command, "."], in: root)
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains(root.path + "/.reorder-policy.yml:") && result.stderr.contains(expected), "\(result.stderr)")
            #expect(result.stderr.contains("nothing was checked"))
        }
    }

    @Test func theAnalysisBudgetComesFromTheConfigOrTheOption() throws {
        let root = try project("analysis: { budget: 0.01, bound: 6x8 }\n", extra: ["policies/slow.yaml": Self.slow])
        let spent = try CLI.run(["lint", "--format", "json", "policies/slow.yaml"], in: root)
        #expect(spent.status == 0 && spent.stdout.contains(Self.stopped), "\(spent.stdout)")
        let roomy = try CLI.run(["lint", "--format", "json", "--analysis-budget", "60", "--analysis-bound", "2x2", "policies/slow.yaml"], in: root)
        #expect(!roomy.stdout.contains(Self.stopped), "\(roomy.stdout)")
        let off = try project("analysis: { budget: 0.01, bound: 6x8 }\nseverity: { analysis-budget: off }\n", extra: ["policies/slow.yaml": Self.slow])
        #expect(!(try CLI.run(["lint", "--format", "json", "policies/slow.yaml"], in: off).stdout.contains("analysis-budget")))
        for bad in ["0", "-1", "fast", "1e3"] {
            let usage = try CLI.run(["lint", "--analysis-budget", bad, "policies/warns.yaml"], in: root)
            #expect(usage.status == 2 && usage.stderr.contains("--analysis-budget expects a number of seconds"), "\(bad): \(usage.stderr)")
        }
    }

    @Test func aConfigThatIsADirectoryOrUnreadableIsAnError() throws {
        let root = try project(nil)
        let result = try CLI.run(["lint", "--config", root.appendingPathComponent("policies").path, "."], in: root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("error[unreadable]"), "\(result.stderr)")
        let missing = try CLI.run(["lint", "--config", "nope.yml", "."], in: root)
        #expect(missing.status == 2 && missing.stderr.contains("error[unreadable]"))
    }

    @Test func theSchemaAcceptsWhatTheLoaderAccepts() throws {
        let schema = try CLI.run(["schema", "--config"])
        #expect(schema.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(schema.stdout.utf8)) as! [String: Any]
        let properties = json["properties"] as! [String: Any]
        #expect(Set(properties.keys) == ["include", "exclude", "severity", "analysis", "format"])
        // This repository's own configuration loads (and `lint .` here checks the bundled policies).
        let own = try CLI.run(["lint", "--no-analysis", "."])
        #expect(own.status == 0, "\(own.stdout)")
        #expect(own.stdout.contains("checked 8 policy files"), "\(own.stdout)")
    }
}

/// The analysis's progress line: on a terminal only (script(1) gives one), after a second,
/// and cleared before the findings; never in a pipe.
@Suite struct ProgressLineTests {
    @Test func aLongAnalysisShowsProgressOnATerminalOnly() throws {
        // A lock no move can shift (nothing enters its section), in a policy the search cannot
        // run on (13 section tag classes): the enumeration stands in and looks for a shift
        // on every table up to the bound, long enough to show progress.
        let policy = try CLI.scratch("long-analysis.yaml", """
            reorder-policy: 1
            name: long
            rules:
              - lock: { first: 1, section: 0 }
              - lock: { section: 1 }
              - accept: { section: 1, from: [] }
              - keep-order: [{ tag: t1 }, { tag: t2 }, { tag: t3 }, { tag: t4 }, { tag: t5 }, { tag: t6 }, { tag: t7 }, { tag: t8 }, { tag: t9 }, { tag: t10 }, { tag: t11 }, { tag: t12 }, { tag: t13 }]
            """)
        let args = ["lint", "--analysis-bound", "6x8", "--analysis-budget", "2.5", "--format", "json", policy]
        let text = try CLI.onTerminal(args, environment: ["TERM": "xterm"])
        #expect(text.contains("analysing \(policy): ") && text.contains(" tables (1 s)"), "\(text.prefix(400))")
        // Cleared after the last update, before the JSON is printed.
        let last = try #require(text.range(of: "analysing", options: .backwards))
        let rest = text[last.upperBound...]
        let clear = try #require(rest.range(of: "\r\u{1B}[K"), "the line is cleared")
        #expect(rest[clear.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("{"))
        // In a pipe: no progress, only the JSON.
        let piped = try CLI.run(args)
        #expect(!piped.stderr.contains("analysing"), "\(piped.stderr)")
        #expect(piped.stdout.contains(ConfigTests.stopped))
    }
}
