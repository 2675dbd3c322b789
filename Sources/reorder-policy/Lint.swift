import ArgumentParser
import ReorderPolicy

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check policy files for errors and warnings.",
        discussion: "Directories are searched for *.yaml and *.yml; files there without a 'reorder-policy' key are skipped."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, sarif, github }

    @Argument(help: "Policy files or directories.")
    var paths: [String]

    @Option(help: "Output format: text, json, sarif or github.")
    var format: Format = .text

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    func run() throws {
        let report = Linter.lint(paths, strict: strict)
        switch format {
        case .text: FileOutput.standardOutput(DiagnosticRenderer.lintText(report, style: .forStandardOutput()))
        case .json: FileOutput.standardOutput(DiagnosticRenderer.lintJSON(report))
        case .sarif: FileOutput.standardOutput(DiagnosticRenderer.sarif(report, toolVersion: ReorderPolicyCommand.version))
        case .github: FileOutput.standardOutput(DiagnosticRenderer.github(report))
        }
        throw ExitCode(report.exitStatus)
    }
}
