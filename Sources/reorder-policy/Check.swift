import ArgumentParser
import ReorderPolicy

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decide moves: one given by flags, or a batch from a moves file.",
        discussion: "Exit status: 0 when every move is allowed, 1 for any other decision, 2 for input errors (and invalid moves)."
    )

    @OptionGroup var options: MoveOptions

    @Option(help: "A YAML or JSON list of moves to decide.")
    var moves: String?

    @Option(help: "Output format: text or json.")
    var format: CheckRunner.Format = .text

    func validate() throws {
        let single = try options.singleMove()
        if single == nil && moves == nil {
            throw ValidationError("give a move: --from and --to, --section-from and --section-to, or --moves FILE")
        }
        if single != nil && moves != nil {
            throw ValidationError("give either a single move or --moves, not both")
        }
    }

    func run() throws {
        let inputs = try Inputs(policyPath: options.policy, tablePath: options.table)
        var runner = CheckRunner(bound: inputs.bound, format: format, style: .forStandardOutput())
        if let move = try options.singleMove() {
            runner.decide(move)
        } else if let moves {
            let source: SourceFile
            do {
                source = try SourceFile.read(moves, maxBytes: Int.max)
            } catch {
                FileOutput.standardError(DiagnosticRenderer.text(error.diagnostic, source: nil, style: .forStandardError()) + "\n")
                throw ExitCode(2)
            }
            let problems = BatchPipeline.run(source, runner: &runner) { output in
                output.withBytes { FileOutput.standardOutput($0) }
            }
            if !problems.isEmpty {
                for d in problems {
                    FileOutput.standardError(DiagnosticRenderer.text(d, source: source, style: .forStandardError()) + "\n\n")
                }
                throw ExitCode(2)
            }
        }
        let status = runner.finish()
        runner.output.withBytes { FileOutput.standardOutput($0) }
        throw ExitCode(status)
    }
}

extension CheckRunner.Format: ExpressibleByArgument {}
