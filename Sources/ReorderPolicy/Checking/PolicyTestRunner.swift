import SpannedYAML
import Foundation

/// What happened to one policy test.
public struct TestOutcome: Sendable {
    /// The test.
    public var test: PolicyTest
    /// The actual decision, or nil when the move was invalid or the table could not be loaded.
    public var decision: Decision?
    /// The explanation of the actual decision (for failure output).
    public var explanation: Explanation?
    /// For an invalid move, why.
    public var invalidReason: String?
    /// The bound table, for drawings.
    public var bound: BoundPolicy?
    /// Problems loading the test's table.
    public var errors: [Diagnostic]
    /// Each mismatch between expected and actual, in words; empty when the test passed.
    public var mismatches: [String]

    /// Passed: no errors and nothing differs.
    public var passed: Bool { errors.isEmpty && mismatches.isEmpty }

    /// The actual decision word, including `invalid`.
    public var actualWord: String { decision?.kind.rawValue ?? (invalidReason != nil ? "invalid" : "error") }
}

/// The tests of one policy file.
public struct TestFileReport: Sendable {
    /// The policy file.
    public var document: PolicyDocument
    /// One outcome per test, in file order (empty when the policy has errors).
    public var outcomes: [TestOutcome]

    /// Failed tests, plus one for a policy with errors.
    public var failures: Int { outcomes.filter { !$0.passed }.count + (document.hasErrors ? 1 : 0) }
}

/// The result of `test`.
public struct TestReport: Sendable {
    /// Per file.
    public var files: [TestFileReport]
    /// Paths that could not be read.
    public var unreadable: [Diagnostic]

    /// Total test cases: every test run, plus one for each policy that did not load (it
    /// counts as failed), so that `total == passed + failed`.
    public var total: Int { files.reduce(0) { $0 + $1.outcomes.count + ($1.document.hasErrors ? 1 : 0) } }
    /// Passed tests.
    public var passed: Int { files.reduce(0) { $0 + $1.outcomes.filter(\.passed).count } }
    /// Failed tests (policy errors count as one each).
    public var failed: Int { files.reduce(0) { $0 + $1.failures } }

    /// SPEC §5: 2 for unreadable paths, 1 for any failure or policy error, else 0.
    public var exitStatus: Int32 {
        if !unreadable.isEmpty { return 2 }
        return failed > 0 ? 1 : 0
    }
}

/// Runs the `tests` of policy files (SPEC §6).
public enum PolicyTestRunner {
    /// Runs every test of every policy under `paths` (directories walked as `lint` walks
    /// them, with the `config`'s include/exclude globs).
    public static func run(_ paths: [String], config: ProjectConfig? = nil) -> TestReport {
        let lint = Linter.lint(paths, config: config.map { c in
            var selection = c
            selection.severities = [:]
            return selection
        }, testTables: false)  // each test says its own table's errors
        var report = TestReport(files: [], unreadable: lint.unreadable)
        for document in lint.documents {
            report.files.append(run(document))
        }
        return report
    }

    /// Runs the tests of one loaded policy.
    public static func run(_ document: PolicyDocument) -> TestFileReport {
        guard let compiled = document.compiled() else { return TestFileReport(document: document, outcomes: []) }
        var tables: [String: (Table?, [Diagnostic])] = [:]
        var outcomes: [TestOutcome] = []
        for test in document.tests {
            var outcome = TestOutcome(test: test, errors: [], mismatches: [])
            let table: Table
            switch test.table {
            case .inline(let t): table = t
            case .file(let path, let span):
                let loaded = testTable(path, span: span, of: document, cache: &tables)
                guard let t = loaded.table else {
                    outcome.errors = loaded.errors
                    outcome.mismatches = ["the table could not be loaded"]
                    outcomes.append(outcome)
                    continue
                }
                table = t
            }
            let bound = compiled.bind(table)
            outcome.bound = bound
            do {
                let explanation = try bound.explain(test.move)
                outcome.explanation = explanation
                outcome.decision = explanation.decision
            } catch {
                outcome.invalidReason = error.message
            }
            outcome.mismatches = compare(test, outcome)
            outcomes.append(outcome)
        }
        return TestFileReport(document: document, outcomes: outcomes)
    }

