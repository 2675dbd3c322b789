import Synchronization

/// Stops an analysis its caller no longer needs: the language server cancels the analysis of
/// a text that has changed since (docs/EDITORS.md). Bound for the analysis's duration with
/// `AnalysisCancellation.$current.withValue(token) { PolicyAnalyzer.analyze(…) }`; every search
/// reads it once when it starts and then counts a cancelled analysis as out of work, so it
/// stops within a work unit's time and its findings (incomplete) are for no one.
package final class AnalysisCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    package init() {}

    /// Stops the analysis that runs with this token.
    package func cancel() { flag.store(true, ordering: .relaxed) }

    /// Whether ``cancel()`` was called.
    package var isCancelled: Bool { flag.load(ordering: .relaxed) }

    /// The token of the analysis running on this thread, if its caller gave one.
    @TaskLocal package static var current: AnalysisCancellation?
}
