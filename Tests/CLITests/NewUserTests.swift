import Foundation
import Testing

/// What a new user trips on (issue 27): each test fails without its fix.
@Suite struct NewUserTests {
    @Test("test --format json on a missing file names it in its diagnostics, exit 2")
    func testJSONReportsAMissingFile() throws {
        let result = try CLI.run(["test", "--format", "json", "no/such/policy.yaml"])
        #expect(result.status == 2)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let diagnostics = json?["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.count == 1, "\(result.stdout)")
        #expect(diagnostics.first?["code"] as? String == "unreadable")
        #expect(diagnostics.first?["file"] as? String == "no/such/policy.yaml")
        let fine = try CLI.run(["test", "--format", "json", "policies/kanban.yaml"])
        #expect(fine.status == 0)
        #expect(fine.stdout.contains("\"diagnostics\": [],"))
    }
}

/// What a new user trips on, round two (issue 63): each message, as the CLI prints it.
@Suite struct NewUserMessageTests {
    static let board = ["--policy", "policies/board.yaml", "--table", "policies/tables/sprint.yaml"]

    @Test("explain of a section move counts '1 row', not '1 rows'")
    func oneRow() throws {
        let text = try CLI.run(["explain"] + Self.board + ["--section-from", "2", "--section-to", "1", "--color", "never"]).stdout
        #expect(text.contains("Review") && text.contains("   1 row  "), "\(text)")
        #expect(!text.contains("1 rows"), "\(text)")
    }

    @Test("a moves file: a negative row reads [0, -1]; a malformed item is named by its line, aligned, with what was given")
    func movesFileText() throws {
        let moves = try CLI.scratch("messages-moves.yaml", """
            - { from: [0, 0], to: [0, 1] }
            - { from: [0, -1], to: [0, 1] }
            - { frm: [0, 0], to: [0, 1] }
            - 17
            """)
        let text = try CLI.run(["check"] + Self.board + ["--moves", moves, "--color", "never"]).stdout
        let lines = text.split(separator: "\n").map(String.init)
        #expect(!text.contains("0.-1"), "\(text)")
        #expect(lines.contains { $0.hasPrefix("[0, -1] → 0.1") && $0.contains("source row [0, -1] does not exist") }, "\(text)")
        let malformed = try #require(lines.firstIndex { $0.hasPrefix("line 3 ") }, "\(text)")
        #expect(lines[malformed].contains("unknown key 'frm'"), "\(text)")
        #expect(lines[malformed + 1].trimmingCharacters(in: .whitespaces) == #"given {"frm": [0, 0], "to": [0, 1]}"#, "\(text)")
        #expect(lines.contains { $0.hasPrefix("line 4 ") && $0.contains("found a scalar") }, "\(text)")
        // Every verdict in one column: the malformed items' labels no longer push it right.
        let verdicts = lines.filter { $0.contains("  allowed") || $0.contains("  invalid") }
        let columns = Set(verdicts.map { line in
            line.distance(from: line.startIndex, to: (line.range(of: "  allowed") ?? line.range(of: "  invalid")!).lowerBound)
        })
        #expect(columns.count == 1, "\(text)")
    }

