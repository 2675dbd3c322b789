/// A key that lists words of one row attribute (`id`, `kind`, `tag`): what the three share.
package protocol WordListKey: RowSelectorKey {
    /// The attribute the words are compared with.
    static var attribute: RowAttribute { get }
    /// The listed words (`[]` selects no row).
    var words: [String] { get }
    init(_ words: [String])
    /// Whether the row's attribute is among `words`, in three-valued logic.
    static func holds(_ row: PartialRow, _ words: [String]) -> Tri
}

extension WordListKey {
    package static var valueSchema: String { ##"{ "$ref": "#/$defs/strings" }"## }

    package static func decode<Reader: RuleArgumentReader>(_ value: Reader.Node, in context: String, _ reader: inout Reader) -> Self? {
        reader.strings(value, "'\(keyword)'").map(Self.init)
    }

    package var valueYAML: String { FlowYAML.list(words) }
    package var selectsNothing: Bool { words.isEmpty }
    package var countsFromEnd: Bool { false }

    package func meaning(_ site: RowSite, _ row: PartialRow) -> (matches: Tri, fromEnd: Bool) {
        (Self.holds(row, words), false)
    }

    package func words<Sink: SelectorWordSink>(into sink: inout Sink) { sink.rowWords(Self.attribute, words) }
}
