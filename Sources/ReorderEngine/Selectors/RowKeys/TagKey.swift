/// `tag: <strings>` (SPEC §2.1): the row has at least one of the listed tags.
package struct TagKey: WordListKey {
    package var words: [String]

    package init(_ words: [String]) { self.words = words }

    package static let keyword = "tag"
    package static let attribute = RowAttribute.tag
    package var form: RowSelectorKeyForm { .tags(words) }

    package static func holds(_ row: PartialRow, _ words: [String]) -> Tri { row.hasTag(in: words) }

    package func bind(_ table: Table) -> RowKeyTest {
        let set = Set(words)
        return { _, _, _, row in (row.pointee.tags.contains(where: set.contains), false) }
    }
}
