/// A row rule's meaning in the terms of SPEC §2.2, §8 and §12, for the analysis
/// (docs/ANALYSIS.md): which rows it holds, and which moves it refuses. Each rule kind states
/// its own meaning beside its definition; the analysis switches over this closed enum.
package enum RuleMeaning: Hashable, Sendable {
    /// The rows cannot be picked up; with `pins`, no move may change their anchored position
    /// (`anchor` nil: the default, decided row by row, SPEC §7).
    case hold(RowSelector, pins: Bool, anchor: Anchor?)
    /// The first (`.start`) or last (`.end`) `count` rows of each selected section (nil: all)
    /// are pinned at that end.
    case reserve(edge: Anchor, count: Int, sections: SectionSelector?)
    /// Selected moving rows stay in their section.
    case keepInSection(RowSelector)
    /// A move into a guarded section from another needs its source in `from` and its row in `rows`.
    case accept(section: SectionSelector, from: SectionSelector, rows: RowSelector)
    /// Moves between sections keep the counted rows (`rows`, nil: every row) of each selected
    /// section within the bounds; only counted moving rows are limited.
    case capacity(section: SectionSelector, max: CapacityBound?, min: CapacityBound?, rows: RowSelector?)
    /// Rows of the selected sections keep their order.
    case keepOrder(SectionSelector)
    /// A move within a section may not shift a row of another group than the moving row
    /// (SPEC §13.2).
    case keepAmong(KeepAmongRule.Groups)
}

extension RuleMeaning {
    /// Whether rules of this meaning pin rows (pin, reserve): they hold rows at an anchor.
    package var pinsRows: Bool {
        switch self {
        case .hold(_, let pins, _): pins
        case .reserve: true
        case .keepInSection, .accept, .capacity, .keepOrder, .keepAmong: false
        }
    }
}

extension LockRule {
    package var meaning: RuleMeaning { .hold(rows, pins: false, anchor: nil) }
}

extension PinRule {
    package var meaning: RuleMeaning { .hold(rows, pins: true, anchor: anchor) }
}

extension ReserveRule {
    package var meaning: RuleMeaning { .reserve(edge: edge, count: count, sections: section) }
}

extension KeepInSectionRule {
    package var meaning: RuleMeaning { .keepInSection(rows) }
}

extension AcceptRule {
    package var meaning: RuleMeaning { .accept(section: section, from: from, rows: rows) }
}

extension CapacityRule {
    package var meaning: RuleMeaning { .capacity(section: section, max: max, min: min, rows: rows) }
}

extension KeepOrderRule {
    package var meaning: RuleMeaning { .keepOrder(section) }
}

extension KeepAmongRule {
    package var meaning: RuleMeaning { .keepAmong(groups) }
}

extension RowRule.Kind {
    /// The rule's meaning, for the analysis.
    package var meaning: RuleMeaning { unit.meaning }
}
