import SpannedYAML
import Foundation

extension Diagnostic: CustomStringConvertible {
    /// The diagnostic as `lint` prints it without a code frame:
    /// `file:line:col: error[code]: message`, then its notes and help.
    public var description: String { DiagnosticRenderer.text(self, source: nil, style: .plain) }
}

extension Diagnostic: LocalizedError {
    public var errorDescription: String? { description }
}

/// A policy that could not be loaded: every error and warning of its file, in file order.
/// Thrown by ``PolicyLoader/compile(text:path:)`` and ``PolicyDocument/compile()``.
public struct PolicyLoadError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The file's diagnostics (at least one error).
    public var diagnostics: [Diagnostic]

    /// Creates an error.
    public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    /// Every diagnostic as `lint` prints it, one block each.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n\n") }
    public var errorDescription: String? { description }
}

extension PolicyDocument {
    /// The compiled policy, or the file's diagnostics as an error.
    public func compile() throws(PolicyLoadError) -> CompiledPolicy {
        guard !hasErrors, let policy else {
            throw PolicyLoadError(diagnostics: diagnostics.isEmpty ? [Self.noPolicy(source.path)] : diagnostics)
        }
        if let compiledPolicy { return compiledPolicy }
        do {
            return try CompiledPolicy(policy)
        } catch {
            // The loader checks everything CompiledPolicy does; reaching this is a bug, reported, not swallowed.
            throw PolicyLoadError(diagnostics: [Diagnostic(code: .invalidValue, message: error.message, file: source.path,
                                                           span: Span(at: .start))])
        }
    }

    /// The compiled policy, or nil exactly when ``compile()`` throws; use that to get the
    /// reasons (for a file with errors they are also in ``diagnostics``).
    public func compiled() -> CompiledPolicy? {
        do {
            return try compile()
        } catch {
            return nil
        }
    }

    private static func noPolicy(_ path: String) -> Diagnostic {
        Diagnostic(code: .missingKey, message: "the file holds no policy", file: path, span: Span(at: .start))
    }
}

extension PolicyLoader {
    /// Loads and compiles a policy from text in one step, throwing its diagnostics on errors:
    /// `let policy = try PolicyLoader.compile(text: stored)`.
    public static func compile(text: String, path: String = "<policy>") throws(PolicyLoadError) -> CompiledPolicy {
        try load(text: text, path: path).compile()
    }
}
