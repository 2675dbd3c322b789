/// A long-press drag in progress, for list views that reorder without touching their data
/// source until the drop (as UITableView+Reorder-style categories do).
///
/// Each ``hover(_:)`` asks the policy where the row may land; the session then shows the
/// table as if the row were already there: the destination section displays one more row,
/// the source one fewer, and the moving row's slot is a placeholder. ``dataSourcePosition(forVisible:)``
/// maps what the view shows back to the data source, and ``drop()`` gives the one move to apply.
public struct DragSession: Sendable {
    /// The bound policy deciding every hover.
    public let bound: BoundPolicy
    /// Where the dragged row is in the data source.
    public let source: Position
    /// Where the row would land now: the placeholder's visible position.
    public private(set) var target: Position

    /// Starts a drag, or nil when the row cannot be picked up (or does not exist).
    public init?(bound: BoundPolicy, source: Position) {
        guard bound.canMove(source) else { return nil }
        self.bound = bound
        self.source = source
        target = source
    }

    /// The row hovers over `proposed`: returns (and shows) where the policy lets it land.
    @discardableResult
    public mutating func hover(_ proposed: Position) -> Position {
        target = bound.target(from: source, proposed: proposed)
        return target
    }

    /// Puts the row back where it was.
    public mutating func cancel() { target = source }

    /// The move to apply to the data source, or nil when the row ends where it started.
    public func drop() -> Move? {
        target == source ? nil : .row(from: source, to: target)
    }

    /// How many rows section `section` shows while the row hovers at ``target``.
    public func displayedRowCount(section: Int) -> Int {
        var n = bound.counts[section]
        if source.section != target.section {
            if section == source.section { n -= 1 }
            if section == target.section { n += 1 }
        }
        return n
    }

    /// Whether the visible row at `visible` is the placeholder for the dragged row.
    public func isPlaceholder(_ visible: Position) -> Bool { visible == target }

    /// The data source position of the row shown at `visible` (the source for the placeholder),
    /// or nil when nothing is shown there.
    public func dataSourcePosition(forVisible visible: Position) -> Position? {
        guard visible.section >= 0, visible.section < bound.sectionCount,
              visible.row >= 0, visible.row < displayedRowCount(section: visible.section) else { return nil }
        if visible == target { return source }
        // Undo the insertion at the target, then the removal at the source.
        var row = visible.row
        if visible.section == target.section && row > target.row { row -= 1 }
        if visible.section == source.section && row >= source.row { row += 1 }
        return Position(section: visible.section, row: row)
    }
}
