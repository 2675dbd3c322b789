/// A section key that lists words of one attribute (`id`, `kind`, `tag`): what the three share.
package protocol SectionWordListKey: SectionFilterKey {
    static var attribute: SectionAttribute { get }
    var words: [String] { get }
    init(_ words: [String])
    /// Whether `section`'s attribute is among `words`.
    static func holds(_ section: Section, _ words: Set<String>) -> Bool
}

extension SectionWordListKey {
    package static var valueSchema: String { ##"{ "$ref": "#/$defs/strings" }"## }

    package static func decode<Reader: RuleArgumentReader>(_ value: Reader.Node, in what: String, _ reader: inout Reader) -> Self? {
        reader.strings(value, "'\(keyword)'").map(Self.init)
    }

    package var valueYAML: String { FlowYAML.list(words) }
    package var selectsNothing: Bool { words.isEmpty }
    package func meaning(_ site: SectionSite) -> Bool { Self.holds(site.section, Set(words)) }

    package func selected(in table: Table) -> [Bool] {
        let set = Set(words)
        return table.sections.map { Self.holds($0, set) }
    }

    package func words<Sink: SectionWordSink>(into sink: inout Sink) { sink.sectionWords(Self.attribute, words) }
}

/// `id: <strings>` in a section mapping: the section has an id, and it is listed.
package struct SectionIDKey: SectionWordListKey {
    package var words: [String]
    package init(_ words: [String]) { self.words = words }
    package static let keyword = "id"
    package static let attribute = SectionAttribute.id
    package static func holds(_ section: Section, _ words: Set<String>) -> Bool { section.id.map(words.contains) ?? false }
}

/// `kind: <strings>` in a section mapping: the section has a kind, and it is listed.
package struct SectionKindKey: SectionWordListKey {
    package var words: [String]
    package init(_ words: [String]) { self.words = words }
    package static let keyword = "kind"
    package static let attribute = SectionAttribute.kind
    package static func holds(_ section: Section, _ words: Set<String>) -> Bool { section.kind.map(words.contains) ?? false }
}

/// `tag: <strings>` in a section mapping: the section has at least one of the listed tags.
package struct SectionTagKey: SectionWordListKey {
    package var words: [String]
    package init(_ words: [String]) { self.words = words }
    package static let keyword = "tag"
    package static let attribute = SectionAttribute.tag
    package static func holds(_ section: Section, _ words: Set<String>) -> Bool { section.tags.contains(where: words.contains) }
}
