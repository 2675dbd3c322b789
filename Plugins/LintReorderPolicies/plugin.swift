import Foundation
import PackagePlugin

/// `swift package lint-reorder-policies [ARGUMENT...]`: runs `reorder-policy lint .` in the
/// package's directory (so its `.reorder-policy.yml` applies), or `reorder-policy lint` with
/// the arguments given (`--strict --format json policies`). Findings are printed as the CLI
/// prints them; errors fail the command.
@main
struct LintReorderPolicies: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "reorder-policy")
        let directory = context.package.directoryURL
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["lint"] + (arguments.isEmpty ? ["."] : arguments)
        process.currentDirectoryURL = directory
        // The findings are read here and written before the plugin fails, so that SwiftPM's
        // "error: … found errors" line comes after them, not above them (issue 63).
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let findings = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        FileHandle.standardOutput.write(findings)
        let failure: String
        switch process.terminationStatus {
        case 0: return
        case 1: failure = "reorder-policy lint found errors"
        default: failure = "reorder-policy lint could not check every path (exit status \(process.terminationStatus))"
        }
        // SwiftPM shows a plugin's output when the plugin ends, but an error it throws at once:
        // thrown, "error: … found errors" came above the findings. Said last, and the plugin
        // ends with the failing status instead.
        FileHandle.standardOutput.write(Data("error: \(failure)\n".utf8))
        exit(process.terminationStatus)
    }
}

