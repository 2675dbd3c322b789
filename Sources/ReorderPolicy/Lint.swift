import Foundation

/// The outcome of linting a set of paths.
public struct LintReport: Sendable {
    /// Every policy file that was checked, in the order given (directories sorted).
    public var documents: [PolicyDocument]
    /// Paths that could not be read (exit status 2).
    public var unreadable: [Diagnostic]
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
    /// Lints `paths`. Directories are walked for `*.yaml` / `*.yml`; files there without a
    /// `reorder-policy` key (tables, moves) are skipped. With `strict`, warnings become errors.
    public static func lint(_ paths: [String], strict: Bool = false, analysis: ((PolicyDocument) -> [Diagnostic])? = nil) -> LintReport {
        var report = LintReport(documents: [], unreadable: [])
        for path in paths {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                for file in policyFiles(under: path) {
                    guard let document = try? PolicyLoader.load(path: file), document.declaresPolicy else { continue }
                    report.documents.append(document)
                }
            } else {
                do {
                    report.documents.append(try PolicyLoader.load(path: path))
                } catch {
                    report.unreadable.append(error.diagnostic)
                }
            }
        }
        for index in report.documents.indices {
            var document = report.documents[index]
            if let analysis, !document.hasErrors {
                document.diagnostics = Diagnostic.sorted(document.diagnostics + analysis(document))
            }
            if strict {
                for d in document.diagnostics.indices { document.diagnostics[d].severity = .error }
            }
            report.documents[index] = document
        }
        return report
    }

    /// Every `*.yaml` / `*.yml` file below `directory`, sorted, as paths joined onto `directory`.
    public static func policyFiles(under directory: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var files: [String] = []
        while let item = enumerator.nextObject() as? String {
            guard item.hasSuffix(".yaml") || item.hasSuffix(".yml") else { continue }
            let full = directory.hasSuffix("/") ? directory + item : directory + "/" + item
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(full)
            }
        }
        return files.sorted()
    }
}