    @Test("a table given to lint, or to check as the policy, says it looks like a table; a policy given as the table, a policy")
    func wrongKindOfFile() throws {
        let lint = try CLI.run(["lint", "--color", "never", "policies/tables/sprint.yaml"])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("this looks like a table file, not a policy"), "\(lint.stdout)")
        #expect(lint.stdout.contains("checked 1 policy file: 1 error"), "\(lint.stdout)")
        let swapped = try CLI.run(["check", "--policy", "policies/board.yaml", "--table", "policies/board.yaml", "--from", "0.0", "--to", "0.1", "--color", "never"])
        #expect(swapped.status == 2)
        let said = swapped.stdout + swapped.stderr
        #expect(said.contains("this looks like a policy file, not a table"), "\(said)")
        #expect(said.components(separatedBy: "error[").count - 1 == 1, "one error, not one per key of the policy: \(said)")
    }

    @Test("lint: s.r written for a position, 'maximum' for 'max', a selector lined up with its rule kind")
    func loaderHints() throws {
        let policy = try CLI.scratch("hints.yaml", """
            reorder-policy: 1
            name: hints
            rules:
              - capacity: { section: 0, maximum: 3 }
              - pin:
                first: 1
            tests:
              - name: dotted
                table: { sections: [ { rows: [a, b] } ] }
                move: { from: [0.1], to: [0, 0] }
                expect: allowed
            """)
        let text = try CLI.run(["lint", "--no-analysis", "--color", "never", policy]).stdout
        #expect(text.contains("unknown key 'maximum' in a capacity; did you mean 'max'?") || text.contains("'maximum'") && text.contains("did you mean 'max'?"), "\(text)")
        #expect(text.contains("'first' is in the same column as 'pin'") && text.contains("indent it further than 'pin'"), "\(text)")
        #expect(text.contains("write [0, 1]"), "\(text)")
    }

    @Test("lint reports a test table that test could not load: missing, outside the policy's folder, or broken")
    func lintChecksTestTables() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reorder-policy-tables-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("p/tables"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "sections:\n  - rows: [a, b]\n".write(to: dir.appendingPathComponent("outside.yaml"), atomically: true, encoding: .utf8)
        try "sections:\n  - rows: [a, b]\n    colour: red\n".write(to: dir.appendingPathComponent("p/tables/broken.yaml"), atomically: true, encoding: .utf8)
        try "sections:\n  - rows: [a, b]\n".write(to: dir.appendingPathComponent("p/tables/fine.yaml"), atomically: true, encoding: .utf8)
        let test = { (name: String, table: String) in "  - name: \(name)\n    table: \(table)\n    move: { from: [0, 0], to: [0, 1] }\n    expect: allowed\n" }
        let policy = dir.appendingPathComponent("p/policy.yaml")
        try ("reorder-policy: 1\nname: t\nrules: []\ntests:\n" + test("missing", "tables/missing.yaml") + test("outside", "../outside.yaml")
             + test("broken", "tables/broken.yaml") + test("fine", "tables/fine.yaml")).write(to: policy, atomically: true, encoding: .utf8)
        let lint = try CLI.run(["lint", "--color", "never", policy.path])
        #expect(lint.status == 1, "\(lint.stdout)")
        #expect(lint.stdout.contains("cannot read the test's table 'tables/missing.yaml'"), "\(lint.stdout)")
        #expect(lint.stdout.contains("the test's table '../outside.yaml' is outside the policy's directory"), "\(lint.stdout)")
        #expect(lint.stdout.contains("the test's table 'tables/broken.yaml' does not load") && lint.stdout.contains("colour"), "\(lint.stdout)")
        #expect(lint.stdout.contains("3 errors"), "\(lint.stdout)")
        // test still runs the policy's tests and fails the three, passing the fourth.
        let run = try CLI.run(["test", "--color", "never", policy.path])
        #expect(run.status == 1 && run.stdout.contains("1 passed"), "\(run.stdout)")
    }
}

@Suite struct MovesFileRuleTests {
    static let policy = ["--policy", "policies/board.yaml", "--table", "policies/tables/sprint.yaml"]

    func run(_ name: String, _ bytes: [UInt8]) throws -> (status: Int32, json: [String: Any]) {
        let path = try CLI.scratch(name, "")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try CLI.run(["check"] + Self.policy + ["--moves", path, "--format", "json"])
        return (result.status, try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:])
    }

    @Test("an alias or a tagged item is invalid with its error, never decided; the rest are decided")
    func refusedItemsAreInvalid() throws {
        let move = "{from: [1, 2], to: [2, 0]}"
        let (status, json) = try run("refused.yaml", Array("- \(move)\n- &a \(move)\n- !!map \(move)\n- \(move)\n".utf8))
        #expect(status == 2)
        let summary = json["summary"] as? [String: Int]
        #expect(summary?["allowed"] == 2)
        #expect(summary?["invalid"] == 2)
        let results = json["results"] as? [[String: Any]] ?? []
        #expect(results.map { $0["decision"] as? String } == ["allowed", "invalid", "invalid", "allowed"])
        #expect((results[1]["error"] as? String)?.hasPrefix("yaml-alias at 2:3") == true)
        #expect((results[2]["error"] as? String)?.hasPrefix("yaml-tag at 3:3") == true)
    }

    @Test("every item before the first unreadable byte is decided, the one it falls in is not")
    func itemsBeforeInvalidUTF8AreDecided() throws {
        var bytes = Array(String(repeating: "- {from: [1, 2], to: [2, 0]}\n", count: 50).utf8)
        bytes += Array("- {from: [1, ".utf8) + [0xFF] + Array("2], to: [2, 0]}\n- {from: [1, 2], to: [2, 0]}\n".utf8)
        let (status, json) = try run("utf8.yaml", bytes)
        #expect(status == 2)
        #expect((json["summary"] as? [String: Int])?["allowed"] == 50)
        #expect((json["results"] as? [Any])?.count == 50)
        let errors = json["errors"] as? [[String: Any]] ?? []
        #expect(errors.first?["line"] as? Int == 51)
        #expect((errors.first?["message"] as? String)?.contains("invalid UTF-8") == true)
    }
}

