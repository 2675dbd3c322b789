import SpannedYAML
extension DiagnosticCode {
    // Analysis warnings (`lint`), found by trying every move on every small table.
    /// A `lock` whose rows other moves can shift.
    public static let lockDisplaced: Self = "lock-displaced"
    /// A rule that changes no decision on any table analysed.
    public static let deadRule: Self = "dead-rule"
    /// A selector that selects nothing on any table analysed.
    public static let neverSelects: Self = "never-selects"
    /// A section that takes no row from elsewhere although a `capacity.max` expects some.
    public static let closedSection: Self = "closed-section"
    /// `capacity` with `min` above `max`.
    public static let capacityConflict: Self = "capacity-conflict"
    /// A row pinned to both ends by different rules.
    public static let conflictingAnchors: Self = "conflicting-anchors"
    /// Rows that are not held but can never move anywhere.
    public static let stuckRow: Self = "stuck-row"
    /// The analysis ran out of its time budget before trying every table.
    public static let analysisBudget: Self = "analysis-budget"
}

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
