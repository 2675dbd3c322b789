import ArgumentParser
import ReorderPolicy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `reorder-policy` command: lint, test, check and explain reorder policies.
@main
struct ReorderPolicyCommand: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "reorder-policy",
        abstract: "Declarative drag-and-drop reordering rules: lint policies, run their tests, decide and explain moves.",
        version: version,
        subcommands: [Lint.self, Test.self, Check.self, Explain.self, Diff.self, Compare.self, Fmt.self, Schema.self, Lsp.self]
    )

    /// Usage errors exit with status 2 (SPEC §5), not ArgumentParser's default 64.
    static func main() {
        // A closed stdout (`| head -1`) must not kill the process before the decision log is
        // written: writes then fail with EPIPE, and FileOutput stops writing.
        signal(SIGPIPE, SIG_IGN)
        // A file-size limit (`ulimit -f`) makes a log write fail with EFBIG instead of killing us.
        signal(SIGXFSZ, SIG_IGN)
        // No command is a usage error (SPEC §5: 2 usage): the help goes to standard error.
        if CommandLine.arguments.count == 1 {
            FileOutput.standardError(helpMessage() + "\n")
            terminate(2)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            terminate(code.rawValue)
        } catch {
            let status = exitCode(for: error)
            if status == .success {
                self.exit(withError: error)  // help or version
            }
            let message = fullMessage(for: error)
            FileOutput.standardError(message + "\n")
            terminate(2)
        }
    }
}

/// Ends the process with `status` (the C library's `exit`, named apart from ArgumentParser's).
func terminate(_ status: Int32) -> Never {
    #if canImport(Glibc)
    Glibc.exit(status)
    #else
    Darwin.exit(status)
    #endif
}