@Suite struct StandardInputTests {
    static let board = ["--policy", "policies/board.yaml", "--table", "policies/tables/sprint.yaml"]

    @Test("--moves - reads the moves from standard input")
    func movesFromStandardInput() throws {
        let result = try CLI.run(["check"] + Self.board + ["--moves", "-", "--format", "json"],
                                 input: "- {from: [1, 2], to: [2, 0]}\n- {from: [0, 0], to: [1, 1]}\n")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect((json?["results"] as? [Any])?.count == 2, "\(result.stdout)\(result.stderr)")
        #expect((json?["summary"] as? [String: Int])?["allowed"] == 1)
    }

    @Test("two inputs from standard input are a usage error; --help mentions '-'")
    func standardInputOnce() throws {
        let policy = try String(contentsOfFile: CLI.packageRoot.appendingPathComponent("policies/board.yaml").path, encoding: .utf8)
        let both = try CLI.run(["check", "--policy", "-", "--table", "-", "--from", "0.0", "--to", "0.1"], input: policy)
        #expect(both.status == 2)
        #expect(both.stderr.contains("standard input"))
        let moves = try CLI.run(["check", "--policy", "-", "--table", "policies/tables/sprint.yaml", "--moves", "-"], input: policy)
        #expect(moves.status == 2)
        #expect(try CLI.run(["explain", "--policy", "-", "--table", "-", "--from", "0.0", "--to", "0.1"], input: policy).status == 2)
        let help = try CLI.run(["check", "--help"]).stdout
        #expect(help.contains("'-' reads standard input"))
    }
}

@Suite struct ErrorTextTests {
    @Test("a tab used for indentation says so, with its position and code")
    func tabs() throws {
        let path = try CLI.scratch("tab.yaml", "reorder-policy: 1\nname: t\nrules:\n\t- lock: all\n")
        let result = try CLI.run(["lint", path])
        #expect(result.stdout.contains("tab.yaml:4:1: error[yaml-syntax]: tabs cannot indent YAML"), "\(result.stdout)")
    }

    @Test("integers past 64 bits are too large, in a policy and on the command line")
    func tooLarge() throws {
        let path = try CLI.scratch("huge-capacity.yaml", "reorder-policy: 1\nname: t\nrules:\n  - capacity: { section: 0, max: 99999999999999999999 }\n")
        let lint = try CLI.run(["lint", path])
        #expect(lint.stdout.contains("error[type-mismatch]: 'max' is too large"), "\(lint.stdout)")
        let check = try CLI.run(["check", "--policy", "policies/board.yaml", "--table", "policies/tables/sprint.yaml",
                                 "--from", "0.99999999999999999999", "--to", "0.0"])
        #expect(check.status == 2)
        #expect(check.stderr.contains("is too large"), "\(check.stderr)")
    }

    @Test("a table passed as --policy gets a hint to use --table")
    func tableAsPolicy() throws {
        let result = try CLI.run(["check", "--policy", "policies/tables/sprint.yaml", "--table", "policies/tables/sprint.yaml",
                                  "--from", "0.0", "--to", "0.1"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("pass tables with --table"), "\(result.stderr)")
    }
}

@Suite struct StaleDocsTests {
    @Test("the README's /health example counts the bundled policies")
    func readmeCountsTheBundledPolicies() throws {
        let readme = try String(contentsOfFile: CLI.packageRoot.appendingPathComponent("README.md").path, encoding: .utf8)
        let bundled = try FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot.appendingPathComponent("policies").path)
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.count
        #expect(readme.contains("{\"status\": \"ok\", \"policies\": \(bundled)}"))
    }
}

