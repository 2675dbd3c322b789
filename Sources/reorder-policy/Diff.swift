import ArgumentParser
import ReorderPolicy

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Infer the moves between two snapshots of a table and decide them with a policy.",
        discussion: """
            For services that receive whole new orders: rows are matched by id; the fewest moves that turn \
            --before into --after are decided in order. Exit status: 0 when unchanged or every move is allowed, \
            1 for any other decision or a change that is not a reordering (rows added or removed), 2 for input errors.
            """
    )

    @Option(help: "The policy file.")
    var policy: String

    @Option(help: "The table before the change.")
    var before: String

    @Option(help: "The table after the change.")
    var after: String

    @Option(help: "Output format: text or json.")
    var format: CheckRunner.Format = .text

    @OptionGroup var colorOption: ColorOption

    func validate() throws {
        if format.singleDocument == nil { throw ValidationError("diff writes text or json") }
    }

    func run() throws {
        colorOption.apply()
        let inputs = try Inputs(policyPath: policy, tablePath: before, format: format)
        let (table, source, diagnostics) = TableLoader.load(path: after)
        guard let table else {
            for d in diagnostics { FileOutput.standardError(DiagnosticRenderer.text(d, source: source, style: .standardError) + "\n\n") }
            throw ExitCode(2)
        }
        let report = DiffReport(policy: inputs.bound.compiled, before: inputs.bound.table, after: table)
        switch format.singleDocument ?? .text {  // `validate()` refused the others
        case .json: FileOutput.standardOutput(report.json(policy: inputs.bound.compiled.policy.name))
        case .text: FileOutput.standardOutput(report.text(style: .standardOutput))
        }
        throw ExitCode(report.exitStatus)
    }
}
