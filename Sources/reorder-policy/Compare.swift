import ArgumentParser
import Foundation
import ReorderPolicy

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two policies: equivalent on every table, or the moves whose decisions change.",
        discussion: """
            'compare OLD NEW' compares two policy files. 'compare --base REV [PATH...]' compares each policy \
            below PATH (default: the current directory) with its version at git revision REV, read with \
            'git show'; a policy that is new or gone is reported as added or removed. Equivalent means the same \
            decision word and target for every row move and section move on every table (SPEC §11); otherwise \
            each kind of change (old decision → new decision) is shown on a small table, and every one \
            reproduces with 'check'.

            Exit status: 0 all equivalent, 1 some differ (or were added or removed), 2 input or usage errors \
            (also a comparison that ran out of its work budget).
            """
    )

    @Argument(help: "OLD and NEW policy files; with --base, the policy files or directories to compare.")
    var paths: [String] = []

    @Option(help: "Compare each policy below the paths with its version at this git revision.")
    var base: String?

    @Option(help: "Output format: \(FormatChoice<ComparisonReport>.names) (markdown: a pull-request comment; github: annotations).")
    var format = FormatChoice<ComparisonReport>(configured: nil)

    @OptionGroup var colorOption: ColorOption

    @Flag(name: .customLong("only-policies"),
          help: "Skip files named here that declare no policy in either version, as directories do (for pre-commit).")
    var onlyPolicies = false

    @Option(name: .customLong("markdown-output"),
            help: ArgumentHelp("Also write the Markdown report (a pull-request comment) to this file.", valueName: "file"))
    var markdownOutput: String?

    @Flag(name: .customLong("exit-zero"),
          help: "Exit 0 when policies differ (a report, not a gate: the pre-commit hook); errors still exit 2.")
    var exitZero = false

    func validate() throws {
        if base == nil && paths.count != 2 {
            throw ValidationError("give two policy files (compare OLD NEW), or a git revision and paths (compare --base REV PATH...)")
        }
        if paths.contains("-") { throw ValidationError("compare reads files, not standard input") }
    }

    func run() throws {
        colorOption.apply()
        var entries: [ComparedPolicy] = []
        if let base {
            let git = try GitRevision(base)
            for pair in try git.pairs(below: paths.isEmpty ? ["."] : paths, onlyPolicies: onlyPolicies) {
                entries.append(try compare(old: pair.old, new: pair.new))
            }
            if entries.isEmpty && !onlyPolicies {
                FileOutput.standardError("error: no policy files below \(paths.isEmpty ? "." : paths.joined(separator: " ")) at \(base) or now\n")
                throw ExitCode(2)
            }
        } else {
            let old = try load(path: paths[0]), new = try load(path: paths[1])
            entries.append(try compare(old: old, new: new))
        }
        let report = ComparisonReport(entries: entries, list: base != nil)
        let context = RenderContext(style: .standardOutput, toolVersion: ReorderPolicyCommand.version)
        FileOutput.standardOutput(format.format.render(report, context))
        if let markdownOutput, let failure = FileOutput.writeFile(markdownOutput, CompareMarkdownFormat().render(report, context)) {
            FileOutput.standardError("error: \(failure)\n")
            throw ExitCode(2)
        }
        for entry in entries where entry.undecided {
            FileOutput.standardError("error: \(entry.label): the comparison ran out of its work budget before an answer; no claim either way\n")
        }
        let status = ComparisonReport.exitStatus(entries)
        throw ExitCode(exitZero && status == 1 ? 0 : status)
    }

    private func load(path: String) throws -> PolicyDocument {
        do {
            return try PolicyLoader.load(path: path)
        } catch {
            FileOutput.standardError(DiagnosticRenderer.text(error.diagnostic, source: nil, style: .standardError) + "\n")
            fail([error.diagnostic])
            throw ExitCode(2)
        }
    }

    /// With a machine format, a failed input still ends in one complete JSON document.
    private func fail(_ errors: [Diagnostic]) {
        guard format.format.isJSONDocument else { return }
        FileOutput.standardOutput(ComparisonReport.inputFailure(old: base == nil ? paths.first : nil, new: base == nil ? paths.last : nil, errors: errors))
    }

    /// Compiles both (errors are printed and end the run with 2) and compares them.
    private func compare(old: PolicyDocument?, new: PolicyDocument?) throws -> ComparedPolicy {
        func compiled(_ document: PolicyDocument) throws -> CompiledPolicy {
            do {
                return try document.compile()
            } catch {
                for d in error.diagnostics {
                    FileOutput.standardError(DiagnosticRenderer.text(d, source: document.source, style: .standardError) + "\n\n")
                }
                fail(error.diagnostics)
                throw ExitCode(2)
            }
        }
        guard let old else { return ComparedPolicy(old: nil, new: new?.source.path, policies: nil, status: .added) }
        guard let new else { return ComparedPolicy(old: old.source.path, new: nil, policies: nil, status: .removed) }
        let a = try compiled(old), b = try compiled(new)
        return ComparedPolicy(old: old.source.path, new: new.source.path, policies: (a, b), status: .compared(PolicyComparison(old: a, new: b)))
    }
}