@Suite struct DockerfileTests {
    @Test("the Dockerfile's build stage copies every top-level folder Package.swift names")
    func copiesEveryPackageFolder() throws {
        let root = CLI.packageRoot
        let manifest = try String(contentsOfFile: root.appendingPathComponent("Package.swift").path, encoding: .utf8)
        let dockerfile = try String(contentsOfFile: root.appendingPathComponent("Dockerfile").path, encoding: .utf8)
        // Targets live in Sources/, Tests/ and Plugins/ by default, or under an explicit `path:`.
        var needed: Set<String> = ["Sources", "Tests"]
        if manifest.contains(".plugin(") { needed.insert("Plugins") }
        for match in manifest.matches(of: /path: "([^"\/]+)/) { needed.insert(String(match.1)) }
        for folder in needed where FileManager.default.fileExists(atPath: root.appendingPathComponent(folder).path) {
            #expect(dockerfile.contains("COPY \(folder) ./\(folder)"), "the Dockerfile does not copy \(folder)/")
        }
    }
}

@Suite struct DefaultPathTests {
    static let broken = "reorder-policy: 1\nname: broken\nrules: [ { pin: } ]\n"

    /// A project folder: one real policy (with a warning, so lint visibly read it) and broken
    /// policies in a build folder, a virtual environment and a hidden folder.
    static func project() throws -> URL {
        try CLI.tree([
            "policies/warns.yaml": "reorder-policy: 1\nname: warns\nrules:\n  - pin: { first: 1 }\n    id: top\n  - lock: { first: 1 }\n    id: twice\n",
            ".build/checkouts/x.yaml": broken,
            ".build-venv/y.yaml": broken,
            ".hidden/z.yaml": broken,
        ])
    }

