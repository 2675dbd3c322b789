/// One key of a section selector's mapping form (SPEC §8.2), as one unit: how its value is
/// read, written and checked, which sections it matches, and which words and indices it
/// compares sections with. A mapping matches a section when every key does.
///
/// A section's meaning needs no second, symbolic form: the analysis chooses whole sections
/// (their id, kind and tags from the policy's words, their index among the section count), so
/// the one test, ``meaning(_:)``, serves the engine at bind and the analysis alike.
/// ``SectionFilterRegistry/keys`` is the only list of keys.
package protocol SectionFilterKey: Hashable, Sendable {
    /// The key in policy files (`index`, `id`, `not`, ...).
    static var keyword: String { get }
    /// The JSON Schema (2020-12) of the value (may `$ref` ``PolicySchema``'s shared definitions).
    static var valueSchema: String { get }
    /// Reads the value of the selector of `what` (`'section'`), reporting problems through `reader`.
    static func decode<Reader: RuleArgumentReader>(_ value: Reader.Node, in what: String, _ reader: inout Reader) -> Self?

    /// The value as flow YAML that reads back to an equal key.
    var valueYAML: String { get }
    /// Whether no section of any table can match a mapping with this key (`id: []`, `not: all`).
    var selectsNothing: Bool { get }
    /// Whether the section at `site` (its data, its index among `count`) matches.
    func meaning(_ site: SectionSite) -> Bool
    /// For each section of `table`, whether it matches (the engine's form; by default
    /// ``meaning(_:)`` per section).
    func selected(in table: Table) -> [Bool]
    /// Tells `sink` the words and indices the key compares sections with.
    func words<Sink: SectionWordSink>(into sink: inout Sink)
}

extension SectionFilterKey {
    package var selectsNothing: Bool { false }

    package func selected(in table: Table) -> [Bool] {
        let count = table.sections.count
        return table.sections.enumerated().map { meaning(SectionSite(section: $1, index: $0, count: count)) }
    }

    /// Reads the value and wraps it, so the decoder can call a key it knows only by type.
    package static func decodeKey<Reader: RuleArgumentReader>(_ value: Reader.Node, in what: String, _ reader: inout Reader) -> (any SectionFilterKey)? {
        decode(value, in: what, &reader)
    }
}

/// The section attributes a section selector compares with named words.
package enum SectionAttribute: Sendable {
    case id, kind, tag
}

/// Receives what a section selector's keys compare sections with.
package protocol SectionWordSink {
    /// The key compares a section's `attribute` with this list of words.
    mutating func sectionWords(_ attribute: SectionAttribute, _ list: [String])
    /// The key compares a section's index with these (negative: counted from the end).
    mutating func sectionIndices(_ list: [Int])
    /// The key holds a nested section selector (`not`).
    mutating func sectionSelector(_ selector: SectionSelector)
}

/// Every key of a section selector's mapping, in the order SPEC §8.2 lists them.
package enum SectionFilterRegistry {
    package static let keys: [any SectionFilterKey.Type] = [
        SectionIndexKey.self,
        SectionIDKey.self,
        SectionKindKey.self,
        SectionTagKey.self,
        SectionNotKey.self,
    ]

    /// The key with this keyword, if any.
    package static func key(_ keyword: String) -> (any SectionFilterKey.Type)? {
        keys.first { $0.keyword == keyword }
    }

    static func rank(_ type: any SectionFilterKey.Type) -> Int {
        keys.firstIndex { $0 == type } ?? keys.count
    }
}
