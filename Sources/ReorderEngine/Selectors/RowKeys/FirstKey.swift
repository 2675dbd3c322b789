/// `first: N` (SPEC §2.1): the row's index is below N.
package struct FirstKey: RowSelectorKey {
    package var count: Int

    package init(count: Int) { self.count = count }

    package static let keyword = "first"
    package static let exclusiveGroup: String? = "position"
    package static let valueSchema = ##"{ "$ref": "#/$defs/count" }"##

    package static func decode<Reader: RuleArgumentReader>(_ value: Reader.Node, in context: String, _ reader: inout Reader) -> Self? {
        reader.integer(value, "'first'", minimum: 1).map { Self(count: $0) }
    }

    package var valueYAML: String { String(count) }
    package var selectsNothing: Bool { count <= 0 }
    package var countsFromEnd: Bool { false }
    package var form: RowSelectorKeyForm { .position(.first(count)) }

    package func validate() throws(PolicyError) {
        guard count >= 1 else { throw PolicyError("first and last need a count of at least 1") }
    }

    package func bind(_ table: Table) -> RowKeyTest {
        let count = count
        return { _, k, _, _ in (k < count, false) }
    }

    package func meaning(_ site: RowSite, _ row: PartialRow) -> (matches: Tri, fromEnd: Bool) {
        (Tri(site.k < count), false)
    }

    package func words<Sink: SelectorWordSink>(into sink: inout Sink) { sink.rowThresholds([count]) }
}
