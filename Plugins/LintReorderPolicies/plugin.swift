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
        try process.run()
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0: return
        case 1: throw PluginFailure("reorder-policy lint found errors")
        default: throw PluginFailure("reorder-policy lint could not check every path (exit status \(process.terminationStatus))")
        }
    }
}

struct PluginFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
