import SpannedYAML
import Foundation

/// The outcome of linting a set of paths.
public struct LintReport: Sendable {
    /// Every policy file that was checked, in the order given (directories sorted).
    public var documents: [PolicyDocument]
    /// Paths that could not be read (exit status 2).
    public var unreadable: [Diagnostic]
    /// A report of the given documents and unreadable paths.
    public init(documents: [PolicyDocument], unreadable: [Diagnostic]) {
        self.documents = documents
        self.unreadable = unreadable
    }

    /// Warnings acknowledged by waiver comments, files in order (not counted).
    public var suppressed: [SuppressedFinding] { documents.flatMap(\.suppressed) }

    /// Every diagnostic, files in order, each file's sorted by position.
    public var diagnostics: [Diagnostic] { unreadable + documents.flatMap(\.diagnostics) }

    /// Error count.
    public var errors: Int { diagnostics.filter { $0.severity == .error }.count }
    /// Warning count.
    public var warnings: Int { diagnostics.filter { $0.severity == .warning }.count }

    /// SPEC §5: 2 for an unreadable path, 1 for findings, 0 otherwise.
    public var exitStatus: Int32 {
        if !unreadable.isEmpty { return 2 }
        return errors > 0 ? 1 : 0
    }
}

/// `lint`: loads every policy below the given paths and collects their diagnostics.
public enum Linter {
    /// Lints `paths`. Directories are walked for `*.yaml` / `*.yml` (hidden folders below them
    /// skipped, see ``walk(_:skipping:)``); files there without a
    /// `reorder-policy` key (tables, moves) are skipped, and so are files the `config`'s
    /// include/exclude globs leave out (a file named in `paths` is always taken). The config's
    /// severities apply to the warnings; with `strict`, the warnings left become errors.
    /// With `onlyPolicies`, files named in `paths` are treated as a walk treats them: one
    /// without a top-level `reorder-policy` key is skipped (for pre-commit, which passes every
    /// staged YAML file). With `testTables`, a test's table file that `test` could not load is
    /// an error of its policy (`testTableErrors(_:)`).
    public static func lint(
        _ paths: [String], strict: Bool = false, config: ProjectConfig? = nil, onlyPolicies: Bool = false,
        analysis: ((PolicyDocument) -> [Diagnostic])? = nil, testTables: Bool = true
    ) -> LintReport {
        var report = LintReport(documents: [], unreadable: [])
        for path in paths {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                let (files, problems) = walk(path, skipping: { config?.excludesDirectory($0) ?? false })
                report.unreadable += problems
                var found = false
                for file in files where config?.takes(file) ?? true {
                    do {
                        let document = try PolicyLoader.load(path: file)
                        if document.declaresPolicy {
                            report.documents.append(document)
                            found = true
                        }
                    } catch {
                        // Found through a directory and unreadable: said, never skipped.
                        report.unreadable.append(error.diagnostic)
                        found = true
                    }
                }
                if !found && problems.isEmpty {
                    // An empty or mistyped directory is not a clean result: CI would pass on nothing.
                    let excluder = files.contains { !(config?.takes($0) ?? true) } ? config : nil
                    report.unreadable.append(Diagnostic(
                        code: .unreadable, message: "no policy files below '\(path)'" + (excluder.map { " that \($0.path) includes" } ?? ""),
                        file: path, span: Span(at: .start),
                        help: "a policy file is a *.yaml or *.yml file with a top-level 'reorder-policy' key"))
                }
            } else {
                do {
                    let document = try PolicyLoader.load(path: path)
                    if !onlyPolicies || document.declaresPolicy { report.documents.append(document) }
                } catch {
                    report.unreadable.append(error.diagnostic)
                }
            }
        }
        for index in report.documents.indices {
            report.documents[index] = lint(report.documents[index], strict: strict, config: config, analysis: analysis)
            // After the analysis, which a broken test table does not concern.
            if testTables {
                report.documents[index].diagnostics = Diagnostic.sorted(report.documents[index].diagnostics + testTableErrors(report.documents[index]))
            }
        }
        return report
    }

    /// Lints policy text held in memory (an editor's buffer) as `lint` lints the file at
    /// `path`: the same diagnostics, the test tables' errors included (resolved from `path`'s
    /// directory). The language server lints this way.
    public static func lint(
        text: String, path: String, strict: Bool = false, config: ProjectConfig? = nil,
        analysis: ((PolicyDocument) -> [Diagnostic])? = nil
    ) -> PolicyDocument {
        var document = lint(PolicyLoader.load(SourceFile(path: path, text: text)), strict: strict, config: config, analysis: analysis)
        document.diagnostics = Diagnostic.sorted(document.diagnostics + testTableErrors(document))
        return document
    }

    /// What `test` would fail to load: a test's table file that is missing, unreadable, outside
    /// the policy's directory or broken, each said at the test's `table:` (a broken table's
    /// first error is named in the message, with its place; `test` shows them all).
    static func testTableErrors(_ document: PolicyDocument) -> [Diagnostic] {
        var cache: [String: (Table?, [Diagnostic])] = [:]
        var errors: [Diagnostic] = []
        for test in document.tests {
            guard case .file(let path, let span) = test.table else { continue }
            let loaded = PolicyTestRunner.testTable(path, span: span, of: document, cache: &cache)
            guard loaded.table == nil, let first = loaded.errors.first else { continue }
            if first.file == document.source.path {
                errors.append(first)
            } else {
                let more = loaded.errors.count > 1 ? " (and \(loaded.errors.count - 1) more)" : ""
                errors.append(Diagnostic(
                    code: first.code, message: "the test's table '\(path)' does not load: \(first.file):\(first.span.start.line):\(first.span.start.column): \(first.message)\(more)",
                    file: document.source.path, span: span, help: "run 'reorder-policy test' on this policy to see every error of the table"))
            }
        }
        return errors
    }

    /// Lints one loaded document as `lint` does a file: adds the analysis' findings (when it
    /// has no errors), applies the config's severities, waiver comments and `strict`. The
    /// playground lints policy text this way.
    public static func lint(
        _ loaded: PolicyDocument, strict: Bool = false, config: ProjectConfig? = nil,
        analysis: ((PolicyDocument) -> [Diagnostic])? = nil
    ) -> PolicyDocument {
        var document = loaded
        if let analysis, !document.hasErrors {
            document.diagnostics = Diagnostic.sorted(document.diagnostics + analysis(document))
        }
        if let config { document.diagnostics = config.apply(to: document.diagnostics) }
        // Waiver comments: judged only when the analysis ran (else nothing could match them).
        let waivers = Waivers.find(in: document.source)
        (document.diagnostics, document.suppressed) = Waivers.apply(
            waivers, to: document.diagnostics, file: document.source.path, judged: analysis != nil && !document.hasErrors)
        if strict {
            for d in document.diagnostics.indices { document.diagnostics[d].severity = .error }
        }
        return document
    }

    /// Every `*.yaml` / `*.yml` file below `directory` (hidden folders skipped, as
    /// ``walk(_:skipping:)`` does), sorted, as paths joined onto `directory`.
    public static func policyFiles(under directory: String) -> [String] {
        walk(directory).files
    }

    /// The `*.yaml` / `*.yml` files below `directory` (sorted), and a diagnostic for each
    /// directory that cannot be listed. Symbolic links are followed once (a loop is not
    /// walked twice); what the files are (FIFOs, devices) is judged when they are read.
    /// Directories for which `skipping` is true are not entered (a config's excludes), nor are
    /// hidden folders below `directory` — names starting with `.`: `.git`, `.build`,
    /// `.build-venv`, `.swiftpm`, as SwiftLint skips them — so `lint .` in a package never
    /// reads a build folder's checkouts. `directory` itself is walked even when hidden: a
    /// folder named on the command line is always taken.
    public static func walk(_ directory: String, skipping: (String) -> Bool = { _ in false }) -> (files: [String], problems: [Diagnostic]) {
        var files: [String] = [], problems: [Diagnostic] = []
        var seen = Set<[UInt64]>()
        var pending = [directory]
        while let dir = pending.popLast() {
            var info = stat()
            if stat(dir, &info) == 0, !seen.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted { continue }
            let entries: [String]
            do {
                entries = try FileManager.default.contentsOfDirectory(atPath: dir)
            } catch {
                problems.append(Diagnostic(code: .unreadable, message: "cannot list the directory: " + SystemError.describe(EACCES),
                                           file: dir, span: Span(at: .start)))
                continue
            }
            for name in entries {
                let full = dir.hasSuffix("/") ? dir + name : dir + "/" + name
                var entry = stat()
                guard stat(full, &entry) == 0 else {
                    if name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                        problems.append(Diagnostic(code: .unreadable, message: SystemError.describe(errno), file: full, span: Span(at: .start)))
                    }
                    continue
                }
                if entry.st_mode & S_IFMT == S_IFDIR {
                    if !name.hasPrefix("."), !skipping(full) { pending.append(full) }
                } else if name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                    files.append(full)
                }
            }
        }
        return (files.sorted(), problems.sorted { $0.file < $1.file })
    }
}
