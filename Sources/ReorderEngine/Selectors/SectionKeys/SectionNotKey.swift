/// `not: <section selector>` in a section mapping (SPEC §8.2): the nested selector does not
/// select the section.
package struct SectionNotKey: SectionFilterKey {
    package var excluded: SectionSelector

    package init(_ excluded: SectionSelector) { self.excluded = excluded }

    package static let keyword = "not"
    package static let valueSchema = ##"{ "$ref": "#/$defs/sectionSelector" }"##

    package static func decode<Reader: RuleArgumentReader>(_ value: Reader.Node, in what: String, _ reader: inout Reader) -> Self? {
        reader.sectionSelector(value, "'not' in \(what)").map(Self.init)
    }

    package var valueYAML: String { excluded.flowYAML }
    package var selectsNothing: Bool { excluded == .all }
    package func meaning(_ site: SectionSite) -> Bool { !site.selected(by: excluded) }
    package func selected(in table: Table) -> [Bool] { excluded.selected(in: table).map { !$0 } }
    package func words<Sink: SectionWordSink>(into sink: inout Sink) { sink.sectionSelector(excluded) }
}
