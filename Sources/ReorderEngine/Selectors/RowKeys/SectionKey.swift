/// `section: <section selector>` (SPEC §2.1): the row's section is one the selector selects.
package struct SectionKey: RowSelectorKey {
    package var sections: SectionSelector

    package init(_ sections: SectionSelector) { self.sections = sections }

    package static let keyword = "section"
    package static let valueSchema = ##"{ "$ref": "#/$defs/sectionSelector" }"##

    package static func decode<Reader: RuleArgumentReader>(_ value: Reader.Node, in context: String, _ reader: inout Reader) -> Self? {
        reader.sectionSelector(value, "'section'").map(Self.init)
    }

    package var valueYAML: String { sections.flowYAML }
    package var selectsNothing: Bool { sections.selectsNothing }
    package var countsFromEnd: Bool { false }
    package var form: RowSelectorKeyForm { .section(sections) }

    package func bind(_ table: Table) -> RowKeyTest {
        let chosen = sections.selected(in: table)
        return { u, _, _, _ in (chosen[u], false) }
    }

    package func meaning(_ site: RowSite, _ row: PartialRow) -> (matches: Tri, fromEnd: Bool) {
        (Tri(site.section.selected(by: sections)), false)
    }

    package func words<Sink: SelectorWordSink>(into sink: inout Sink) { sink.sectionSelector(sections) }
}
