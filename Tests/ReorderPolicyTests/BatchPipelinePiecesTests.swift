import Foundation
import ReorderEngine
@testable import ReorderPolicy
import SpannedYAML
import Testing

/// A big moves file is read in pieces on several threads (`BatchPipeline+Pieces.swift`). Its
/// output, log, counts and errors must be those of reading the file as one stream, whatever
/// the file holds across the lines it is cut at: the files here mix moves with what makes a
/// piece fail to stand on its own (quoted and flow scalars and block scalars across lines,
/// documents, directives, top-level mappings and scalars, anchors, tags, repeated keys,
/// unreadable bytes, tabs, byte order marks, every kind of line break) and are cut into
/// pieces of a few bytes.
@Suite struct BatchPipelinePiecesTests {
    static let policy = "reorder-policy: 1\nname: t\nrules:\n  - pin: { first: 1 }\n  - keep-in-section: { tag: home }\n"
    static let table = Table(sections: (0..<4).map { s in
        Section(id: "S\(s)", rows: (0..<5).map { Row(id: "r\(s)-\($0)", tags: $0 % 2 == 0 ? ["home"] : []) })
    })

    /// What a run gives: everything written, the problems, the exit status, the log.
    struct Run: Equatable {
        var output: [UInt8]
        var problems: [Diagnostic]
        var status: Int32
        var log: [UInt8]
    }

