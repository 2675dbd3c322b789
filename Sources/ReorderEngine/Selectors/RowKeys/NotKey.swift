/// `not: <row selector>` (SPEC §8.1): the row is not one the nested selector selects. Keys
/// inside it never make a row selected through the end.
package struct NotKey: RowSelectorKey {
    package var excluded: RowSelector

    package init(_ excluded: RowSelector) { self.excluded = excluded }

    package static let keyword = "not"
    package static let valueSchema = ##"{ "$ref": "#/$defs/rowSelector" }"##

    package static func decode<Reader: RuleArgumentReader>(_ value: Reader.Node, in context: String, _ reader: inout Reader) -> Self? {
        reader.rowSelector(value, for: "'not' in \(context)").map(Self.init)
    }

    package var valueYAML: String { excluded.flowYAML }
    package func validate() throws(PolicyError) { try excluded.validate() }
    package var selectsNothing: Bool { excluded == .all }
    package var countsFromEnd: Bool { false }
    package var form: RowSelectorKeyForm { .not(excluded) }

    package func bind(_ table: Table) -> RowKeyTest {
        let test = excluded.bind(table)
        return { u, k, n, row in (!test(u, k, n, row).matches, false) }
    }

    package func meaning(_ site: RowSite, _ row: PartialRow) -> (matches: Tri, fromEnd: Bool) {
        (!site.match(excluded, row).matches, false)
    }

    package func words<Sink: SelectorWordSink>(into sink: inout Sink) { sink.rowSelector(excluded, negated: true) }
}
