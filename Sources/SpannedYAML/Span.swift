/// A position in a source file: 1-based line and column (in Unicode scalars), and a 0-based
/// offset: libyaml's index, counted in Unicode scalars like the column (a reader error's
/// position, which libyaml gives in bytes, is the one exception).
public struct Mark: Sendable, Hashable, Comparable {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, counted in Unicode scalars as libyaml counts them.
    public var column: Int
    /// 0-based offset into the file in Unicode scalars (libyaml's `index`).
    public var offset: Int

    /// Creates a mark.
    public init(line: Int, column: Int, offset: Int = 0) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// The start of a file.
    public static let start = Mark(line: 1, column: 1, offset: 0)

    public static func < (a: Mark, b: Mark) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// The extent of a node in its file: where it starts and where it ends (exclusive).
public struct Span: Sendable, Hashable {
    /// Where the node starts.
    public var start: Mark
    /// Just past the node's last character.
    public var end: Mark

    /// Creates a span.
    public init(start: Mark, end: Mark) {
        self.start = start
        self.end = end
    }

    /// A zero-width span at `mark`.
    public init(at mark: Mark) {
        self.start = mark
        self.end = mark
    }
}
