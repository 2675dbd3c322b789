import ArgumentParser
import ReorderPolicy

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the JSON Schema of policy files (or of table, moves or configuration files), for editors and services.",
        discussion: "Save it and point your editor at it, e.g. '# yaml-language-server: $schema=reorder-policy.schema.json'."
    )

    @Flag(help: "The schema of table files instead.")
    var table = false

    @Flag(help: "The schema of moves files instead.")
    var moves = false

    @Flag(help: "The schema of the project configuration file (.reorder-policy.yml) instead.")
    var config = false

    @Option(help: "The schema of a JSON document the tool writes instead: check (also explain), lint, test or diagnostic (docs/schemas).")
    var output: OutputSchemas.Document?

    func validate() throws {
        if [table, moves, config, output != nil].filter({ $0 }).count > 1 { throw ValidationError("give one of --table, --moves, --config and --output") }
    }

    func run() throws {
        if let output { return FileOutput.standardOutput(output.json) }
        if config { return FileOutput.standardOutput(ProjectConfig.jsonSchema) }
        FileOutput.standardOutput((table ? PolicySchema.table : moves ? PolicySchema.moves : PolicySchema.json) + "\n")
    }
}

extension OutputSchemas.Document: ExpressibleByArgument {}
