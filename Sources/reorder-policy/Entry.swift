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
        subcommands: [Lint.self, Test.self, Check.self, Explain.self, Diff.self, Schema.self]
    )

    /// Usage errors exit with status 2 (SPEC §5), not ArgumentParser's default 64.
    static func main() {
        // A closed stdout (`| head -1`) must not kill the process before the decision log is
        // written: writes then fail with EPIPE, and FileOutput stops writing.
        signal(SIGPIPE, SIG_IGN)
        // A file-size limit (`ulimit -f`) makes a log write fail with EFBIG instead of killing us.
        signal(SIGXFSZ, SIG_IGN)
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

/// Writing to standard output and error without buffering surprises.
enum FileOutput {
    static func standardOutput(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { standardOutput($0) }
    }

    static func standardOutput(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard !standardOutputClosed else { return }
        var offset = 0
        while offset < buffer.count {
            let n = write(1, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                standardOutputClosed = true  // EPIPE: the reader is gone; the work goes on
                return
            }
            offset += n
        }
    }

    /// Set once stdout's reader has gone away (only the one thread writing stdout touches it).
    nonisolated(unsafe) static var standardOutputClosed = false

    static func standardOutput(_ text: String) { standardOutput(Array(text.utf8)) }

    static func standardError(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
    }
}

/// Options shared by `check` and `explain`: which policy, which table, which move.
struct MoveOptions: ParsableArguments {
    @Option(help: "The policy file.")
    var policy: String

    @Option(help: "The table file.")
    var table: String

    @Option(help: "The source row, as section.row (e.g. 0.4).")
    var from: String?

    @Option(help: "The destination row, as section.row, counted after the row is removed.")
    var to: String?

    @Option(name: .customLong("section-from"), help: "The section to move.")
    var sectionFrom: Int?

    @Option(name: .customLong("section-to"), help: "Where the section should end up.")
    var sectionTo: Int?

    /// The single move given by flags, or nil when none of the move flags is used.
    func singleMove() throws -> Move? {
        switch (from, to, sectionFrom, sectionTo) {
        case (nil, nil, nil, nil): return nil
        case (let f?, let t?, nil, nil):
            return .row(from: try Self.position(f, "--from"), to: try Self.position(t, "--to"))
        case (nil, nil, let a?, let b?):
            return .section(from: a, to: b)
        default:
            throw ValidationError("give --from and --to together, or --section-from and --section-to together")
        }
    }

    static func position(_ text: String, _ flag: String) throws -> Position {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let s = Int(parts[0]), let r = Int(parts[1]) else {
            throw ValidationError("\(flag) expects section.row, such as 0.4; found '\(text)'")
        }
        return Position(section: s, row: r)
    }
}

/// Loads the policy and table for `check` and `explain`, printing diagnostics and exiting 2 on errors.
struct Inputs {
    let document: PolicyDocument
    let bound: BoundPolicy
    let tableSource: SourceFile?

    init(policyPath: String, tablePath: String) throws {
        let style = TerminalStyle.forStandardError()
        let document: PolicyDocument
        do {
            document = try PolicyLoader.load(path: policyPath)
        } catch {
            FileOutput.standardError(DiagnosticRenderer.text(error.diagnostic, source: nil, style: style) + "\n")
            throw ExitCode(2)
        }
        guard let compiled = document.compiled() else {
            for d in document.diagnostics { FileOutput.standardError(DiagnosticRenderer.text(d, source: document.source, style: style) + "\n\n") }
            FileOutput.standardError("the policy has errors; run 'reorder-policy lint \(policyPath)'\n")
            throw ExitCode(2)
        }
        let (table, source, diagnostics) = TableLoader.load(path: tablePath)
        guard let table else {
            for d in diagnostics { FileOutput.standardError(DiagnosticRenderer.text(d, source: source, style: style) + "\n\n") }
            throw ExitCode(2)
        }
        self.document = document
        self.tableSource = source
        self.bound = compiled.bind(table)
    }
}

extension TerminalStyle {
    static func forStandardError() -> TerminalStyle {
        TerminalStyle(enabled: isatty(2) == 1 && getenv("NO_COLOR") == nil)
    }
}