    @Test("lint with no path lints the current directory, skipping .build* and hidden folders")
    func lintDefaultsToTheCurrentDirectory() throws {
        let root = try Self.project()
        let result = try CLI.run(["lint", "--format", "json", "--no-config"], in: root)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let files = Set((json?["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["file"] as? String })
        #expect(files == ["./policies/warns.yaml"], "\(result.stdout)")
        #expect((json?["summary"] as? [String: Int])?["files"] == 1)
        // As `lint .` does; a hidden folder named on the command line is still walked.
        #expect(try CLI.run(["lint", "--format", "json", "--no-config", "."], in: root).stdout == result.stdout)
        #expect(try CLI.run(["lint", "--no-config", ".hidden"], in: root).status == 1)
    }

    @Test("test with no path tests the policies below the current directory, as lint finds them")
    func testDefaultsToTheCurrentDirectory() throws {
        let root = try Self.project()
        let result = try CLI.run(["test", "--format", "json", "--no-config"], in: root)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect((json?["summary"] as? [String: Int])?["files"] == 1, "\(result.stdout)")
    }

    @Test("fmt walks directories as lint does: hidden folders are skipped")
    func fmtSkipsHiddenFolders() throws {
        let root = try CLI.tree([
            "p.yaml": "reorder-policy: 1\nname: tidy\nrules:\n  - pin: { first: 1 }\n",
            ".build/untidy.yaml": "reorder-policy: 1\nname: untidy\nrules:\n    - pin: {first: 1}\n",
        ])
        let result = try CLI.run(["fmt", "--check", "--no-config", "."], in: root)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("1 file: 0 would reformat"), "\(result.stderr)")
    }
}

@Suite struct BlockReasonTests {
    static let policy = "reorder-policy: 1\nname: colors\nrules:\n  - pin: { id: Red }\n    id: status-row\n"
    static let table = "sections:\n  - id: Colors\n    rows: [Green, Red, Blue, Cyan]\n"

    @Test("an offset move's reasons name the rows by id and say where the whole block would land")
    func reasonsNameRowsAndTheLanding() throws {
        let root = try CLI.tree(["p.yaml": Self.policy, "t.yaml": Self.table,
                                 "m.yaml": "- { from-offsets: [0, 2], to-offset: 0, section: 0 }\n- { from-offsets: [2, 3], to-offset: 0, section: 0 }\n"])
        let text = try CLI.run(["check", "--policy", "p.yaml", "--table", "t.yaml", "--moves", "m.yaml"], in: root).stdout
        // Rows 0 and 2 gathered at the top: 0.0 alone is Green's own position and read as no move.
        #expect(text.contains("moving \"Green\" and \"Blue\" to 0.0–0.1 would shift pinned row \"Red\" from 0.1 to 0.2"), "\(text)")
        #expect(text.contains("moving \"Blue\" and \"Cyan\" to 0.0–0.1 would shift pinned row \"Red\" from 0.1 to 0.3"), "\(text)")
        #expect(!text.contains("to 0.0 would"), "\(text)")
        let json = try CLI.run(["check", "--policy", "p.yaml", "--table", "t.yaml", "--moves", "m.yaml", "--format", "json"], in: root).stdout
        #expect(json.contains("\"reason\": \"moving \\\"Green\\\" and \\\"Blue\\\" to 0.0–0.1 would shift pinned row \\\"Red\\\" from 0.1 to 0.2\""), "\(json)")
    }
}

/// Inputs a careless or hostile user gives (found by reading SPEC §4 and §5 against the built
/// binaries, session 22): each fails without its fix.
@Suite struct CarelessInputTests {
    static let bom = "\u{FEFF}"

    @Test("a policy, table and moves file opened by a byte order mark read as without it")
    func byteOrderMarks() throws {
        let policy = try CLI.scratch("bom-policy.yaml", Self.bom + "reorder-policy: 1\nname: bom\nrules:\n  - lock: { first: 1 }\n")
        let table = try CLI.scratch("bom-table.yaml", Self.bom + "sections:\n  - id: a\n    rows: [A, B, C]\n")
        let moves = try CLI.scratch("bom-moves.yaml", Self.bom + "- {from: [0, 2], to: [0, 1]}\n- {from: [0, 0], to: [0, 1]}\n")
        let lint = try CLI.run(["lint", policy])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        let check = try CLI.run(["check", "--policy", policy, "--table", table, "--moves", moves, "--format", "json"])
        #expect(check.status == 1, "\(check.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any]
        let results = json?["results"] as? [[String: Any]] ?? []
        #expect(results.map { $0["decision"] as? String } == ["allowed", "denied"])
        // Positions count from after the mark: a broken key on line 1 is at column 1.
        let broken = try CLI.scratch("bom-broken.yaml", Self.bom + "reorder-policy: 1\nname: bom\nrules: [ { lok: {} } ]\n")
        let errors = try CLI.run(["lint", "--format", "json", broken])
        #expect(errors.status == 1)
        #expect(errors.stdout.contains("\"line\": 3, \"column\": 12"), "\(errors.stdout)")
        let version = try CLI.scratch("bom-version.yaml", Self.bom + "reorder-policy: 2\nname: bom\nrules: []\n")
        let first = try CLI.run(["lint", "--format", "json", version]).stdout
        #expect(first.contains("\"line\": 1, \"column\": 17"), "\(first)")
    }

    @Test("a moves file that cannot be opened still gives one JSON document with the error, exit 2")
    func unreadableMovesFile() throws {
        let inputs = ["check", "--policy", "policies/board.yaml", "--table", "policies/tables/sprint.yaml"]
        for (path, message) in [("no/such/moves.yaml", "no such file"), ("policies", "directory")] {
            let json = try CLI.run(inputs + ["--moves", path, "--format", "json"])
            #expect(json.status == 2)
            let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let errors = document?["errors"] as? [[String: Any]] ?? []
            #expect(errors.first?["code"] as? String == "unreadable", "\(json.stdout)")
            #expect(errors.first?["file"] as? String == path)
            #expect((errors.first?["message"] as? String)?.contains(message) == true)
            #expect(document?["policy"] as? String == "board")
            let lines = try CLI.run(inputs + ["--moves", path, "--format", "jsonl"])
            #expect(lines.status == 2)
            #expect(lines.stdout.hasPrefix("{\"policy\": \"board\", \"errors\": [{"), "\(lines.stdout)")
            let text = try CLI.run(inputs + ["--moves", path])
            #expect(text.status == 2 && text.stdout.isEmpty && text.stderr.contains("error[unreadable]"))
        }
    }

    @Test("moves from standard input stop at the first byte no YAML reader takes: /dev/zero ends at once")
    func standardInputOfZeros() throws {
        let result = try CLI.run(["check", "--policy", "policies/board.yaml", "--table", "policies/tables/sprint.yaml",
                                  "--moves", "-", "--format", "json"], inputFile: "/dev/zero")
        #expect(result.status == 2)
        #expect(result.stdout.contains("\"code\": \"yaml-syntax\""), "\(result.stdout)")
        #expect(result.stdout.contains("control characters are not allowed (U+0)"))
    }
}
