import ArgumentParser
import ReorderPolicy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        let compiled: CompiledPolicy
        do {
            compiled = try document.compile()
        } catch {
            for d in error.diagnostics { FileOutput.standardError(DiagnosticRenderer.text(d, source: document.source, style: style) + "\n\n") }
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
