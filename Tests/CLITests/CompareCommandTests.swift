import Foundation
import Testing

/// `compare` through the built CLI (SPEC §11): witnesses replay through `check` with both
/// policies, `--base` reads a git revision, and the Markdown is read by a CommonMark parser.
@Suite struct CompareCommandTests {
    static let old = """
        reorder-policy: 1
        name: board
        rules:
          - pin: { first: 1 }
            id: header
          - keep-in-section: { kind: note }
            id: notes-stay
          - capacity: { section: Done, max: 3 }
            id: done-limit

        """
    /// The header becomes a lock, notes may leave, Done holds one card fewer.
    static let new = """
        reorder-policy: 1
        name: board
        rules:
          - lock: { first: 1 }
            id: header
          - capacity: { section: Done, max: 2 }
            id: done-limit

        """
    /// The old policy in other words: rules reordered, ids and messages renamed, a list.
    static let rewritten = """
        reorder-policy: 1
        name: board
        rules:
          - capacity: { section: [Done], max: 3 }
            message: three at most
          - keep-in-section: [{ kind: note }, { kind: note, tag: x }]
          - pin: { index: 0 }
            id: top

        """

    static func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func everyWitnessReplaysThroughCheck() throws {
        let oldPath = try CLI.scratch("compare-old.yaml", Self.old), newPath = try CLI.scratch("compare-new.yaml", Self.new)
        let result = try CLI.run(["compare", "--format", "json", oldPath, newPath])
        #expect(result.status == 1, "\(result.stderr)")
        let report = try Self.json(result.stdout)
        #expect(report["equivalent"] as? Bool == false)
        #expect(report["old"] as? String == oldPath && report["new"] as? String == newPath)
        let changes = try #require(report["changes"] as? [[String: Any]])
        #expect(changes.count >= 3, "\(changes.count) changes")
        var pairs = Set<String>()
        for (n, change) in changes.enumerated() {
            let table = try JSONSerialization.data(withJSONObject: try #require(change["table"]))
            let move = try JSONSerialization.data(withJSONObject: [try #require(change["move"])])
            let tablePath = try CLI.scratch("compare-table-\(n).json", String(decoding: table, as: UTF8.self))
            let movesPath = try CLI.scratch("compare-moves-\(n).json", String(decoding: move, as: UTF8.self))
            for (side, policy) in [("old", oldPath), ("new", newPath)] {
                let expected = try #require(change[side] as? [String: Any])
                let checked = try CLI.run(["check", "--policy", policy, "--table", tablePath, "--moves", movesPath, "--format", "json"])
                let got = try #require((try Self.json(checked.stdout))["results"] as? [[String: Any]]).first
                #expect(got?["decision"] as? String == expected["decision"] as? String, "change \(n) \(side)")
                #expect(String(describing: got?["target"] ?? "") == String(describing: expected["target"] ?? "-"), "change \(n) \(side)")
                let rules = { (r: [String: Any]?) in ((r?["violations"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String } }
                #expect(rules(got) == rules(expected), "change \(n) \(side)")
            }
            pairs.insert("\((change["old"] as? [String: Any])?["decision"] ?? "")→\((change["new"] as? [String: Any])?["decision"] ?? "")")
        }
        #expect(pairs.count == changes.count, "one change per pair of decision words: \(pairs)")
        #expect(pairs.contains("rejected→allowed"), "\(pairs)")
    }

    @Test func rewritesAreEquivalent() throws {
        let oldPath = try CLI.scratch("compare-old.yaml", Self.old), other = try CLI.scratch("compare-rewritten.yaml", Self.rewritten)
        let result = try CLI.run(["compare", "--format", "json", oldPath, other])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let report = try Self.json(result.stdout)
        #expect(report["equivalent"] as? Bool == true)
        #expect((report["changes"] as? [Any])?.isEmpty == true)
        let text = try CLI.run(["compare", oldPath, other])
        #expect(text.status == 0 && text.stdout.contains("equivalent"), "\(text.stdout)")
    }

    @Test func usageAndInputErrorsExitTwo() throws {
        let oldPath = try CLI.scratch("compare-old.yaml", Self.old)
        #expect(try CLI.run(["compare", oldPath]).status == 2)
        let broken = try CLI.scratch("compare-broken.yaml", "reorder-policy: 1\nname: x\nrules:\n  - pinn: all\n")
        let bad = try CLI.run(["compare", oldPath, broken])
        #expect(bad.status == 2 && bad.stderr.contains("unknown-key"), "\(bad.stderr)")
        // A machine format still gets one complete JSON document, with the located errors.
        let badJSON = try CLI.run(["compare", "--format", "json", oldPath, broken])
        #expect(badJSON.status == 2)
        let failure = try Self.json(badJSON.stdout)
        #expect(failure["status"] as? String == "error" && (failure["errors"] as? [[String: Any]])?.first?["code"] as? String == "unknown-key", "\(badJSON.stdout)")
        let missing = try CLI.run(["compare", oldPath, "/nonexistent/policy.yaml"])
        #expect(missing.status == 2 && !missing.stderr.isEmpty)
        let noRevision = try CLI.run(["compare", "--base", "no-such-revision-xyz", "policies"], in: try CLI.tree(["x.yaml": "a: 1\n"]))
        #expect(noRevision.status == 2 && noRevision.stderr.contains("no-such-revision-xyz"), "\(noRevision.stderr)")
    }

    /// A repository with a changed, a removed, an added and an unchanged policy, and a table file.
    static func repository() throws -> URL {
        let root = try CLI.tree([
            "policies/board.yaml": Self.old,
            "policies/gone.yaml": "reorder-policy: 1\nname: gone\nrules: []\n",
            "policies/same.yaml": "reorder-policy: 1\nname: same\nrules:\n  - lock: all\n",
            "policies/tables/t.yaml": "sections:\n  - rows: [a, b]\n",
        ])
        func git(_ args: [String]) throws {
            let r = try CLI.program(["git", "-c", "user.name=t", "-c", "user.email=t@example.com"] + args, in: root)
            #expect(r.status == 0, "git \(args): \(r.output)")
        }
        try git(["init", "-q"])
        try git(["add", "."])
        try git(["commit", "-qm", "policies"])
        try Self.new.write(to: root.appendingPathComponent("policies/board.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: root.appendingPathComponent("policies/gone.yaml"))
        try "reorder-policy: 1\nname: fresh\nrules: []\n".write(to: root.appendingPathComponent("policies/fresh.yaml"), atomically: true, encoding: .utf8)
        return root
    }

    @Test func baseComparesEachPolicyWithItsVersionAtARevision() throws {
        let root = try Self.repository()
        let result = try CLI.run(["compare", "--base", "HEAD", "--format", "json", "policies"], in: root)
        #expect(result.status == 1, "\(result.stderr)")
        let comparisons = try #require((try Self.json(result.stdout))["comparisons"] as? [[String: Any]])
        var byFile: [String: [String: Any]] = [:]
        for c in comparisons { byFile[(c["new"] as? String) ?? (c["old"] as? String) ?? ""] = c }
        #expect(Set(byFile.keys) == ["policies/board.yaml", "policies/fresh.yaml", "HEAD:policies/gone.yaml", "policies/same.yaml"], "\(byFile.keys.sorted())")
        #expect(byFile["policies/board.yaml"]?["old"] as? String == "HEAD:policies/board.yaml")
        #expect(byFile["policies/board.yaml"]?["equivalent"] as? Bool == false)
        #expect(((byFile["policies/board.yaml"]?["changes"] as? [Any]) ?? []).count >= 3)
        #expect(byFile["policies/same.yaml"]?["equivalent"] as? Bool == true)
        #expect(byFile["policies/fresh.yaml"]?["status"] as? String == "added")
        #expect(byFile["HEAD:policies/gone.yaml"]?["status"] as? String == "removed")
        // Unchanged files alone: everything equivalent, exit 0.
        let same = try CLI.run(["compare", "--base", "HEAD", "policies/same.yaml"], in: root)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        // GitHub annotations: workflow commands only, at the new file's changed rules.
        let github = try CLI.run(["compare", "--base", "HEAD", "--format", "github", "policies"], in: root)
        let lines = github.stdout.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("::notice") }, "\(github.stdout)")
        #expect(lines.contains { $0.contains("file=policies/board.yaml,line=6,") }, "the smaller capacity at line 6: \(github.stdout)")
    }

    /// `compare --base HEAD~1 policies` in this repository (a fresh clone has the history).
    @Test func baseWorksOnThisRepository() throws {
        guard try CLI.program(["git", "rev-parse", "--verify", "--quiet", "HEAD~1"]).status == 0 else {
            #expect(!CLI.inCI, "CI clones the repository with its history")
            return
        }
        let result = try CLI.run(["compare", "--base", "HEAD~1", "policies"])
        #expect(result.status == 0 || result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("summary:"), "\(result.stdout)")
    }

    @Test(.enabled(if: CLI.python("markdown_it") || CLI.inCI, "needs PyPI's markdown-it-py (installed by .ci/run)"))
    func markdownIsReadAsCommonMarkExpects() throws {
        let root = try Self.repository()
        let markdown = try CLI.run(["compare", "--base", "HEAD", "--format", "markdown", "policies"], in: root).stdout
        let (status, output) = try CLI.runPython("""
            import sys
            from markdown_it import MarkdownIt
            md = MarkdownIt('commonmark').enable('table')
            tokens = md.parse(sys.stdin.read())
            types = [t.type for t in tokens]
            assert 'table_open' in types, types
            headers = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == 'th_open']
            assert headers[:3] == ['Policy', 'Result', 'Changes'], headers
            rows = sum(1 for t in tokens if t.type == 'tr_open')
            html = [t.content for t in tokens if t.type == 'html_block']
            assert any('<details>' in h and '<summary>' in h for h in html), html
            fences = [t for t in tokens if t.type == 'fence']
            assert fences and all(f.info == 'yaml' for f in fences), [f.info for f in fences]
            print('ok', rows, len(fences))
            """, input: markdown)
        #expect(status == 0, "\(output)\n\(markdown)")
        #expect(output.hasPrefix("ok"), "\(output)")
    }
}
