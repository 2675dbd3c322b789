import ArgumentParser
import ReorderPolicy

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the JSON Schema of policy files, for editors.",
        discussion: "Save it and point your editor at it, e.g. '# yaml-language-server: $schema=reorder-policy.schema.json'."
    )

    func run() throws {
        FileOutput.standardOutput(PolicySchema.json + "\n")
    }
}
