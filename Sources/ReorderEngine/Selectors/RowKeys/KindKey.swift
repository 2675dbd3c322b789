/// `kind: <strings>` (SPEC §2.1): the row has a kind, and it is listed.
package struct KindKey: WordListKey {
    package var words: [String]

    package init(_ words: [String]) { self.words = words }

    package static let keyword = "kind"
    package static let attribute = RowAttribute.kind
    package var form: RowSelectorKeyForm { .kinds(words) }

    package static func holds(_ row: PartialRow, _ words: [String]) -> Tri { row.hasKind(in: words) }

    package func bind(_ table: Table) -> RowKeyTest {
        let set = Set(words)
        return { _, _, _, row in (row.pointee.kind.map(set.contains) ?? false, false) }
    }
}
