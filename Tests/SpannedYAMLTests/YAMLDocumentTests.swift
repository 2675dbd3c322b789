import Testing
import SpannedYAML

/// One broken input and the diagnostic it must produce.
struct YAMLCase: CustomTestStringConvertible, Sendable {
    let name: String
    let text: String
    let code: DiagnosticCode
    let line: Int
    let column: Int
    var testDescription: String { name }
}

@Suite struct YAMLDocumentTests {
    static let cases: [YAMLCase] = [
        YAMLCase(name: "unclosed flow sequence", text: "a: [1, 2\nb: 3\n", code: .yamlSyntax, line: 2, column: 2),
        YAMLCase(name: "bad indentation", text: "a:\n  b: 1\n c: 2\n", code: .yamlSyntax, line: 3, column: 2),
        YAMLCase(name: "anchor", text: "a: &x 1\nb: 2\n", code: .yamlAlias, line: 1, column: 4),
        YAMLCase(name: "alias", text: "a: 1\nb: *x\n", code: .yamlAlias, line: 2, column: 4),
        YAMLCase(name: "custom tag", text: "a: !x 1\n", code: .yamlTag, line: 1, column: 4),
        YAMLCase(name: "second document", text: "a: 1\n---\nb: 2\n", code: .yamlMultiDocument, line: 2, column: 1),
        YAMLCase(name: "empty file", text: "", code: .yamlEmpty, line: 1, column: 1),
        YAMLCase(name: "only comments", text: "# nothing here\n", code: .yamlEmpty, line: 1, column: 1),
        YAMLCase(name: "duplicate key", text: "a: 1\nb: 2\na: 3\n", code: .duplicateKey, line: 3, column: 1),
        YAMLCase(name: "invalid UTF-8", text: "a: 1\nb: \u{FFFD}\n", code: .yamlSyntax, line: 2, column: 4),
        YAMLCase(name: "NUL byte", text: "a: 1\nbb: x\u{0}\n", code: .yamlSyntax, line: 2, column: 6),
    ]

    @Test(arguments: cases)
    func brokenInputIsLocated(_ c: YAMLCase) {
        var bytes = Array(c.text.utf8)
        if c.name == "invalid UTF-8" {
            // Replace the U+FFFD placeholder with a lone continuation byte.
            let placeholder: [UInt8] = [0xEF, 0xBF, 0xBD]
            if let r = bytes.firstRange(of: placeholder) { bytes.replaceSubrange(r, with: [0xFF]) }
        }
        let result = YAMLDocument.parse(bytes, file: "t.yaml")
        let d = result.diagnostics.first
        #expect(d?.code == c.code, "\(result.diagnostics)")
        #expect(d?.span.start.line == c.line)
        #expect(d?.span.start.column == c.column)
        #expect(d?.file == "t.yaml")
    }

    @Test func aliasToAnUndefinedAnchorAndADefinedOne() {
        // A defined anchor is reported at the anchor; its alias is reported too.
        let result = YAMLDocument.parse(Array("a: &x 1\nb: *x\n".utf8), file: "t.yaml")
        #expect(result.diagnostics.map(\.code) == [.yamlAlias, .yamlAlias])
        #expect(result.diagnostics[1].span.start.line == 2)
        #expect(result.root?.mapping?[1].value.isInvalid == true)
    }

    @Test func scalarsKeepTheirTextAndStyle() throws {
        let result = YAMLDocument.parse(Array("a: 010\nb: \"2\"\nc: yes\nd: 1.50\n".utf8), file: "t.yaml")
        let entries = try #require(result.root?.mapping)
        #expect(entries.map { $0.value.scalar } == ["010", "2", "yes", "1.50"])
        #expect(entries[0].value.scalarStyle == .plain)
        #expect(entries[1].value.scalarStyle == .doubleQuoted)
    }

