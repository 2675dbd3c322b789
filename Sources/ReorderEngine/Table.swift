/// A row's address: section index and row index, both 0-based. Printed `s.r`.
public struct Position: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The section index.
    public var section: Int
    /// The row index within the section.
    public var row: Int

    /// Creates a position.
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// `s.r`, as on the command line; `[s, r]`, as in a moves file, when either is negative
    /// (`0.-1` reads as a typo).
    public var description: String { section < 0 || row < 0 ? "[\(section), \(row)]" : "\(section).\(row)" }

    public static func < (a: Position, b: Position) -> Bool {
        (a.section, a.row) < (b.section, b.row)
    }
}

/// A row of a table: an id, an optional kind and tags. Rows are identified by position;
/// ids need not be unique.
public struct Row: Hashable, Sendable {
    /// The row's id.
    public var id: String
    /// The row's kind, if any.
    public var kind: String?
    /// The row's tags.
    public var tags: [String]

    /// Creates a row.
    public init(id: String, kind: String? = nil, tags: [String] = []) {
        self.id = id
        self.kind = kind
        self.tags = tags
    }
}

/// A section: an optional id, optional kind, tags and integer attributes (SPEC §8.2), and its rows.
public struct Section: Hashable, Sendable {
    /// The section's id, if any.
    public var id: String?
    /// The section's kind, if any (`bucket`, `pool`, ...).
    public var kind: String?
    /// The section's tags.
    public var tags: [String]
    /// Named non-negative integers that rules may read, such as a WIP limit (`capacity`'s
    /// `{ attribute: NAME }` bounds).
    public var attributes: [String: Int]
    /// The rows in order.
    public var rows: [Row]

    /// Creates a section.
    public init(id: String? = nil, kind: String? = nil, tags: [String] = [], attributes: [String: Int] = [:], rows: [Row]) {
        self.id = id
        self.kind = kind
        self.tags = tags
        self.attributes = attributes
        self.rows = rows
    }

    /// Creates a section whose rows are given by id only.
    public init(id: String? = nil, kind: String? = nil, tags: [String] = [], attributes: [String: Int] = [:], rowIDs: [String]) {
        self.init(id: id, kind: kind, tags: tags, attributes: attributes, rows: rowIDs.map { Row(id: $0) })
    }
}

/// A sectioned list: the thing being reordered.
public struct Table: Hashable, Sendable {
    /// The sections in order.
    public var sections: [Section]

    /// Creates a table.
    public init(sections: [Section]) {
        self.sections = sections
    }

    /// The row at `position`, if it exists.
    public func row(at position: Position) -> Row? {
        guard sections.indices.contains(position.section) else { return nil }
        let rows = sections[position.section].rows
        return rows.indices.contains(position.row) ? rows[position.row] : nil
    }

    /// Checks that `move` is a valid proposal for this table (SPEC §1).
    public func validate(_ move: Move) throws(MoveError) {
        try Self.validate(move, sections: sections.count) { sections[$0].rows.count }
    }

    /// Checks `move` against a table of `count` sections whose section `u` holds `rows(u)` rows
    /// (a bound policy's counts, which stay current when it follows moves).
    @inline(__always)
    static func validate(_ move: Move, sections count: Int, rows: (Int) -> Int) throws(MoveError) {
        switch move {
        case .row(let from, let to):
            guard from.section >= 0, from.section < count else {
                throw MoveError("source section \(from.section) does not exist; the table has \(count) section\(count == 1 ? "" : "s")")
            }
            let n = rows(from.section)
            guard from.row >= 0, from.row < n else {
                throw MoveError("source row \(from) does not exist; section \(from.section) has \(n) row\(n == 1 ? "" : "s")")
            }
            guard to.section >= 0, to.section < count else {
                throw MoveError("destination section \(to.section) does not exist; the table has \(count) section\(count == 1 ? "" : "s")")
            }
            let limit = to.section == from.section ? n - 1 : rows(to.section)
            guard to.row >= 0, to.row <= limit else {
                throw MoveError("destination \(to) is out of range; rows in section \(to.section) can be dropped at 0...\(limit)")
            }
        case .section(let from, let to):
            guard from >= 0, from < count else {
                throw MoveError("section \(from) does not exist; the table has \(count) section\(count == 1 ? "" : "s")")
            }
            guard to >= 0, to < count else {
                throw MoveError("destination section index \(to) is out of range; it must be in 0...\(count - 1)")
            }
        }
    }

    /// The table after `move`: remove, then insert (never an exchange).
    public func applying(_ move: Move) throws(MoveError) -> Table {
        var copy = self
        try copy.apply(move)
        return copy
    }

    /// Applies `move` in place (SPEC §1): no copy of the table when it is not shared, so a
    /// long run of moves costs the moves, not a copy of every row per move.
    public mutating func apply(_ move: Move) throws(MoveError) {
        try validate(move)
        switch move {
        case .row(let from, let to):
            let row = sections[from.section].rows.remove(at: from.row)
            sections[to.section].rows.insert(row, at: to.row)
        case .section(let from, let to):
            let section = sections.remove(at: from)
            sections.insert(section, at: to)
        }
    }
}

/// A proposed move: a row from one position to another, or a whole section.
///
/// Destinations count positions **after** the removal (UIKit's `moveRowAt:to:`).
public enum Move: Hashable, Sendable {
    /// Move the row at `from` so that it ends up at `to`.
    case row(from: Position, to: Position)
    /// Move section `from` so that it ends up at index `to`.
    case section(from: Int, to: Int)
}

/// A proposal that does not fit the table (SPEC §1): the result is `invalid`.
public struct MoveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, in plain words.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
