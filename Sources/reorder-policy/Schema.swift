import ArgumentParser
import ReorderPolicy

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the JSON Schema of policy files (or of table or moves files), for editors and services.",
        discussion: "Save it and point your editor at it, e.g. '# yaml-language-server: $schema=reorder-policy.schema.json'."
    )

    @Flag(help: "The schema of table files instead.")
    var table = false

    @Flag(help: "The schema of moves files instead.")
    var moves = false

    func validate() throws {
        if table && moves { throw ValidationError("give --table or --moves, not both") }
    }

    func run() throws {
        FileOutput.standardOutput((table ? PolicySchema.table : moves ? PolicySchema.moves : PolicySchema.json) + "\n")
    }
}
