import SpannedYAML
import ArgumentParser
import Foundation
import ReorderPolicy

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decide moves: one given by flags, or a batch from a moves file.",
        discussion: "Exit status: 0 when every move is allowed, 1 for any other decision, 2 for input errors (and invalid moves)."
    )

    @OptionGroup var options: MoveOptions

    @Option(help: "A YAML or JSON list of moves to decide ('-' reads standard input).")
    var moves: String?

    @Option(help: "Output format\(CheckRunner.Format.help).")
    var format: CheckRunner.Format = .text

    @OptionGroup var colorOption: ColorOption

    @Option(help: "Append a JSON line per decision (policy, hash, move, decision, target, rules, time) to this file.")
    var log: String?

    func validate() throws {
        let single = try options.singleMove()
        if single == nil && moves == nil {
            throw ValidationError("give a move: --from and --to, --section-from and --section-to, or --moves FILE")
        }
        if single != nil && moves != nil {
            throw ValidationError("give either a single move or --moves, not both")
        }
        try MoveOptions.oneStandardInput(["--policy": options.policy, "--table": options.table, "--moves": moves])
    }

    func run() throws {
        colorOption.apply()
        let inputs = try Inputs(policyPath: options.policy, tablePath: options.table, format: format)
        var runner = CheckRunner(bound: inputs.bound, format: format, style: .standardOutput)
        var logFile: DecisionLogFile? = nil
        if let log {
            guard let file = DecisionLogFile(path: log) else {
                FileOutput.standardError("error: cannot open the decision log '\(log)' for appending; it must be a regular file\n")
                throw ExitCode(2)
            }
            logFile = file
            runner.log = JSONWriter()
            runner.policyHash = DecisionEvent.hash(inputs.document.source.bytes)
        }
        // Every decision reaches the log, also when stdout is closed early (`| head -1`) or the
        // batch stops on a bad moves file; a failed write (a full disk) is reported, not fatal.
        defer {
            if let logFile {
                if let events = runner.log { logFile.append(events.bytes) }
                logFile.close()
            }
        }
        var inputErrors: [Diagnostic] = []
        if let move = try options.singleMove() {
            runner.decide(move)
        } else if let moves {
            let sink = logFile
            let problems: [Diagnostic]
            // Standard input is read whole (a pipe cannot be read again for error positions);
            // a file is streamed.
            var stdinSource: SourceFile? = nil
            do {
                let flush: @Sendable (JSONWriter) -> Void = { output in output.withBytes { FileOutput.standardOutput($0) } }
                let flushLog: @Sendable (JSONWriter) -> Void = { events in sink?.append(events.bytes) }
                if moves == "-" {
                    let source = try SourceFile.read("-", maxBytes: YAMLLimits.stream.maxBytes, untilUnreadable: true)
                    stdinSource = source
                    problems = BatchPipeline.run(source, runner: &runner, flush: flush, flushLog: flushLog)
                } else {
                    problems = try BatchPipeline.run(path: moves, runner: &runner, flush: flush, flushLog: flushLog)
                }
            } catch {
                // A moves file that cannot be read at all (missing, a directory, a FIFO, too
                // large on standard input) is an input error like a policy or table that does
                // not load: JSON output is still one document, with the error in "errors".
                FileOutput.standardError(DiagnosticRenderer.text(error.diagnostic, source: nil, style: .standardError) + "\n")
                if let document = format.inputFailure(policy: inputs.bound.compiled.policy.name, errors: [error.diagnostic]) {
                    FileOutput.standardOutput(document)
                }
                throw ExitCode(2)
            }
            if !problems.isEmpty {
                // The results decided so far are still written, and JSON is closed with the
                // errors inside it: a late failure never leaves a cut document. The file was
                // streamed, so only the lines the errors name are read again for their frames.
                let lines = stdinSource.map { SourceLines($0) }
                    ?? SourceFile.excerpt(moves, lines: Set(problems.map(\.span.start.line))).map(SourceLines.init)
                for d in problems {
                    FileOutput.standardError(DiagnosticRenderer.text(d, lines: lines, style: .standardError) + "\n\n")
                }
            }
            inputErrors = problems
        }
        let status = runner.finish(inputErrors: inputErrors)
        runner.output.withBytes { FileOutput.standardOutput($0) }
        if let logFile, let events = runner.log {
            logFile.append(events.bytes)
            runner.log?.reset()
            if let failure = logFile.failure {
                FileOutput.standardError("error: \(failure)\n")
                throw ExitCode(2)
            }
        }
        throw ExitCode(status)
    }
}

extension CheckRunner.Format: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { all.map(\.name) }
    public var defaultValueDescription: String { name }
}
