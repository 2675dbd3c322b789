import ArgumentParser
import ReorderPolicy

struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the tests written in policy files.",
        discussion: """
            With no path, the policies below the current directory are tested. Directories are searched \
            as 'lint' searches them (hidden folders such as .build and .git are skipped).

            Exit status: 0 when every test passes, 1 for a failure or a policy error, 2 for usage errors.
            """
    )

    @Argument(help: "Policy files or directories (default: the current directory).")
    var paths: [String] = []

    @Option(help: "Output format: \(FormatChoice<TestReport>.names) (default: the configuration's format.test, else text).")
    var format: FormatChoice<TestReport>?

    @OptionGroup var colorOption: ColorOption

    @OptionGroup var configOption: ConfigOption

    func run() throws {
        colorOption.apply()
        let config = try configOption.load()
        let report = PolicyTestRunner.run(paths.isEmpty ? ["."] : paths, config: config)
        let chosen = format ?? FormatChoice(configured: config?.formats["test"])
        FileOutput.standardOutput(chosen.format.render(report, RenderContext(style: .standardOutput, toolVersion: ReorderPolicyCommand.version)))
        throw ExitCode(report.exitStatus)
    }
}
