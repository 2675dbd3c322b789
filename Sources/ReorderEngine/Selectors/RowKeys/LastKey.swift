/// `last: N` (SPEC §2.1): the row is among the last N of its section, counted from the end
/// (so a pin of it keeps its distance from the end by default, SPEC §7).
package struct LastKey: RowSelectorKey {
    package var count: Int

    package init(count: Int) { self.count = count }

    package static let keyword = "last"
    package static let exclusiveGroup: String? = "position"
    package static let valueSchema = ##"{ "$ref": "#/$defs/count" }"##

    package static func decode<Reader: RuleArgumentReader>(_ value: Reader.Node, in context: String, _ reader: inout Reader) -> Self? {
        reader.integer(value, "'last'", minimum: 1).map { Self(count: $0) }
    }

    package var valueYAML: String { String(count) }
    package var selectsNothing: Bool { count <= 0 }
    package var countsFromEnd: Bool { true }
    package var form: RowSelectorKeyForm { .position(.last(count)) }

    package func validate() throws(PolicyError) {
        guard count >= 1 else { throw PolicyError("first and last need a count of at least 1") }
    }

    package func bind(_ table: Table) -> RowKeyTest {
        let count = count
        return { _, k, n, _ in
            let hit = k >= n - count
            return (hit, hit)
        }
    }

    package func meaning(_ site: RowSite, _ row: PartialRow) -> (matches: Tri, fromEnd: Bool) {
        let hit = site.k >= site.n - count
        return (Tri(hit), hit)
    }

    package func words<Sink: SelectorWordSink>(into sink: inout Sink) { sink.rowThresholds([count]) }
}
