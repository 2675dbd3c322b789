/// The limits SPEC §4 puts on every file; enforced while reading, before anything is built.
public struct YAMLLimits: Sendable, Hashable {
    /// Deepest allowed nesting of sequences and mappings (the root collection is depth 1).
    public var maxDepth: Int
    /// Largest allowed file, in bytes.
    public var maxBytes: Int
    /// How many YAML-level errors to collect before giving up on a file.
    public var maxErrors: Int

    /// Creates limits.
    public init(maxDepth: Int = 64, maxBytes: Int = 8 * 1024 * 1024, maxErrors: Int = 20) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
        self.maxErrors = maxErrors
    }

    /// SPEC §4: depth 64, 8 MiB.
    public static let policy = YAMLLimits()
    /// Moves files are streamed, not built into a tree, so they may be large.
    public static let stream = YAMLLimits(maxBytes: Int.max)
}
