import ArgumentParser
import PolicyLanguageServer

struct Lsp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Run the language server (LSP 3.17 over standard input and output) for editors.",
        discussion: """
            Diagnostics as you type (the same as lint, the analysis and the project's .reorder-policy.yml \
            included), hover, completion, formatting (fmt), document symbols, go to definition and quick fixes. \
            Editors start it themselves: docs/EDITORS.md shows Neovim, Helix, VS Code and Zed.

            Exit status: 0 after 'shutdown' and 'exit', 1 when the input ends first.
            """
    )

    func run() throws {
        throw ExitCode(LanguageServer.serveStandardIO(version: ReorderPolicyCommand.version))
    }
}
