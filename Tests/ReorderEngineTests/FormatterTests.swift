import Testing
import Foundation
import ReorderEngine
import ReorderPolicy

/// `fmt` on random policies laid out at random (indentation, spacing, comments, blank lines):
/// the result loads to the same policy, formatting it again changes nothing, and every
/// comment of the input is in the output, in order.
@Suite struct FormatterTests {
    /// A random, valid but untidy layout of `text` (PolicyWriter's canonical YAML), with comments.
    static func untidy(_ text: String, _ gen: inout RandomPolicies) -> (text: String, comments: [String]) {
        // Every indented line moves right by the same amount: another indentation, same structure.
        let extra = gen.pick([0, 1, 2, 3, 6])
        var out: [String] = [], comments: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var l = String(line)
            if l.hasPrefix(" ") { l = String(repeating: " ", count: extra) + l }
            // Spacing inside flow collections.
            if gen.chance(0.5) { l = l.replacingOccurrences(of: "{ ", with: "{").replacingOccurrences(of: " }", with: "}") }
            if gen.chance(0.3) { l = l.replacingOccurrences(of: ", ", with: " ,  ") }
            if gen.chance(0.3) { l = l.replacingOccurrences(of: "[", with: "[ ").replacingOccurrences(of: "]", with: " ]") }
            if gen.chance(0.2) { l += "   " }
            // In the order they stand in the text: a comment on its own line, then the line's own.
            if gen.chance(0.15) {
                let c = "#own line \(comments.count)"
                comments.append(c)
                out.append(String(repeating: " ", count: gen.int(0...6)) + c)
            }
            if gen.chance(0.2), !l.trimmingCharacters(in: .whitespaces).isEmpty {
                let c = "# note \(comments.count) # with a hash"
                comments.append(c)
                // At a random column, so runs of trailing comments are sometimes aligned, sometimes not.
                l += String(repeating: " ", count: gen.int(1...12)) + c
            }
            if gen.chance(0.1) { out.append(contentsOf: Array(repeating: "", count: gen.int(1...3))) }
            out.append(l)
        }
        return (out.joined(separator: "\n"), comments)
    }

    /// The policy without source locations (formatting moves lines).
    static func unlocated(_ p: Policy) -> Policy {
        var p = p
        for i in p.rules.indices { p.rules[i].metadata.location = nil }
        for i in p.sectionRules.indices { p.sectionRules[i].metadata.location = nil }
        return p
    }

    @Test(arguments: 0..<4)
    func randomPoliciesKeepTheirMeaningAndComments(chunk: Int) throws {
        var gen = RandomPolicies(seed: 0xF0F0 + UInt64(chunk))
        var formattedCount = 0
        for _ in 0..<250 {
            let policy = gen.policy()
            let (text, comments) = Self.untidy(PolicyWriter.yaml(policy), &gen)
            let before = PolicyLoader.load(text: text, path: "r.yaml")
            guard let expected = before.policy else { continue }  // an untidy layout that YAML reads otherwise
            let result = YAMLFormatter.format(SourceFile(path: "r.yaml", text: text))
            let formatted = try #require(result.text, "\(result.diagnostics.map(\.message))\n\(text)")
            formattedCount += 1
            let after = PolicyLoader.load(text: formatted, path: "r.yaml")
            #expect(after.policy.map(Self.unlocated) == Self.unlocated(expected), "\(text)\n---\n\(formatted)")
            // Idempotent.
            #expect(YAMLFormatter.format(SourceFile(path: "r.yaml", text: formatted)).text == formatted, "\(formatted)")
            // Every comment, in order.
            var rest = formatted[...]
            for c in comments {
                guard let r = rest.range(of: c) else {
                    Issue.record("lost '\(c)'\n\(text)\n---\n\(formatted)")
                    return
                }
                rest = rest[r.upperBound...]
            }
            // Canonical: no tabs or trailing spaces, two-space steps, one newline at the end.
            #expect(!formatted.contains(" \n") && formatted.hasSuffix("\n") && !formatted.hasSuffix("\n\n"))
            if after.policy.map(Self.unlocated) != Self.unlocated(expected) { return }
        }
        #expect(formattedCount > 200)
    }

    @Test func everyBundledFileIsFormattedAlready() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var files = Linter.policyFiles(under: root.appendingPathComponent("policies").path)
        files += Linter.policyFiles(under: root.appendingPathComponent("docs").path)
        #expect(files.count >= 13)
        for file in files {
            let source = try SourceFile.read(file)
            let result = YAMLFormatter.format(source)
            #expect(result.text == String(decoding: source.bytes, as: UTF8.self), "\(file) is not formatted: run reorder-policy fmt -w \(file)")
        }
    }

    @Test("layout details", arguments: [
        ("---\na:   1\n...\n", "a: 1\n"),
        ("a:\n    - x\n    -   y\n", "a:\n  - x\n  - y\n"),
        ("a: {b: [1,2], c: {}}\n", "a: { b: [1, 2], c: {} }\n"),
        ("a: 1\n\n\n\nb: 2\n", "a: 1\n\nb: 2\n"),
        ("a: 1    # c\n", "a: 1 # c\n"),
        ("a: |\n      x\n       y\nb: 1\n", "a: |\n      x\n       y\nb: 1\n"),
        ("l:\n- a: 1\n  b: 2\n", "l:\n  - a: 1\n    b: 2\n"),
        ("a: [x, # c\n  y]\n", "a: [x, # c\n  y]\n"),
        ("a: \"x # y\"\n", "a: \"x # y\"\n"),
        ("a:\n", "a:\n"),
        ("a: ''\n", "a: ''\n"),
    ])
    func layout(_ input: String, _ expected: String) throws {
        let result = YAMLFormatter.format(SourceFile(path: "t.yaml", text: input))
        #expect(result.text == expected, "\(result.diagnostics.map(\.message))")
        #expect(YAMLFormatter.format(SourceFile(path: "t.yaml", text: expected)).text == expected, "not idempotent")
    }

    @Test("trailing comments on consecutive lines line up: at the author's column when they shared one, else one space past the longest code", arguments: [
        // Aligned by the author: kept at that column.
        ("a: 1      # one\nbb: 2     # two\n", "a: 1      # one\nbb: 2     # two\n"),
        // Not aligned: one space past the longest code of the run.
        ("a: 1 # one\nbbb: 22 # two\n", "a: 1    # one\nbbb: 22 # two\n"),
        ("a: 1   # one\nbbb: 22   # two\nc: 3 # three\n", "a: 1    # one\nbbb: 22 # two\nc: 3    # three\n"),
        // Re-indented code keeps the author's column.
        ("l:\n    - x     # one\n    - yy    # two\n", "l:\n  - x       # one\n  - yy      # two\n"),
        // The author's column no longer clears the code (a flow mapping gained spaces): past the longest.
        ("a: {x: 1} # one\nb: 2      # two\n", "a: { x: 1 } # one\nb: 2        # two\n"),
        // A blank line, a comment line or a line without a comment ends a run; a lone comment gets one space.
        ("a: 1 # one\n\nbbb: 22 # two\n", "a: 1 # one\n\nbbb: 22 # two\n"),
        ("a: 1      # one\n# own line\nbbb: 22   # two\n", "a: 1 # one\n# own line\nbbb: 22 # two\n"),
        ("a: 1 # one\nbbb: 22\nc: 3   # three\n", "a: 1 # one\nbbb: 22\nc: 3 # three\n"),
        // A rule's keys under a sequence item, as policies are written.
        ("rules:\n  - pin: {first: 1}  # the status row\n    id: status-row    # named for the tests\n",
         "rules:\n  - pin: { first: 1 } # the status row\n    id: status-row    # named for the tests\n"),
    ])
    func trailingCommentsLineUp(_ input: String, _ expected: String) throws {
        let result = YAMLFormatter.format(SourceFile(path: "t.yaml", text: input))
        #expect(result.text == expected, "\(result.diagnostics.map(\.message))")
        #expect(YAMLFormatter.format(SourceFile(path: "t.yaml", text: expected)).text == expected, "not idempotent")
    }

    @Test("files that are not valid YAML are reported, not formatted", arguments: ["# only a comment\n", "a: [1\n", "a: &x 1\nb: *x\n", "a: 1\na: 2\n"])
    func broken(_ input: String) {
        let result = YAMLFormatter.format(SourceFile(path: "t.yaml", text: input))
        #expect(result.text == nil && !result.diagnostics.isEmpty)
    }
}
