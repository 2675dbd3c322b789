import SpannedYAML
import ArgumentParser
import Foundation
import ReorderPolicy

struct Fmt: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lay policy files out canonically, keeping every comment.",
        discussion: """
            Without options the formatted text is printed. Directories are searched for policy files as \
            'lint' searches them (the configuration's include/exclude apply); a file named here is formatted \
            whatever it holds (tables and moves files too). '-' reads standard input. The result is checked \
            to read exactly as the input, comments included; a file that cannot be laid out safely is left \
            as it is and reported (format-unsafe). See docs/FORMAT.md.

            Exit status: 0 when done (with --check: every file is formatted already), 1 when --check or \
            --fail finds a file that would change or a file has YAML errors, 2 for usage errors and \
            unreadable paths.
            """
    )

    @Argument(help: "Policy files or directories ('-' for standard input).")
    var paths: [String]

    @Flag(name: [.customShort("w"), .customLong("write")], help: "Write the result back to each file that changes.")
    var write = false

    @Flag(help: "Change nothing: print a diff for each file that would change and exit 1 if any would.")
    var check = false

    @Flag(name: [.customShort("d"), .customLong("diff")], help: "Print a diff for each file that would change.")
    var diff = false

    @Flag(name: [.customShort("l"), .customLong("list")], help: "Print the name of each file that would change.")
    var list = false

    @Flag(name: .customLong("only-policies"),
          help: "Skip files named here that have no top-level 'reorder-policy' key, as directories do (for pre-commit).")
    var onlyPolicies = false

    @Flag(help: "Exit 1 when a file would change (with -w: when one changed).")
    var fail = false

    @OptionGroup var colorOption: ColorOption

    @OptionGroup var configOption: ConfigOption

    func validate() throws {
        if check && write { throw ValidationError("--check changes nothing; give --check or --write, not both") }
    }

    func run() throws {
        colorOption.apply()
        let config = try configOption.load()
        var files: [String] = [], unreadable: [Diagnostic] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            if path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                let walked = Linter.walk(path, skipping: { config?.excludesDirectory($0) ?? false })
                unreadable += walked.problems
                let taken = walked.files.filter { file in
                    (config?.takes(file) ?? true) && ((try? PolicyLoader.load(path: file).declaresPolicy) ?? true)
                }
                if taken.isEmpty && walked.problems.isEmpty {
                    unreadable.append(Diagnostic(code: .unreadable, message: "no policy files below '\(path)'", file: path, span: Span(at: .start)))
                }
                files += taken
            } else if !onlyPolicies || path == "-" || ((try? PolicyLoader.load(path: path).declaresPolicy) ?? true) {
                files.append(path)
            }
        }
        let style = TerminalStyle.standardError
        var changed = 0, broken = 0
        for file in files {
            let source: SourceFile
            do {
                source = try SourceFile.read(file)
            } catch {
                unreadable.append(error.diagnostic)
                continue
            }
            let result = YAMLFormatter.format(source)
            guard let text = result.text else {
                broken += 1
                FileOutput.standardError(result.diagnostics.map { DiagnosticRenderer.text($0, source: source, style: style) }.joined(separator: "\n") + "\n")
                continue
            }
            let original = String(decoding: source.bytes, as: UTF8.self)
            let differs = text != original
            if differs { changed += 1 }
            if check || diff, differs {
                FileOutput.standardOutput(LineDiff.unified(original, text, oldName: "\(file) (as written)", newName: "\(file) (formatted)"))
            }
            if list, differs { FileOutput.standardOutput(file + "\n") }
            if write, differs, file != "-" {
                do {
                    try Self.replace(file, with: text)
                } catch {
                    unreadable.append(Diagnostic(code: .unreadable, message: "cannot write the formatted file: \(error.localizedDescription)",
                                                 file: file, span: Span(at: .start)))
                }
            }
            if !(check || diff || list || write) || (write && file == "-") { FileOutput.standardOutput(text) }
        }
        for d in unreadable { FileOutput.standardError(DiagnosticRenderer.text(d, source: nil, style: style) + "\n") }
        if check || diff || list || write {
            let verb = write ? "reformatted" : "would reformat"
            FileOutput.standardError("\(files.count) file\(files.count == 1 ? "" : "s"): \(changed) \(verb), \(broken) with errors\n")
        }
        if !unreadable.isEmpty { throw ExitCode(2) }
        if broken > 0 || ((check || fail) && changed > 0) { throw ExitCode(1) }
    }

    /// Replaces `path` with `text` through a temporary file in the same folder and a rename,
    /// keeping the file's permissions: an interrupted run leaves the old file or the new one.
    static func replace(_ path: String, with text: String) throws {
        let url = URL(fileURLWithPath: path)
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        try Data(text.utf8).write(to: url, options: .atomic)
        if let permissions = attributes?[.posixPermissions] {
            try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
        }
    }
}
