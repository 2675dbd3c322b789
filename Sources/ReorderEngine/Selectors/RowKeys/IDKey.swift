/// `id: <strings>` (SPEC §2.1): the row's id is listed.
package struct IDKey: WordListKey {
    package var words: [String]

    package init(_ words: [String]) { self.words = words }

    package static let keyword = "id"
    package static let attribute = RowAttribute.id
    package var form: RowSelectorKeyForm { .ids(words) }

    package static func holds(_ row: PartialRow, _ words: [String]) -> Tri { row.hasID(in: words) }

    package func bind(_ table: Table) -> RowKeyTest {
        let set = Set(words)
        return { _, _, _, row in (set.contains(row.pointee.id), false) }
    }
}
