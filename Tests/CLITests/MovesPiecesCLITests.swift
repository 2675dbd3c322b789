import Foundation
import Testing

/// `check --moves FILE` reads a file of 4 MiB or more in pieces on every core; `--moves -`
/// reads standard input as one stream. The same big file both ways must give the same output,
/// errors (their positions included) and exit status, the file's name aside.
@Suite struct MovesPiecesCLITests {
    @Test("a 5 MB moves file read in pieces answers as the same bytes read as one stream")
    func piecesAnswerAsOneStream() throws {
        var text = ""
        var n = 0
        while text.utf8.count < 5_000_000 {
            let s = n % 4, t = (n / 4) % 4, r = n % 3, q = (n / 3) % 4
            switch n % 5 {
            case 0: text += "- from: [\(s), \(r)]\n  to: [\(t), \(q)]\n"
            case 1: text += "- {section-from: \(s), section-to: \(t)}\n"
            case 2: text += "- {from: [\(s), \(r)], to: [\(t), \"\(q)\"]}\n"
            default: text += "- {from: [\(s), \(r)], to: [\(t), \(q)]}\n"
            }
            n += 1
            // Three quarters in, a quoted scalar runs across a line that opens with `- `: the
            // piece before it does not stand on its own, and the rest is read as one stream.
            if n == 110_000 { text += "- 'a quoted scalar\n- that goes on'\n- {from: [0, 0], to: [0, 1]}\r\n" }
        }
        // A byte that is not UTF-8 near the end: an error with its line and column.
        var bytes = Array(text.utf8)
        bytes += Array("- {from: [0, 1], to: [0, 2]}\n- {from: [1, 1], to: ".utf8) + [0xFF] + Array(" [1, 2]}\n".utf8)
        let dir = CLI.scratchRoot
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // Names of their own: other tests write scratch files into the same folder at the same time.
        let path = dir.appendingPathComponent("moves-in-pieces-\(UUID().uuidString.prefix(8)).yaml").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        // Pieces need two cores (on one, both runs would read one stream and prove nothing).
        #expect(ProcessInfo.processInfo.activeProcessorCount >= 2)
        let args = ["check", "--policy", "policies/board.yaml", "--table", "policies/tables/sprint.yaml", "--format", "json"]
        let logs = (dir.appendingPathComponent("moves-in-pieces-\(UUID().uuidString.prefix(8)).log").path, dir.appendingPathComponent("moves-as-one-stream-\(UUID().uuidString.prefix(8)).log").path)
        defer { for log in [logs.0, logs.1] { try? FileManager.default.removeItem(atPath: log) } }
        for log in [logs.0, logs.1] { #expect(FileManager.default.createFile(atPath: log, contents: nil)) }
        let pieces = try CLI.run(args + ["--moves", path, "--log", logs.0])
        let whole = try CLI.run(args + ["--moves", "-", "--log", logs.1], inputFile: path)
        #expect(pieces.status == 2)
        #expect(pieces.status == whole.status)
        #expect(pieces.stdout.replacingOccurrences(of: path, with: "<stdin>") == whole.stdout)
        #expect(pieces.stderr.replacingOccurrences(of: path, with: "<stdin>") == whole.stderr)
        // The decision log, every decision in file order (each line's time aside).
        func log(_ path: String) throws -> String {
            try String(contentsOfFile: path, encoding: .utf8).replacing(/"time": ?"[^"]*"/, with: "\"time\"")
        }
        let logged = try log(logs.0)
        #expect(logged == (try log(logs.1)))
        #expect(logged.split(separator: "\n").count > 100_000)
        // The file is long enough to be read in pieces, and the answer is whole.
        #expect(bytes.count > 4 << 20)
        #expect(whole.stdout.contains("\"errors\"") && whole.stdout.contains("invalid UTF-8"))
        // The bad byte's line: the text's line feeds (a CR LF is one break), the move after them, its own.
        let line = text.utf8.filter { $0 == 0x0A }.count + 2
        #expect(whole.stdout.contains("\"line\": \(line),"), "line \(line)")
    }
}
