import ArgumentParser
import ReorderPolicy

/// `--config` / `--no-config`: the project's `.reorder-policy.yml` (docs/CONFIG.md).
struct ConfigOption: ParsableArguments {
    @Option(help: ArgumentHelp("The configuration file (default: the nearest .reorder-policy.yml from the working directory up).", valueName: "file"))
    var config: String?

    @Flag(name: .customLong("no-config"), help: "Use no configuration file.")
    var noConfig = false

    func validate() throws {
        if noConfig && config != nil { throw ValidationError("give --config or --no-config, not both") }
    }

    /// The configuration in force, or nil for none. A broken file is reported with its
    /// diagnostics on standard error and ends the run with status 2, like any unreadable input.
    func load() throws -> ProjectConfig? {
        if noConfig { return nil }
        guard let path = config ?? ProjectConfig.find() else { return nil }
        let (loaded, source, diagnostics) = ProjectConfig.load(path: path)
        if let loaded { return loaded }
        let style = TerminalStyle.standardError
        let text = diagnostics.map { DiagnosticRenderer.text($0, source: source, style: style) }.joined(separator: "\n")
        FileOutput.standardError(text + "\nthe configuration \(path) has \(diagnostics.count) error\(diagnostics.count == 1 ? "" : "s"); nothing was checked\n")
        throw ExitCode(2)
    }
}