    static func run(_ path: String, format: CheckRunner.Format, pieces: BatchPipeline.Pieces) throws -> Run {
        let compiled = try PolicyLoader.compile(text: policy)
        var runner = CheckRunner(bound: compiled.bind(table), format: format)
        runner.log = JSONWriter()
        runner.policyHash = "h"
        let flushed = EmbeddedBatchTests.Flushed()
        let problems = try BatchPipeline.run(path: path, runner: &runner, flush: { $0.withBytes { flushed.append($0) } }, pieces: pieces)
        let status = runner.finish(inputErrors: problems)
        var output = flushed.bytes
        runner.withOutput { output += $0 }
        // Each log line's time is when it was decided: left out.
        let log = String(decoding: runner.log?.bytes ?? [], as: UTF8.self)
            .replacing(/"time": ?"[^"]*"/, with: "\"time\"")
        return Run(output: output, problems: problems, status: status, log: Array(log.utf8))
    }

    final class Stats: @unchecked Sendable {
        // Unchecked: set once, by the run, before it returns.
        var written = 0, restFrom: Int? = nil
        func set(_ w: Int, _ r: Int?) { written = w; restFrom = r }
    }

    static let whole = BatchPipeline.Pieces(minimumFileBytes: .max, pieceBytes: 1 << 19, maximumPieceBytes: 1 << 23, workers: 2)

    /// A move, in one of the forms a moves file takes.
    static func move(_ g: inout DecisionServiceTests.Generator) -> String {
        let s = Int.random(in: 0..<4, using: &g), t = Int.random(in: 0..<4, using: &g)
        let r = Int.random(in: 0..<6, using: &g), q = Int.random(in: 0..<6, using: &g)
        switch Int.random(in: 0..<8, using: &g) {
        case 0: return "- from: [\(s), \(r)]\n  to: [\(t), \(q)]\n"
        case 1: return "-\n  from: [\(s), \(r)]\n  to:\n    - \(t)\n    - \(q)\n"
        case 2: return "- {section-from: \(s), section-to: \(t)}\n"
        case 3: return "- {from-offsets: [\(r), \(q)], to-offset: \(t), section: \(s)}\n"
        case 4: return "- { from: [\(s), \(r)], to: [\(t), \(q)] }   # a comment\n"
        case 5: return "- {from: [\(s), \(r)], to: [\(t), \"\(q)\"]}\n"
        default: return "- {from: [\(s), \(r)], to: [\(t), \(q)]}\n"
        }
    }

    /// Something that runs across a line opening with `- `, or that libyaml or SPEC §4 refuses.
    static let troubles: [String] = [
        "- 'a quoted scalar\n- that goes on'\n",
        "- \"a double-quoted one\n- that goes on\"\n",
        "- [0,\n- 1]\n",
        "- {from: [0, 1],\n- to: [0, 2]}\n",
        "- |\n  a literal\n  - not an item\n",
        "- >\n  folded\n\n  - text\n",
        "---\n",
        "...\n",
        "--- - {from: [0, 1], to: [0, 2]}\n",
        "key: value\n",
        "a plain scalar\n",
        "  - {from: [0, 1], to: [0, 2]}\n",
        "- - {from: [0, 1], to: [0, 2]}\n",
        "- &a {from: [0, 1], to: [0, 2]}\n",
        "- *a\n",
        "- !t {from: [0, 1], to: [0, 2]}\n",
        "- {from: [0, 1], from: [0, 2], to: [0, 3]}\n",
        "- {[0]: 1}\n",
        "- \u{FF}\n",
        "- {from: [0, 1], to: [0, 2]}\u{01}\n",
        "\t- {from: [0, 1], to: [0, 2]}\n",
        "-\t{from: [0, 1], to: [0, 2]}\n",
        "-x\n",
        "- \n",
        "-\n",
        "# - a comment\n",
        "\n",
        "- {from: [0, 1], to: [0, 2]}\r\n",
        "- {from: [0, 1],\r- to: [0, 2]}\r",
        "- {from: [0, 1], to: [0, 2]}\u{85}- {from: [1, 1], to: [1, 2]}\n",
        "- 'line\u{2028}- separator'\n",
        "- {from: [0, 1], to: [0, \n",
        "\u{FEFF}- {from: [0, 1], to: [0, 2]}\n",
        "- {from: [0, 1], to: [0, 2], note: 'é'}\n",
        String(repeating: "- {from: [0, 1], to: [0, 2]}  ", count: 6) + "\n",
    ]
    static let rawBytes: [[UInt8]] = [
        [0xC3], [0x7F], [0x00], [0x1B], [0xC2, 0x80], [0xED, 0xA0, 0x80], [0xC0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xEF, 0xBF, 0xBE], [0xE2, 0x80], [0xFF], [0xF0, 0x9F, 0x98, 0x80], [0xC2, 0x85], [0xEF, 0xBB, 0xBF], [0xC2, 0xA0],
    ]
    static let openings = ["", "\u{FEFF}", "---\n", "%YAML 1.1\n---\n", "%TAG !e! tag:e,2000:\n---\n", "# moves\n", "[\n", "key:\n"]

    static func file(_ g: inout DecisionServiceTests.Generator, troubled: Bool) -> [UInt8] {
        var text = troubled && Bool.random(using: &g) ? openings.randomElement(using: &g)! : ""
        for _ in 0..<Int.random(in: 1...60, using: &g) {
            if troubled && Int.random(in: 0..<12, using: &g) == 0 {
                text += troubles.randomElement(using: &g)!
            } else {
                text += move(&g)
            }
        }
        if troubled && Int.random(in: 0..<6, using: &g) == 0 { text.removeLast() }  // no final line break
        var bytes = Array(text.utf8)
        // Raw bytes, where the text cannot carry them: libyaml's reader refuses most (pieces
        // are not looked over for them first), a few are characters (NEL, a BOM, an emoji).
        if troubled && Int.random(in: 0..<8, using: &g) == 0, !bytes.isEmpty {
            bytes.insert(contentsOf: Self.rawBytes.randomElement(using: &g)!, at: Int.random(in: 0..<bytes.count, using: &g))
        }
        return bytes
    }

    static func write(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("pieces-\(getpid())-\(UUID().uuidString.prefix(8)).yaml").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("400 random files, cut into pieces of 1 to 200 bytes on 2 to 4 threads, give what reading them whole gives")
    func piecesReadAsTheWholeFile() throws {
        var g = DecisionServiceTests.Generator(state: 0x9_1ECE5)
        var pieced = 0, fellBack = 0, withProblems = 0
        for round in 0..<400 {
            let bytes = Self.file(&g, troubled: round % 4 != 0)
            let path = try Self.write(bytes)
            defer { try? FileManager.default.removeItem(atPath: path) }
            // Text output is read as one stream (it names malformed items by their line in the
            // file): JSON and JSON Lines are the formats read in pieces.
            let format: CheckRunner.Format = round % 3 == 0 ? CheckRunner.Format(name: "jsonl")! : .json
            let expected = try Self.run(path, format: format, pieces: Self.whole)
            var pieces = BatchPipeline.Pieces(
                minimumFileBytes: 0, pieceBytes: Int.random(in: 1...200, using: &g),
                maximumPieceBytes: Int.random(in: 40...400, using: &g), workers: Int.random(in: 2...4, using: &g))
            let stats = Stats()
            pieces.report = { stats.set($0, $1) }
            let got = try Self.run(path, format: format, pieces: pieces)
            #expect(got == expected, """
                round \(round), \(pieces.pieceBytes) / \(pieces.maximumPieceBytes) bytes, \(pieces.workers) threads; file:
                \(String(decoding: bytes, as: UTF8.self).debugDescription)
                got:
                \(String(decoding: got.output, as: UTF8.self))
                \(got.problems) \(got.status)
                expected:
                \(String(decoding: expected.output, as: UTF8.self))
                \(expected.problems) \(expected.status)
                """)
            if got != expected { break }
            if !expected.problems.isEmpty { withProblems += 1 }
            if stats.written > 1 { pieced += 1 }
            if stats.restFrom != nil && stats.written > 0 { fellBack += 1 }
        }
        #expect(pieced > 0)
        // The cases this test is for: files read in several pieces, files whose later pieces
        // were read as one stream, files with errors.
        #expect(pieced > 150 && fellBack > 50 && withProblems > 30, "\(pieced) \(fellBack) \(withProblems)")
    }

    @Test("pieces in flight stay within their count, and their bytes within the budget and one piece, whatever the items' length")
    func inFlightIsBounded() throws {
        var g = DecisionServiceTests.Generator(state: 0xF11E)
        for (pieceBytes, padding) in [(64, 500), (64, 20), (512, 3_000), (4_096, 100)] {
            // Items of up to `padding` bytes of comment each: a piece is cut at the first item
            // after `pieceBytes`, so long items make pieces far larger than `pieceBytes`.
            var longest = 0
            var text = ""
            for _ in 0..<1_500 {
                let line = "- {from: [\(Int.random(in: 0...3, using: &g)), \(Int.random(in: 0...4, using: &g))], to: [\(Int.random(in: 0...3, using: &g)), 0]}  # "
                    + String(repeating: "x", count: Int.random(in: 0...padding, using: &g)) + "\n"
                longest = max(longest, line.utf8.count)
                text += line
            }
            let path = try Self.write(Array(text.utf8))
            defer { try? FileManager.default.removeItem(atPath: path) }
            var pieces = BatchPipeline.Pieces(minimumFileBytes: 0, pieceBytes: pieceBytes, maximumPieceBytes: 1 << 16, workers: 2)
            let stats = Stats(), most = Stats()
            pieces.report = { stats.set($0, $1) }
            pieces.inFlightReport = { most.set($0, $1) }
            let got = try Self.run(path, format: .json, pieces: pieces)
            #expect(got == (try Self.run(path, format: .json, pieces: Self.whole)))
            // Read in many pieces, several at once (else the bound says nothing).
            #expect(stats.written > 20 && stats.restFrom == nil && most.written >= 2, "\(stats.written) pieces, \(most.written) at once")
            // At most 2 × workers pieces; and bytes keep being read only while under the budget,
            // so at most one piece (the longest piece is at most `pieceBytes` and one item) past it.
            #expect(most.written <= pieces.inFlight)
            let mostBytes = most.restFrom ?? .max
            #expect(mostBytes < pieces.inFlightBytes + pieceBytes + longest, "\(mostBytes) bytes in flight, budget \(pieces.inFlightBytes)")
        }
    }

    /// The results and problems of the pieces path on a descriptor that cannot be read.
    static func piecesOn(_ descriptor: Int32) throws -> [Diagnostic] {
        let compiled = try PolicyLoader.compile(text: policy)
        var runner = CheckRunner(bound: compiled.bind(table), format: .json)
        let pieces = BatchPipeline.Pieces(minimumFileBytes: 0, pieceBytes: 64, maximumPieceBytes: 256, workers: 2)
        return BatchPipeline.runInPieces(descriptor: descriptor, path: "moves.yaml", runner: &runner, flush: { _ in }, flushLog: nil, pieces: pieces)
    }

    @Test("a file that cannot be read is unreadable, not broken YAML, in pieces and as one stream")
    func readErrorsAreUnreadable() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pieces-unreadable-\(getpid()).yaml").path
        defer { unlink(path) }
        try Array(repeating: "- {from: [0, 1], to: [0, 2]}\n", count: 40).joined().write(toFile: path, atomically: true, encoding: .utf8)
        // Opened for writing only: every read fails (EBADF), as an I/O error would.
        let writeOnly = open(path, O_WRONLY)
        try #require(writeOnly >= 0)
        defer { close(writeOnly) }
        let problems = try Self.piecesOn(writeOnly)
        #expect(problems.map(\.code) == [.unreadable], "\(problems)")
        #expect(problems.first?.message.hasPrefix("cannot read the file: ") == true, "\(problems)")
        // The same through the whole-file stream.
        var streamed: [MoveItem] = []
        let whole = MovesFile.stream(descriptor: writeOnly, path: path, from: nil, batchSize: 16) { batch in
            batch.forEach { streamed.append($0) }
        }
        #expect(whole.map(\.code) == [.unreadable] && streamed.isEmpty, "\(whole)")
    }
}