    @Test func spansCoverWholeNodes() throws {
        let result = YAMLDocument.parse(Array("rules:\n  - pin: { first: 1 }\n".utf8), file: "t.yaml")
        let rules = try #require(result.root?.mapping?.first?.value.sequence)
        let item = rules[0]
        #expect(item.span.start == Mark(line: 2, column: 5, offset: 11))
        let flow = try #require(item.mapping?.first?.value)
        #expect(flow.span.start.column == 10)
        #expect(flow.span.end.column == 22)
    }

    @Test func nestingAtTheLimitIsAccepted() {
        let text = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        let result = YAMLDocument.parse(Array(text.utf8), file: "t.yaml")
        #expect(result.diagnostics.isEmpty)
        #expect(result.root != nil)
    }

    @Test func nestingPastTheLimitIsTooDeep() {
        let text = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        let result = YAMLDocument.parse(Array(text.utf8), file: "t.yaml")
        #expect(result.diagnostics.first?.code == .tooDeep)
        #expect(result.diagnostics.first?.span.start.column == 65)
        #expect(result.root == nil)
    }
}

/// Hostile files: each must end with a diagnostic, never a crash or a hang. How quickly is a
/// release size guard (Benchmarks/Sources/SizeGuards, "YAML: …": each within 1 s, the 200,000
/// keys within 5 s); here, the diagnostics, with a hang guard per test (the slowest, the
/// 200,000 keys, needs 1.1 s in a debug build, serial, 2026-11-29: the limit is over 50 times
/// that).
@Suite(.timeLimit(.minutes(10))) struct HostileInputTests {
    func parse(_ bytes: [UInt8]) -> YAMLDocument.Result {
        YAMLDocument.parse(bytes, file: "hostile.yaml")
    }

    @Test func billionLaughsIsRejectedBeforeExpansion() {
        var text = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        for level in 1...9 {
            let prev = String(UnicodeScalar(UInt8(96 + level)))
            let name = String(UnicodeScalar(UInt8(97 + level)))
            text += "\(name): &\(name) [" + Array(repeating: "*\(prev)", count: 9).joined(separator: ",") + "]\n"
        }
        let result = parse(Array(text.utf8))
        #expect(result.diagnostics.first?.code == .yamlAlias)
        #expect(result.diagnostics.first?.span.start.line == 1)
    }

    @Test func sixtyThousandNestedBracketsStopAtTheLimit() {
        let result = parse(Array(String(repeating: "[", count: 60_000).utf8))
        #expect(result.diagnostics.map(\.code) == [.tooDeep])
    }

    @Test func sixtyThousandNestedMappingsStopAtTheLimit() {
        let result = parse(Array(String(repeating: "{a: ", count: 60_000).utf8))
        #expect(result.diagnostics.map(\.code) == [.tooDeep])
    }

    @Test func oversizedInputIsRefusedWithoutParsing() {
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 9 * 1024 * 1024)
        let result = parse(bytes)
        #expect(result.diagnostics.map(\.code) == [.tooLarge])
    }

    @Test func invalidUTF8InTheMiddleOfALargeFile() {
        var bytes = Array(String(repeating: "k: v\n", count: 1000).utf8)
        bytes[2502] = 0xC3  // a lead byte followed by ASCII
        let result = parse(bytes)
        #expect(result.diagnostics.first?.code == .yamlSyntax)
        #expect(result.diagnostics.first?.span.start.line == 501)
        #expect(result.diagnostics.first?.message.contains("UTF-8") == true)
    }

    @Test func manyAnchorsAreCappedNotListedForever() {
        let text = (0..<10_000).map { "k\($0): &a\($0) v" }.joined(separator: "\n")
        let result = parse(Array(text.utf8))
        #expect(result.diagnostics.count <= 21)
        #expect(result.diagnostics.first?.code == .yamlAlias)
    }

    @Test func aMillionKeyMappingStaysLinear() {
        let text = (0..<200_000).map { "k\($0): v" }.joined(separator: "\n")
        let result = parse(Array(text.utf8))
        #expect(result.diagnostics.isEmpty)
        #expect(result.root?.mapping?.count == 200_000)
    }
}
