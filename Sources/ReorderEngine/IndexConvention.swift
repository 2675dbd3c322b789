/// Converts between the two ways drag-and-drop APIs name a destination.
///
/// - **Final index** (UIKit's `moveRowAt:to:`, this package's moves): where the row ends up,
///   counted after it was removed. Moving row 0 of `A B C` to the end is `0 → 2`.
/// - **Insert-before offset** (SwiftUI's `onMove(perform:)`, the standard library's
///   `moveSubranges(_:to:)`): the gap before which the rows go, counted in the list as it is
///   before anything is removed. Moving row 0 of `A B C` to the end is offset `3`.
///
/// Feeding an offset to an API that wants a final index lands one slot too far whenever the
/// row moves down; these functions do the arithmetic once.
public enum IndexConvention {
    /// The final index of a single row moving within its section from `source` to the gap `offset`.
    public static func finalIndex(source: Int, offset: Int) -> Int {
        offset > source ? offset - 1 : offset
    }

    /// The insert-before offset of a single row moving within its section from `source` to `finalIndex`.
    public static func offset(source: Int, finalIndex: Int) -> Int {
        finalIndex > source ? finalIndex + 1 : finalIndex
    }

    /// The final index of the first row of a block of `sources` moved within one section to the
    /// gap `offset` (SwiftUI's `IndexSet` and `toOffset`): the offset less the moving rows above it.
    public static func finalIndex(sources: [Int], offset: Int) -> Int {
        offset - Set(sources).filter { $0 < offset }.count
    }

    /// The insert-before offset for a block of `sources` whose first row should end up at `finalIndex`.
    public static func offset(sources: [Int], finalIndex: Int) -> Int {
        // The smallest gap whose final index is `finalIndex`: walk up past moving rows.
        var offset = finalIndex
        while IndexConvention.finalIndex(sources: sources, offset: offset) < finalIndex { offset += 1 }
        return offset
    }

    /// A SwiftUI-style move (`fromOffsets`, `toOffset`, within `section`) as a multi-row move.
    public static func move(fromOffsets: [Int], toOffset: Int, section: Int) -> MultiRowMove {
        MultiRowMove(section: section, rows: fromOffsets, to: Position(section: section, row: finalIndex(sources: fromOffsets, offset: toOffset)))
    }
}
