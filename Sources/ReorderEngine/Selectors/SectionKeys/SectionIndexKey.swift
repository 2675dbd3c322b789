/// `index: k` or `index: [k, ...]` in a section mapping (SPEC §8.2): the section's index is
/// listed; a negative entry counts from the end (`-1` is the last section).
package struct SectionIndexKey: SectionFilterKey {
    package var indices: [Int]

    package init(_ indices: [Int]) { self.indices = indices }

    package static let keyword = "index"
    package static let valueSchema = #"{ "oneOf": [ { "type": "integer" }, { "type": "array", "items": { "type": "integer" } } ] }"#

    package static func decode<Reader: RuleArgumentReader>(_ value: Reader.Node, in what: String, _ reader: inout Reader) -> Self? {
        reader.integers(value, "'index'").map(Self.init)
    }

    package var valueYAML: String { FlowYAML.integers(indices) }
    package var selectsNothing: Bool { indices.isEmpty }

    package func meaning(_ site: SectionSite) -> Bool {
        indices.contains { ($0 < 0 ? site.count + $0 : $0) == site.index }
    }

    package func selected(in table: Table) -> [Bool] {
        let count = table.sections.count
        var listed = [Bool](repeating: false, count: count)
        for i in indices {
            let r = i < 0 ? count + i : i
            if r >= 0 && r < count { listed[r] = true }
        }
        return listed
    }

    package func words<Sink: SectionWordSink>(into sink: inout Sink) { sink.sectionIndices(indices) }
}
