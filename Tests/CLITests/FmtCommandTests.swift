import Foundation
import Testing

/// `fmt` as CI and editors use it: --check with a diff that `patch` applies, -w, -l, stdin,
/// directories, broken and unreadable files.
@Suite struct FmtCommandTests {
    static let untidy = """
        # a comment that stays
        reorder-policy:   1
        name: tidy-me
        rules:
            - pin: {first: 1}   # the status row
              id: status-row


        """
    static let tidy = """
        # a comment that stays
        reorder-policy: 1
        name: tidy-me
        rules:
          - pin: { first: 1 } # the status row
            id: status-row

        """

    @Test func checkPrintsADiffThatPatchApplies() throws {
        let root = try CLI.tree(["p.yaml": Self.untidy, "tidy.yaml": Self.tidy])
        let result = try CLI.run(["fmt", "--check", "p.yaml", "tidy.yaml"], in: root)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("--- p.yaml (as written)\n+++ p.yaml (formatted)\n@@ -1,7 +1,6 @@\n"), "\(result.stdout)")
        #expect(result.stderr.contains("2 files: 1 would reformat, 0 with errors"))
        // The file is unchanged, and the diff turns it into the formatted text.
        #expect(try String(contentsOf: root.appendingPathComponent("p.yaml"), encoding: .utf8) == Self.untidy)
        let patch = Process()
        patch.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        patch.arguments = ["patch", "--quiet", "-o", "patched.yaml", "p.yaml"]
        patch.currentDirectoryURL = root
        let input = Pipe()
        patch.standardInput = input
        try patch.run()
        input.fileHandleForWriting.write(Data(result.stdout.utf8))
        try input.fileHandleForWriting.close()
        patch.waitUntilExit()
        #expect(patch.terminationStatus == 0)
        #expect(try String(contentsOf: root.appendingPathComponent("patched.yaml"), encoding: .utf8) == Self.tidy)
        // A formatted file passes.
        #expect(try CLI.run(["fmt", "--check", "tidy.yaml"], in: root).status == 0)
    }

    @Test func writeListAndStdin() throws {
        let root = try CLI.tree(["p.yaml": Self.untidy, "tidy.yaml": Self.tidy])
        let path = root.appendingPathComponent("p.yaml").path
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        let list = try CLI.run(["fmt", "-l", "p.yaml", "tidy.yaml"], in: root)
        #expect(list.status == 0 && list.stdout == "p.yaml\n")
        #expect(try CLI.run(["fmt", "-l", "--fail", "p.yaml"], in: root).status == 1)
        // -d shows the diff and changes nothing, without failing.
        let diff = try CLI.run(["fmt", "-d", "p.yaml"], in: root)
        #expect(diff.status == 0 && diff.stdout.contains("+  - pin: { first: 1 } # the status row"), "\(diff.stdout)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.untidy)
        let write = try CLI.run(["fmt", "-w", "p.yaml"], in: root)
        #expect(write.status == 0 && write.stderr.contains("1 reformatted"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.tidy)
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o640)
        // Formatting twice changes nothing.
        #expect(try CLI.run(["fmt", "--check", "p.yaml"], in: root).status == 0)
        let piped = try CLI.run(["fmt", "-"], input: Self.untidy)
        #expect(piped.status == 0 && piped.stdout == Self.tidy)
    }

    @Test func directoriesTakePoliciesAndTheConfigsExcludes() throws {
        let root = try CLI.tree([
            "policies/p.yaml": Self.untidy, "policies/table.yaml": "sections:\n    - rows: [a]\n",
            "fixtures/broken.yaml": "reorder-policy: 1\nname: [x\n", ".reorder-policy.yml": "exclude: fixtures/\n",
        ])
        let result = try CLI.run(["fmt", "-l", "."], in: root)
        #expect(result.status == 0)
        #expect(result.stdout == "./policies/p.yaml\n", "tables found in a directory are not policy files: \(result.stdout)")
        // Named explicitly, a table is formatted too, and the excluded broken file is reported.
        #expect(try CLI.run(["fmt", "-l", "policies/table.yaml"], in: root).stdout == "policies/table.yaml\n")
        let broken = try CLI.run(["fmt", "--check", "fixtures/broken.yaml"], in: root)
        #expect(broken.status == 1 && broken.stderr.contains("error[yaml-syntax]"), "\(broken.stderr)")
        let missing = try CLI.run(["fmt", "--check", "nope.yaml"], in: root)
        #expect(missing.status == 2 && missing.stderr.contains("error[unreadable]"))
        #expect(try CLI.run(["fmt", "--check", "-w", "policies/p.yaml"], in: root).status == 2)
    }

    @Test func theBundledPoliciesAreFormatted() throws {
        let result = try CLI.run(["fmt", "--check", "policies", "policies/tables/inbox.yaml"])
        #expect(result.status == 0, "\(result.stdout)")
    }

    @Test("hand-aligned trailing comments pass fmt --check; unaligned ones are lined up")
    func alignedTrailingComments() throws {
        let aligned = "reorder-policy: 1\nname: t\nrules:\n  - pin: { first: 1 }   # the status row\n    id: status-row      # named in the tests\n"
        let ragged = "reorder-policy: 1\nname: t\nrules:\n  - pin: { first: 1 } # the status row\n    id: status-row # named in the tests\n"
        let root = try CLI.tree(["aligned.yaml": aligned, "ragged.yaml": ragged])
        let check = try CLI.run(["fmt", "--check", "aligned.yaml"], in: root)
        #expect(check.status == 0, "\(check.stdout)")
        let fixed = try CLI.run(["fmt", "ragged.yaml"], in: root)
        #expect(fixed.stdout == "reorder-policy: 1\nname: t\nrules:\n  - pin: { first: 1 } # the status row\n    id: status-row    # named in the tests\n")
    }
}
