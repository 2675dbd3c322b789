import Foundation
import ReorderPolicy
import SpannedYAML
import Testing

/// Lines end where libyaml ends them (LF, CR, CR LF, NEL, LS, PS), in the positions errors
/// name and in the lines their code frames show, read whole or read again from a file.
@Suite struct SourceLinesTests {
    static let bytes = Array("a\rb\r\nc\u{85}d\u{2028}e\u{2029}f\ng".utf8)

    @Test("every line break libyaml knows ends a line, read whole and as an excerpt of a file")
    func linesEndAsLibyamlEndsThem() throws {
        let lines = SourceLines(SourceFile(path: "x", bytes: Self.bytes))
        #expect((1...7).map { lines.line($0) } == ["a", "b", "c", "d", "e", "f", "g"])
        #expect(lines.line(8) == nil)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(getpid()).yaml").path
        try Data(Self.bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let excerpt = try #require(SourceFile.excerpt(path, lines: [2, 5, 7]))
        let read = SourceLines(excerpt)
        #expect([2, 5, 7].map { read.line($0) } == ["b", "e", "g"])
    }

    @Test("an unreadable byte in a moves file with CR line breaks is named at the line its frame shows")
    func readerErrorLineMatchesFrame() throws {
        var bytes = Array("- {from: [0, 0], to: [0, 1]}\r- {from: [0, 1], to: [0, 2]}\r- {from: [0, 2], to: ".utf8)
        bytes += [0xFF] + Array("[0, 3]}\r".utf8)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cr-moves-\(getpid()).yaml").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var items = 0
        let problems = try MovesFile.stream(path: path) { _ in items += 1 }
        let problem = try #require(problems.first)
        #expect(items == 2)
        #expect(problem.span.start.line == 3 && problem.span.start.column == 22)
        let frame = try #require(SourceFile.excerpt(path, lines: [3]).map(SourceLines.init))
        #expect(frame.line(3)?.hasPrefix("- {from: [0, 2], to: ") == true)
    }
}
