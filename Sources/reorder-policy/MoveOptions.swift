import SpannedYAML
import ArgumentParser
import ReorderPolicy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Options shared by `check` and `explain`: which policy, which table, which move.
struct MoveOptions: ParsableArguments {
    @Option(help: "The policy file ('-' reads standard input).")
    var policy: String

    @Option(help: "The table file ('-' reads standard input).")
    var table: String

    // `.unconditional`: `--from -1.0` is a value (an out-of-range move, reported as such), not a flag.
    @Option(parsing: .unconditional, help: "The source row, as section.row (e.g. 0.4).")
    var from: String?

    @Option(parsing: .unconditional, help: "The destination row, as section.row, counted after the row is removed.")
    var to: String?

    @Option(name: .customLong("section-from"), parsing: .unconditional, help: "The section to move.")
    var sectionFrom: Int?

    @Option(name: .customLong("section-to"), parsing: .unconditional, help: "Where the section should end up.")
    var sectionTo: Int?

    func validate() throws {
        try Self.oneStandardInput(["--policy": policy, "--table": table])
    }

    /// Standard input can be read once: at most one of the inputs may be `-`.
    static func oneStandardInput(_ inputs: KeyValuePairs<String, String?>) throws {
        let fromStdin = inputs.filter { $0.value == "-" }.map(\.key)
        if fromStdin.count > 1 {
            throw ValidationError("\(fromStdin.joined(separator: " and ")) both read standard input ('-'); it can be read only once: give files for all but one")
        }
    }

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
            let numeric = parts.count == 2 && parts.allSatisfy { part in
                let digits = part.hasPrefix("-") ? part.dropFirst() : part
                return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
            }
            if numeric {
                throw ValidationError("\(flag): '\(text)' is too large; a section and a row are integers up to \(Int.max)")
            }
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

    /// Loads and binds; on errors prints them (text on standard error; with a machine format
    /// also one complete JSON document on standard output) and exits 2.
    init(policyPath: String, tablePath: String, format: CheckRunner.Format = .text) throws {
        let style = TerminalStyle.standardError
        func fail(_ diagnostics: [Diagnostic], policy: String?, source: SourceFile?, hint: String? = nil) -> ExitCode {
            for d in diagnostics { FileOutput.standardError(DiagnosticRenderer.text(d, source: source, style: style) + "\n\n") }
            if let hint { FileOutput.standardError(hint + "\n") }
            if let document = format.inputFailure(policy: policy, errors: diagnostics) { FileOutput.standardOutput(document) }
            return ExitCode(2)
        }
        let document: PolicyDocument
        do {
            document = try PolicyLoader.load(path: policyPath)
        } catch {
            throw fail([error.diagnostic], policy: nil, source: nil)
        }
        let compiled: CompiledPolicy
        do {
            compiled = try document.compile()
        } catch {
            // A table given as the policy (the two flags swapped) gets said so.
            let looksLikeTable = !document.declaresPolicy
                && String(decoding: document.source.bytes, as: UTF8.self).contains("sections")
            throw fail(error.diagnostics, policy: document.policy?.name, source: document.source,
                       hint: looksLikeTable
                           ? "hint: '\(policyPath)' looks like a table file (it has 'sections', not 'reorder-policy'); pass tables with --table"
                           : "the policy has errors; run 'reorder-policy lint \(policyPath)'")
        }
        let (table, source, diagnostics) = TableLoader.load(path: tablePath)
        guard let table else {
            throw fail(diagnostics, policy: compiled.policy.name, source: source)
        }
        self.document = document
        self.tableSource = source
        self.bound = compiled.bind(table)
    }
}

/// `--color`, shared by the commands that write text for people.
struct ColorOption: ParsableArguments {
    @Option(help: "Colour: auto (a terminal, unless NO_COLOR is set or TERM=dumb), always or never.")
    var color: TerminalStyle.Choice = .auto

    /// Makes the choice the process's for the rest of the run.
    func apply() { ColorSetting.choice = color }
}

/// The colour choice of this run (set once, from `--color`, before any output).
enum ColorSetting {
    nonisolated(unsafe) static var choice: TerminalStyle.Choice = .auto
}

extension TerminalStyle.Choice: ExpressibleByArgument {}

extension TerminalStyle {
    /// Standard output's style under this run's `--color`.
    static var standardOutput: TerminalStyle { .forStandardOutput(ColorSetting.choice) }
    /// Standard error's style under this run's `--color`.
    static var standardError: TerminalStyle { .forStandardError(ColorSetting.choice) }
}
