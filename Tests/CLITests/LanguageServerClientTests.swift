import Foundation
import Testing

/// `reorder-policy lsp` through real clients (docs/EDITORS.md): pytest-lsp, which checks every
/// message against the protocol's types (`lsprotocol`), and Neovim's built-in client. In CI a
/// client that is missing fails its test (`.ci/run` installs both); elsewhere it is skipped.
@Suite(.serialized) struct LanguageServerClientTests {
    /// Runs `arguments` from the package root with the CLI's path in `REORDER_POLICY_BIN`:
    /// the exit status and everything printed.
    private func run(_ arguments: [String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        p.currentDirectoryURL = CLI.packageRoot
        var env = ProcessInfo.processInfo.environment
        env["REORDER_POLICY_BIN"] = CLI.executable.path
        env["REORDER_POLICY_ROOT"] = CLI.packageRoot.path
        env["NO_COLOR"] = "1"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    private static var hasNeovim: Bool {
        ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/nvim") } ?? false
    }

    @Test(.enabled(if: CLI.python("pytest_lsp") || CLI.inCI, "needs PyPI's pytest-lsp (installed by .ci/run)"))
    func pytestLSPDrivesTheServer() throws {
        let (status, output) = try run(["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "Tests/LSPTests"])
        #expect(status == 0, "pytest-lsp:\n\(output)")
    }

    @Test(.enabled(if: Self.hasNeovim || CLI.inCI, "needs Debian's neovim (installed by .ci/run)"))
    func neovimReceivesTheDiagnostic() throws {
        let (status, output) = try run(["bash", "Tests/LSPTests/run_nvim.sh"])
        #expect(status == 0, "neovim:\n\(output)")
        #expect(output.contains("ok: unknown-key"), "neovim:\n\(output)")
    }
}
