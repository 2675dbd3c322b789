import ArgumentParser
import ReorderPolicy

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Explain one move: every rule's verdict, the valid destinations and a drawing of the table.",
        discussion: "Exit status as for check: 0 allowed, 1 any other decision, 2 input errors."
    )

    @OptionGroup var options: MoveOptions

    @Option(help: "Output format: text or json.")
    var format: CheckRunner.Format = .text

    @OptionGroup var colorOption: ColorOption

    func validate() throws {
        if format.singleDocument == nil { throw ValidationError("explain writes text or json; \(format.name) is for check batches") }
        guard try options.singleMove() != nil else {
            throw ValidationError("give a move: --from and --to, or --section-from and --section-to")
        }
    }

    func run() throws {
        colorOption.apply()
        let inputs = try Inputs(policyPath: options.policy, tablePath: options.table, format: format)
        let move = try options.singleMove()!  // `validate()` refused a run without one
        var summary = DecisionJSON.Summary()
        let style = TerminalStyle.standardOutput
        switch format.singleDocument ?? .text {  // `validate()` refused the others
        case .json:
            DecisionJSON.explainDocument(inputs.bound, move, summary: &summary).withBytes { FileOutput.standardOutput($0) }
        case .text:
            do {
                let explanation = try inputs.bound.explain(move)
                summary.add(explanation.decision.kind)
                FileOutput.standardOutput(ExplainText.render(explanation, bound: inputs.bound, policySource: inputs.document.source, style: style))
            } catch {
                summary.invalid += 1
                FileOutput.standardOutput(style.red("invalid") + "  \(DecisionText.move(move)): \(error.message)\n")
            }
        }
        throw ExitCode(summary.exitStatus)
    }
}