    /// The tables of `document`'s tests as `test` loads them (inline, or files next to the
    /// policy), each once, in test order, with the first test's name; tables that do not load
    /// are left out. The language server's hover reads them.
    package static func tables(of document: PolicyDocument) -> [(test: String, table: Table)] {
        var cache: [String: (Table?, [Diagnostic])] = [:]
        var seen = Set<Table>()
        var out: [(test: String, table: Table)] = []
        for test in document.tests {
            let table: Table?
            switch test.table {
            case .inline(let t): table = t
            case .file(let path, let span): table = testTable(path, span: span, of: document, cache: &cache).table
            }
            if let table, seen.insert(table).inserted { out.append((test.name, table)) }
        }
        return out
    }

    /// The table file a test names, as `test` loads it (and `lint` checks it): relative to the
    /// policy's directory and inside it, read once per run (`cache`). Its errors otherwise: the
    /// table's own diagnostics, or one at the test's `table:` for a table outside the policy's
    /// directory or one that cannot be read.
    static func testTable(
        _ path: String, span: Span, of document: PolicyDocument, cache: inout [String: (Table?, [Diagnostic])]
    ) -> (table: Table?, errors: [Diagnostic]) {
        let directory = (document.source.path as NSString).deletingLastPathComponent
        let full = path.hasPrefix("/") || directory.isEmpty ? path : directory + "/" + path
        // Test tables live next to the policy or below it: a policy from a pull request must
        // not read (and echo in diagnostics) files elsewhere on the machine.
        if let outside = Self.outsideTree(full, root: directory.isEmpty ? "." : directory) {
            return (nil, [Diagnostic(
                code: .invalidValue, message: "the test's table '\(path)' is outside the policy's directory (\(outside))",
                file: document.source.path, span: span,
                help: "put test tables next to the policy file or in a folder below it")])
        }
        let entry: (Table?, [Diagnostic])
        if let cached = cache[full] {
            entry = cached
        } else {
            let loaded = TableLoader.load(path: full)
            entry = (loaded.table, loaded.diagnostics)
            cache[full] = entry
        }
        if let table = entry.0 { return (table, []) }
        if entry.1.contains(where: { $0.code == .unreadable }) {
            return (nil, [Diagnostic(code: .unreadable, message: "cannot read the test's table '\(path)' (looked for \(full))",
                                     file: document.source.path, span: span)])
        }
        return (nil, entry.1)
    }

    private static func compare(_ test: PolicyTest, _ outcome: TestOutcome) -> [String] {
        var mismatches: [String] = []
        if outcome.actualWord != test.decision.rawValue {
            mismatches.append("decision: expected \(test.decision.rawValue), got \(outcome.actualWord)")
        }
        if let target = test.target {
            if let decision = outcome.decision {
                if decision.target != target { mismatches.append("target: expected \(target), got \(decision.target)") }
            } else {
                mismatches.append("target: expected \(target), but the move is invalid")
            }
        }
        let violated = Set(outcome.decision?.violations.map(\.rule) ?? [])
        let missing = test.rules.filter { !violated.contains($0) }
        if !missing.isEmpty {
            let got = outcome.decision?.violations.map(\.rule) ?? []
            mismatches.append("rules: expected \(missing.joined(separator: ", ")) among the violations, got \(got.isEmpty ? "none" : got.joined(separator: ", "))")
        }
        return mismatches
    }

    /// Why `path` is not inside the directory `root` once both are resolved (symbolic links,
    /// `..`), or nil when it is inside. A path that does not exist is judged by its folder.
    static func outsideTree(_ path: String, root: String) -> String? {
        guard let base = realPath(root) else { return "the policy's directory cannot be resolved" }
        var target = realPath(path)
        if target == nil, let folder = realPath((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent) {
            target = folder + "/" + (path as NSString).lastPathComponent
        }
        guard let target else {
            // Nothing there to resolve (no links can hide in a missing folder): judge the
            // path as written, made absolute; the loader then says it cannot be read.
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            let normalized = (absolute as NSString).standardizingPath
            return normalized.hasPrefix(base.hasSuffix("/") ? base : base + "/") ? nil : "it resolves to \(normalized)"
        }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return target.hasPrefix(prefix) ? nil : "it resolves to \(target)"
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
