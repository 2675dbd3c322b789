import SpannedYAML
/// A policy file after loading: the policy (when it has no errors), its tests, and every diagnostic.
public struct PolicyDocument: Sendable {
    /// The file.
    public var source: SourceFile
    /// The policy, or nil when the file has errors.
    public var policy: Policy? {
        didSet { compiledPolicy = Self.compiled(policy) }
    }
    /// The policy compiled, once, when it is loaded or set (nil without a policy, or when it
    /// does not compile): `compile()`, the analysis and the playground share it.
    package private(set) var compiledPolicy: CompiledPolicy?
    /// The policy's tests, in file order.
    public var tests: [PolicyTest]
    /// Every error and warning, sorted by position.
    public var diagnostics: [Diagnostic]
    /// Whether the file's top level is a mapping with a `reorder-policy` key.
    public var declaresPolicy: Bool
    /// Analysis warnings acknowledged by waiver comments (filled by ``Linter``).
    public var suppressed: [SuppressedFinding] = []

    /// True when any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Creates a document.
    public init(source: SourceFile, policy: Policy?, tests: [PolicyTest], diagnostics: [Diagnostic], declaresPolicy: Bool) {
        self.source = source
        self.policy = policy
        self.tests = tests
        self.diagnostics = diagnostics
        self.declaresPolicy = declaresPolicy
        compiledPolicy = Self.compiled(policy)
    }

    private static func compiled(_ policy: Policy?) -> CompiledPolicy? {
        policy.flatMap { try? CompiledPolicy($0) }
    }
}

/// Loads policy files: YAML → nodes → policy model, collecting every diagnostic.
public enum PolicyLoader {
    /// The keys a policy file may have at its top level.
    package static var topLevelKeys: [String] { PolicyDecoder.topKeys }

    /// Loads the policy at `path`. Unreadable paths throw; everything else becomes diagnostics.
    public static func load(path: String) throws(SourceFile.ReadError) -> PolicyDocument {
        do {
            return load(try SourceFile.read(path))
        } catch {
            if case .tooLarge(let d) = error {
                return PolicyDocument(source: SourceFile(path: path, bytes: []), policy: nil, tests: [], diagnostics: [d], declaresPolicy: true)
            }
            throw error
        }
    }

    /// Loads a policy from text, e.g. one stored in a database.
    public static func load(text: String, path: String = "<policy>") -> PolicyDocument {
        load(SourceFile(path: path, text: text))
    }

    /// Loads a policy from a source file already in memory.
    public static func load(_ source: SourceFile) -> PolicyDocument {
        let parsed = YAMLDocument.parse(source.bytes, file: source.path)
        var decoder = PolicyDecoder(file: source.path)
        var policy: Policy? = nil
        var tests: [PolicyTest] = []
        var declares = false
        if let root = parsed.root {
            declares = root.mapping?.contains { $0.name == "reorder-policy" } ?? false
            (policy, tests) = decoder.decode(root)
        } else {
            // Unreadable YAML: call it a policy if the text says so, for directory walks.
            declares = String(decoding: source.bytes.prefix(65_536), as: UTF8.self)
                .split(separator: "\n").contains { $0.hasPrefix("reorder-policy") }
        }
        let diagnostics = Diagnostic.sorted(parsed.diagnostics + decoder.diagnostics)
        let failed = diagnostics.contains { $0.severity == .error }
        return PolicyDocument(source: source, policy: failed ? nil : policy, tests: failed ? [] : tests,
                              diagnostics: diagnostics, declaresPolicy: declares)
    }
}
