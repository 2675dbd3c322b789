import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hostile environments: FIFOs, devices, full or size-limited disks, readers that go away.
/// Each case must end in seconds with a coded error or a correct result — never a hang, a
/// signal or lost decisions.
@Suite struct HostileEnvironmentTests {
    static let board = ["--policy", "policies/board.yaml", "--table", "policies/tables/sprint.yaml"]

    static func fifo() throws -> String {
        let path = try CLI.scratch("fifo-\(UUID().uuidString.prefix(8)).yaml", "")
        unlink(path)
        #expect(mkfifo(path, 0o644) == 0)
        return path
    }

    /// Runs the CLI and fails the test if it takes longer than `seconds` (a hang). Each run here
    /// needs well under 0.1 s in a debug build (a suite's runs together: 0.13 s at most, serial,
    /// unloaded, 2026-11-29), so 10 s is a hang guard at over 30 times a loaded machine's need.
    static func runBounded(_ arguments: [String], seconds: Double = 10) throws -> CLI.Result {
        let started = Date()
        let result = try CLI.run(arguments)
        #expect(Date().timeIntervalSince(started) < seconds, "\(arguments) took too long")
        return result
    }

    @Test("a FIFO as policy, table, moves or log is refused at once, not read forever")
    func fifosAreRefused() throws {
        let fifo = try Self.fifo()
        let cases: [[String]] = [
            ["check", "--policy", fifo, "--table", "policies/tables/sprint.yaml", "--from", "0.0", "--to", "0.1"],
            ["check", "--policy", "policies/board.yaml", "--table", fifo, "--from", "0.0", "--to", "0.1"],
            ["check"] + Self.board + ["--moves", fifo],
            ["check"] + Self.board + ["--from", "0.0", "--to", "0.1", "--log", fifo],
            ["lint", fifo],
            ["test", fifo],
        ]
        for arguments in cases {
            let result = try Self.runBounded(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect((result.stderr + result.stdout).contains("FIFO") || result.stderr.contains("regular file"), "\(arguments): \(result.stderr)")
        }
    }

    @Test("a device as moves file or log is refused before a byte is read")
    func devicesAreRefused() throws {
        let zero = try Self.runBounded(["check"] + Self.board + ["--moves", "/dev/zero"])
        #expect(zero.status == 2)
        #expect(zero.stderr.contains("error[unreadable]: expected a regular file, found a device"))
        let full = try Self.runBounded(["check"] + Self.board + ["--from", "0.0", "--to", "0.1", "--log", "/dev/full"])
        #expect(full.status == 2)
        #expect(full.stderr.contains("must be a regular file"))
    }

    @Test("lint reports FIFOs and broken links below a directory instead of skipping them")
    func lintReportsWhatItCannotRead() throws {
        let dir = URL(fileURLWithPath: try CLI.scratch("placeholder", "")).deletingLastPathComponent()
            .appendingPathComponent("lint-dir-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try String(contentsOfFile: CLI.packageRoot.appendingPathComponent("policies/board.yaml").path, encoding: .utf8)
            .write(to: dir.appendingPathComponent("board.yaml"), atomically: true, encoding: .utf8)
        #expect(mkfifo(dir.appendingPathComponent("pipe.yaml").path, 0o644) == 0)
        #expect(symlink("/no/such/target", dir.appendingPathComponent("gone.yml").path) == 0)
        #expect(symlink(dir.path, dir.appendingPathComponent("loop").path) == 0)  // a loop back to itself
        let result = try Self.runBounded(["lint", dir.path])
        #expect(result.status == 2)
        #expect(result.stdout.contains("pipe.yaml:1:1: error[unreadable]: expected a regular file, found a FIFO"))
        #expect(result.stdout.contains("gone.yml:1:1: error[unreadable]: no such file"))
        #expect(result.stdout.contains("checked 1 policy file"))
    }

    @Test("a log write that fails (file size limit) is an error; stdout stays complete JSON")
    func failedLogWritesAreReported() throws {
        let moves = try CLI.scratch("many-moves.yaml", String(repeating: "- { from: [0, 0], to: [0, 1] }\n", count: 5_000))
        let log = try CLI.scratch("limited-\(UUID().uuidString.prefix(8)).log", "")
        let command = "ulimit -f 8; exec '\(CLI.executable.path)' check --policy policies/board.yaml --table policies/tables/sprint.yaml --moves '\(moves)' --format json --log '\(log)'"
        let result = try Self.runShell(command)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("cannot write the decision log"))
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect((json?["results"] as? [Any])?.count == 5_000)
    }

    @Test("when the reader of stdout goes away, every decision still reaches the log")
    func closedStdoutLosesNoDecision() throws {
        let moves = try CLI.scratch("pipe-moves.yaml", String(repeating: "- { from: [0, 0], to: [0, 1] }\n", count: 20_000))
        let log = try CLI.scratch("pipe-\(UUID().uuidString.prefix(8)).log", "")
        let command = "'\(CLI.executable.path)' check --policy policies/board.yaml --table policies/tables/sprint.yaml --moves '\(moves)' --format json --log '\(log)' | head -c 100 >/dev/null; echo ${PIPESTATUS[0]}"
        let result = try Self.runShell(command)
        // Every move is allowed (0); a process killed by SIGPIPE would give 141.
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "not killed by SIGPIPE: \(result.stdout)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 20_000)
    }

    @Test("a policy test's table stays inside the policy's directory: no absolute paths, '..' or links out")
    func testTablesAreConfined() throws {
        let dir = URL(fileURLWithPath: try CLI.scratch("placeholder", "")).deletingLastPathComponent()
            .appendingPathComponent("confined-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("tables"), withIntermediateDirectories: true)
        try "sections: [ { rows: [a, b] } ]\n".write(to: dir.appendingPathComponent("tables/ok.yaml"), atomically: true, encoding: .utf8)
        #expect(symlink("/etc/passwd", dir.appendingPathComponent("tables/escape.yaml").path) == 0)
        func item(_ name: String, _ table: String) -> String {
            "  - name: \(name)\n    table: \(table)\n    move: { from: [0, 0], to: [0, 1] }\n    expect: allowed\n"
        }
        let policy = "reorder-policy: 1\nname: confined\nrules: []\ntests:\n"
            + item("inside", "tables/ok.yaml") + item("absolute", "/etc/passwd") + item("parent", "../../../../../../etc/passwd")
            + item("link", "tables/escape.yaml") + item("missing", "tables/none.yaml")
        let file = dir.appendingPathComponent("p.yaml")
        try policy.write(to: file, atomically: true, encoding: .utf8)
        let result = try Self.runBounded(["test", file.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("✓ inside"))
        #expect(result.stdout.contains("p.yaml:10:12: error[invalid-value]: the test's table '/etc/passwd' is outside the policy's directory"))
        #expect(result.stdout.contains("p.yaml:14:12: error[invalid-value]: the test's table '../../../../../../etc/passwd' is outside"))
        #expect(result.stdout.contains("p.yaml:18:12: error[invalid-value]: the test's table 'tables/escape.yaml' is outside"))
        #expect(result.stdout.contains("p.yaml:22:12: error[unreadable]: cannot read the test's table 'tables/none.yaml'"))
        #expect(!result.stdout.contains("root:"), "nothing of the outside file is shown")
    }

    @Test("control characters from ids, names, messages and keys are shown escaped in text output")
    func noTerminalInjection() throws {
        let esc = "\\e[2J\\e]0;pwned\\a"  // clear screen, set the title (YAML double-quoted escapes)
        let policy = try CLI.scratch("inject.yaml", """
            reorder-policy: 1
            name: "inject\(esc)"
            rules:
              - pin: { first: 1 }
                id: "header\(esc)"
                message: "fake line\\nerror: forged\(esc)"
            tests:
              - name: "a test\\nFORGED ✓ line\(esc)"
                table: { sections: [ { id: "sec\(esc)", rows: ["H\(esc)", "b\\u202Eevil", "c"] } ] }
                move: { from: [0, 2], to: [0, 0] }
                expect: allowed
            """)
        let table = try CLI.scratch("inject-table.yaml", "sections:\n  - id: \"sec\(esc)\"\n    rows: [\"H\(esc)\", \"b\\u202Eevil\", \"c\\nforged\"]\n")
        let broken = try CLI.scratch("inject-broken.yaml", "reorder-policy: 1\nname: x\nrules:\n  - \"pin\(esc)\": all\n")
        let moves = try CLI.scratch("inject-moves.yaml", "- { from: [0, 2], to: [0, 0] }\n- { \"x\(esc)\": 1 }\n")
        let runs: [[String]] = [
            ["check", "--policy", policy, "--table", table, "--from", "0.2", "--to", "0.0"],
            ["check", "--policy", policy, "--table", table, "--moves", moves],
            ["explain", "--policy", policy, "--table", table, "--from", "0.2", "--to", "0.0"],
            ["test", policy],
            ["lint", broken],
        ]
        for arguments in runs {
            let result = try CLI.run(arguments)
            let raw = result.stdout.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E }
            #expect(raw.isEmpty, "\(arguments[0]) printed raw control characters: \(raw.map { $0.value })")
            #expect(result.stdout.contains("\\u{1B}"), "\(arguments[0]) shows the escape visibly")
            #expect(!result.stdout.contains("\nerror: forged") && !result.stdout.contains("\nFORGED"), "\(arguments[0]) forged a line")
        }
    }

    @Test("a moves file that turns bad after 4 MiB of output still gives one complete JSON document", arguments: ["garbage", "utf8"])
    func lateFailuresCloseTheDocument(kind: String) throws {
        let good = String(repeating: "- { from: [0, 0], to: [0, 1] }\n", count: 60_000)
        var bytes = Array(good.utf8)
        bytes += kind == "garbage" ? Array("garbage: [\n".utf8) : Array("- { from: [0, ".utf8) + [0xFF] + Array("], to: [0, 1] }\n".utf8)
        let path = try CLI.scratch("late-\(kind).yaml", "")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try CLI.run(["check"] + Self.board + ["--moves", path, "--format", "json"])
        #expect(result.status == 2)
        #expect(result.stdout.utf8.count > 4 << 20, "the output was flushed before the failure")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let errors = try #require(json["errors"] as? [[String: Any]])
        #expect(errors.first?["code"] as? String == "yaml-syntax")
        #expect(errors.first?["line"] as? Int == 60_001)
        let results = try #require(json["results"] as? [Any])
        #expect(results.count > 50_000)
        #expect((json["summary"] as? [String: Int])?["allowed"] == results.count)
        #expect(result.stderr.contains("error[yaml-syntax]"))
        // The frame under the error is read back from the streamed file: the line itself is shown.
        #expect(result.stderr.contains("60001 | " + (kind == "garbage" ? "garbage: [" : "- { from: [0, ")))
    }

    @Test("a file name over the system's limit is reported as such, not as a missing file")
    func tooLongFileNames() throws {
        let name = String(repeating: "n", count: 300) + ".yaml"
        let result = try Self.runBounded(["lint", name])
        #expect(result.status == 2)
        #expect(result.stdout.contains("error[unreadable]: the file name is too long"))
    }

    static func runShell(_ command: String) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = CLI.packageRoot
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        nonisolated(unsafe) var outData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            outData = out.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CLI.Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                          stderr: String(decoding: errData, as: UTF8.self))
    }
}
