import ArgumentParser
import Foundation
import ReorderPolicy

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check policy files for errors and warnings.",
        discussion: """
            With no path, the current directory is linted. Directories are searched for *.yaml and *.yml; \
            files there without a 'reorder-policy' key are skipped, and so are hidden folders (.git, .build, \
            .build-venv, .swiftpm: any name starting with '.') below the directory given. \
            '-' reads one policy from standard input. --sarif-output FILE writes a SARIF log as well as the \
            --format output (for CI: '--format github --sarif-output lint.sarif' annotates and feeds code scanning \
            from one run).

            Exit status: 0 when there are no errors (warnings allowed; --strict makes them errors), \
            1 for findings, 2 for usage errors and unreadable paths (also a directory with no policy files).
            """
    )

    @Argument(help: "Policy files or directories (default: the current directory).")
    var paths: [String] = []

    @Option(help: "Output format: \(FormatChoice<LintReport>.names) (default: the configuration's format.lint, else text).")
    var format: FormatChoice<LintReport>?

    @Option(name: .customLong("sarif-output"),
            help: ArgumentHelp("Also write the SARIF log to FILE, while standard output gets the --format output: one run (one analysis) gives both annotations and a code-scanning file.", valueName: "file"))
    var sarifOutput: String?

    @OptionGroup var colorOption: ColorOption

    @OptionGroup var configOption: ConfigOption

    @Flag(name: .customLong("only-policies"),
          help: "Skip files named here that have no top-level 'reorder-policy' key, as directories do (for pre-commit).")
    var onlyPolicies = false

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    @Flag(name: .customLong("no-analysis"), help: "Skip the analysis that tries every move on small tables.")
    var noAnalysis = false

    @Option(name: .customLong("analysis-bound"),
            help: "Largest tables the analysis tries, as SECTIONSxROWS, at most 6x8 (default: the configuration's analysis.bound, else \(AnalysisBound.standard)).")
    var analysisBound: String?

    @Option(name: .customLong("analysis-budget"), parsing: .unconditional,
            help: ArgumentHelp("the analysis's work budget per policy file, N × 4,000 tables, fewer for policies over 16 rules (work, not time: every run says the same); past it lint says what it could not try (default: the configuration's analysis.budget, else \(PolicyAnalyzer.defaultBudget.formatted())).", valueName: "seconds"))
    var analysisBudget: String?

    func validate() throws {
        if let analysisBudget, ProjectConfig.seconds(analysisBudget) == nil {
            throw ValidationError("--analysis-budget expects a number of seconds above 0, such as 5 or 0.5")
        }
        if let analysisBound, AnalysisBound(analysisBound) == nil {
            throw ValidationError("--analysis-bound expects SECTIONSxROWS such as 3x4 (sections 1...6, rows 1...8)")
        }
    }

    func run() throws {
        colorOption.apply()
        let config = try configOption.load()
        let bound = analysisBound.flatMap(AnalysisBound.init) ?? config?.analysisBound ?? .standard
        let analyse = !noAnalysis && (config?.analysisEnabled ?? true)
        let budget = analysisBudget.flatMap(ProjectConfig.seconds) ?? config?.analysisBudget ?? PolicyAnalyzer.defaultBudget
        let progress = ProgressLine()
        let report = Linter.lint(paths.isEmpty ? ["."] : paths, strict: strict, config: config, onlyPolicies: onlyPolicies, analysis: analyse ? { document in
            defer { progress.clear() }
            return PolicyAnalyzer.analyze(document, bound: bound, budget: budget) { progress.show("analysing \(document.source.path): \($0) tables") }
        } : nil)
        let chosen = format ?? FormatChoice(configured: config?.formats["lint"])
        FileOutput.standardOutput(chosen.format.render(report, RenderContext(style: .standardOutput, toolVersion: ReorderPolicyCommand.version)))
        if let sarifOutput,
           let failure = FileOutput.writeFile(sarifOutput, LintSARIFFormat().render(report, RenderContext(toolVersion: ReorderPolicyCommand.version))) {
            FileOutput.standardError("error: \(failure)\n")
            throw ExitCode(2)
        }
        throw ExitCode(report.exitStatus)
    }
}

/// A line on standard error that says what a long run is doing: only on a terminal, only
/// after a second, rewritten in place and cleared when the work is done.
final class ProgressLine {
    private let start = ContinuousClock.now
    private let enabled = isatty(2) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    private var shown = false

    func show(_ text: String) {
        guard enabled, ContinuousClock.now - start > .seconds(1) else { return }
        let seconds = Int((ContinuousClock.now - start).components.seconds)
        FileOutput.standardError("\r\u{1B}[K" + text + " (\(seconds) s)")
        shown = true
    }

    func clear() {
        guard shown else { return }
        FileOutput.standardError("\r\u{1B}[K")
        shown = false
    }
}
