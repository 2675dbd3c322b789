/// `index: k` or `index: [k, ...]` (SPEC §2.1): the row's index is listed; a negative entry
/// counts from the end (`-1` is the last row), and a row it selects is selected through the end.
package struct IndexKey: RowSelectorKey {
    package var indices: [Int]

    package init(indices: [Int]) { self.indices = indices }

    package static let keyword = "index"
    package static let exclusiveGroup: String? = "position"
    package static let valueSchema = #"{ "oneOf": [ { "type": "integer" }, { "type": "array", "items": { "type": "integer" } } ] }"#

    package static func decode<Reader: RuleArgumentReader>(_ value: Reader.Node, in context: String, _ reader: inout Reader) -> Self? {
        reader.integers(value, "'index'").map { Self(indices: $0) }
    }

    package var valueYAML: String { FlowYAML.integers(indices) }
    package var selectsNothing: Bool { indices.isEmpty }
    package var countsFromEnd: Bool { indices.contains { $0 < 0 } }
    package var form: RowSelectorKeyForm { .position(.indices(indices)) }

    /// Whether index `k` of `n` is listed, and whether through a negative entry.
    @inline(__always)
    static func hit(_ indices: [Int], _ k: Int, _ n: Int) -> (matches: Bool, fromEnd: Bool) {
        var matched = false, fromEnd = false
        for i in indices {
            if i >= 0 {
                if i == k { matched = true }
            } else if n + i == k {
                matched = true
                fromEnd = true
            }
        }
        return (matched, fromEnd)
    }

    package func bind(_ table: Table) -> RowKeyTest {
        let indices = indices
        return { _, k, n, _ in Self.hit(indices, k, n) }
    }

    package func meaning(_ site: RowSite, _ row: PartialRow) -> (matches: Tri, fromEnd: Bool) {
        let (matched, fromEnd) = Self.hit(indices, site.k, site.n)
        return (Tri(matched), fromEnd)
    }

    package func words<Sink: SelectorWordSink>(into sink: inout Sink) {
        sink.rowThresholds(indices.flatMap { $0 < 0 ? [-$0 - 1, -$0] : [$0, $0 + 1] })
    }
}