/// The policy files of the working tree and of a git revision, paired by path.
struct GitRevision {
    let revision: String
    /// True for `HEAD` in a repository with no commit yet: every policy is new.
    let unborn: Bool

    init(_ revision: String) throws {
        self.revision = revision
        let exists = Self.git(["rev-parse", "--verify", "--quiet", revision + "^{commit}"])?.0 == 0
        unborn = !exists && revision == "HEAD" && Self.git(["rev-parse", "--git-dir"])?.0 == 0
        guard exists || unborn else {
            FileOutput.standardError("error: '\(revision)' is not a git revision here (compare --base needs a git repository)\n")
            throw ExitCode(2)
        }
    }

    /// Runs git; nil when it cannot be started.
    static func git(_ arguments: [String]) -> (Int32, Data)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    /// For each path: a file is compared with its old version; a directory's `*.yaml`/`*.yml`
    /// files (now and at the revision) that declare a policy in either version are paired.
    func pairs(below paths: [String], onlyPolicies: Bool = false) throws -> [(old: PolicyDocument?, new: PolicyDocument?)] {
        var out: [(PolicyDocument?, PolicyDocument?)] = []
        var seen = Set<String>()
        for path in paths {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            var names: [String] = []
            if exists && !isDirectory.boolValue {
                names = [path]
            } else {
                if exists { names = Linter.walk(path).files.map(Self.normalized) }
                // Files at the revision below the path (relative to the current directory).
                if unborn {
                    if !exists {
                        FileOutput.standardError("error: \(path): no such file or directory\n")
                        throw ExitCode(2)
                    }
                } else if let (status, data) = Self.git(["ls-tree", "-r", "--name-only", revision, "--", path]), status == 0 {
                    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                        let name = String(line)
                        if name.hasSuffix(".yaml") || name.hasSuffix(".yml") { names.append(name) }
                    }
                } else if !exists {
                    FileOutput.standardError("error: \(path): no such file or directory\n")
                    throw ExitCode(2)
                }
            }
            for name in names.map(Self.normalized).sorted() where seen.insert(name).inserted {
                let now = FileManager.default.fileExists(atPath: name) ? try load(name) : nil
                let then = oldVersion(name)
                let explicit = names.count == 1 && !(isDirectory.boolValue) && !onlyPolicies
                // Directories skip files that are not policies in either version (as lint does).
                if !explicit && !(now?.declaresPolicy ?? false) && !(then?.declaresPolicy ?? false) { continue }
                if now == nil && then == nil { continue }
                out.append((then, now))
            }
        }
        return out
    }

    static func normalized(_ path: String) -> String {
        path.hasPrefix("./") ? String(path.dropFirst(2)) : path
    }

    private func load(_ path: String) throws -> PolicyDocument {
        do {
            return try PolicyLoader.load(path: path)
        } catch {
            FileOutput.standardError(DiagnosticRenderer.text(error.diagnostic, source: nil, style: .standardError) + "\n")
            throw ExitCode(2)
        }
    }

    /// The file's text at the revision, loaded under the name `REV:path`; nil when it did not exist.
    private func oldVersion(_ path: String) -> PolicyDocument? {
        if unborn { return nil }
        let spec = path.hasPrefix("/") ? path : "./" + path
        guard let (status, data) = Self.git(["show", "\(revision):\(spec)"]), status == 0 else { return nil }
        return PolicyLoader.load(SourceFile(path: "\(revision):\(path)", bytes: Array(data)))
    }
}
