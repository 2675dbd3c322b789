import Foundation
import Testing
@testable import SpannedYAML

/// A UTF-8 byte order mark may open any file (editors on Windows write one). It is not part
/// of the text: a file with one reads as the same file without it, and every position in it
/// is where an editor shows it. With the encoding set, libyaml read the mark as a character
/// of the first line, so a policy's second top-level key was a `yaml-syntax` error.
@Suite struct ByteOrderMarkTests {
    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    @Test func aFileWithAMarkReadsAsTheFileWithout() throws {
        let text = Array("reorder-policy: 1\nname: p\nrules: []\n".utf8)
        let plain = YAMLDocument.parse(text, file: "t.yaml")
        let marked = YAMLDocument.parse(Self.bom + text, file: "t.yaml")
        #expect(marked.diagnostics.isEmpty, "\(marked.diagnostics)")
        let entries = try #require(marked.root?.mapping)
        #expect(entries.map(\.name) == ["reorder-policy", "name", "rules"])
        #expect(marked.root?.span == plain.root?.span)
        #expect(entries[0].key.span.start == Mark(line: 1, column: 1, offset: 0))
    }

    /// Every broken input of ``YAMLDocumentTests`` is located at the same line and column
    /// with a mark in front, reader errors (counted from a byte offset) included.
    @Test(arguments: YAMLDocumentTests.cases.filter { $0.name != "empty file" && $0.name != "only comments" })
    func brokenInputIsLocatedAsWithoutTheMark(_ c: YAMLCase) {
        var bytes = Array(c.text.utf8)
        if c.name == "invalid UTF-8", let r = bytes.firstRange(of: [0xEF, 0xBF, 0xBD] as [UInt8]) {
            bytes.replaceSubrange(r, with: [0xFF])
        }
        let d = YAMLDocument.parse(Self.bom + bytes, file: "t.yaml").diagnostics.first
        #expect(d?.code == c.code)
        #expect(d?.span.start.line == c.line)
        #expect(d?.span.start.column == c.column)
    }

    @Test func aMarkAloneIsAnEmptyFile() {
        #expect(YAMLDocument.parse(Self.bom, file: "t.yaml").diagnostics.map(\.code) == [.yamlEmpty])
    }

    /// The same through a descriptor (moves files are streamed): events and positions as
    /// without the mark, and a reader error found by reading the file again counts from
    /// after the mark.
    @Test(arguments: [
        ("- {from: [0, 0], to: [0, 1]}\n- {section-from: 1, section-to: 0}\n", nil as (Int, Int)?),
        ("- {from: [0, 0], to: [0, 1]}\n- x\u{FFFD}\n", (2, 4)),
        ("a: 1\nb: [x\n", (3, 1)),
    ])
    func aStreamedFileSkipsTheMark(_ text: String, _ error: (line: Int, column: Int)?) throws {
        var bytes = Array(text.utf8)
        if let r = bytes.firstRange(of: [0xEF, 0xBF, 0xBD] as [UInt8]) { bytes.replaceSubrange(r, with: [0xFF]) }
        let plain = try Self.events(bytes)
        let marked = try Self.events(Self.bom + bytes)
        #expect(marked.events == plain.events)
        #expect(marked.diagnostics.map(\.span) == plain.diagnostics.map(\.span))
        if let error {
            let d = try #require(marked.diagnostics.first)
            #expect(d.span.start.line == error.line && d.span.start.column == error.column, "\(d)")
        } else {
            #expect(marked.diagnostics.isEmpty)
        }
    }

    /// Every event of `bytes` written to a file and read through its descriptor.
    static func events(_ bytes: [UInt8]) throws -> (events: [YAMLEvent], diagnostics: [Diagnostic]) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bom-\(UUID().uuidString).yaml")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = open(url.path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let stream = YAMLEventStream(descriptor: fd, file: "t.yaml", upToUnreadable: true)
        var events: [YAMLEvent] = []
        while let event = try? stream.next() {
            events.append(event)
            if case .streamEnd = event { break }
        }
        stream.stopAtUnreadable()
        return (events, stream.diagnostics)
    }
}
