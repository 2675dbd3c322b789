import SpannedYAML
/// How large the tables analysed by `lint` are.
public struct AnalysisBound: Sendable, Hashable, CustomStringConvertible {
    /// Most sections in a table.
    public var sections: Int
    /// Most rows in a section.
    public var rows: Int

    /// Creates a bound.
    public init(sections: Int, rows: Int) {
        self.sections = sections
        self.rows = rows
    }

    /// Up to 3 sections of up to 4 rows.
    public static let standard = AnalysisBound(sections: 3, rows: 4)

    /// `3x4`.
    public var description: String { "\(sections)x\(rows)" }

    /// Parses `SxR`, e.g. `3x4`.
    public init?(_ text: String) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let s = Int(parts[0]), let r = Int(parts[1]), (1...6).contains(s), (1...8).contains(r) else { return nil }
        self.init(sections: s, rows: r)
    }
}
