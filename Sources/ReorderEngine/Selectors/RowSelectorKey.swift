/// One key of a row selector's mapping form (SPEC §2.1, §8.1), as one unit (ARCHITECTURE.md,
/// "How to add a selector form"): how its value is read, written and checked, which rows it
/// matches on a real table, what it means to the exact analysis on an abstract row, and which
/// words and positions it makes matter. A mapping matches a row when every key does.
///
/// The registry (``RowSelectorRegistry/keys``) is the only list of keys: the decoder, the JSON
/// Schema, the flow YAML writer, the engine's matching and the analysis all read it, so a key
/// added there cannot be missed by any of them.
package protocol RowSelectorKey: Hashable, Sendable {
    /// The key in policy files (`first`, `id`, `not`, ...).
    static var keyword: String { get }
    /// Keys that cannot be combined in one mapping share a group (`first`, `last` and `index`
    /// share "position"); nil for a key that combines with every other.
    static var exclusiveGroup: String? { get }
    /// The JSON Schema (2020-12) of the value; `#/$defs/...` may name ``PolicySchema``'s shared
    /// definitions (`sectionSelector`, `rowSelector`, `count`, `strings`).
    static var valueSchema: String { get }
    /// Reads the value of the selector of `context` (`lock`, an item of `accept`'s `rows`),
    /// reporting every problem through `reader`; nil after a problem.
    static func decode<Reader: RuleArgumentReader>(_ value: Reader.Node, in context: String, _ reader: inout Reader) -> Self?

    /// The value as flow YAML that reads back to an equal key.
    var valueYAML: String { get }
    /// Checks a key built in code (the loader reports the same problems with locations).
    func validate() throws(PolicyError)
    /// Whether no row of any table can match a mapping with this key (`id: []`): the analysis
    /// says so about the rule before anything else.
    var selectsNothing: Bool { get }

    /// The concrete meaning on one table: a test of row `k` of `n` rows in section `u`, and
    /// whether the key selects it through the end (which makes a pin's default anchor `end`,
    /// SPEC §7). Built once per rule per bind. The engine's fast paths read the built-in keys
    /// through ``RowSelectorKeyForm`` instead; this is what every other key is matched with.
    func bind(_ table: Table) -> RowKeyTest
    /// The symbolic meaning (docs/ANALYSIS.md, "Abstract rows and sections"): whether a row at
    /// `site`, whose id, kind and tags are chosen so far as `row` says, matches, in three-valued
    /// logic; and whether it does so through the end.
    func meaning(_ site: RowSite, _ row: PartialRow) -> (matches: Tri, fromEnd: Bool)
    /// Tells `sink` the words and positions the key compares rows with: the analysis builds its
    /// abstract rows from them, so a key that hides a word from the sink is a false "never".
    func words<Sink: SelectorWordSink>(into sink: inout Sink)
    /// Whether ``meaning(_:_:)`` or ``bind(_:)`` can ever say "through the end" (`last`, a
    /// negative `index`): a pin of a selector none of whose keys can is anchored at the start.
    var countsFromEnd: Bool { get }
    /// What the engine's fast paths know the key as; `.other` (the default) for a key they do
    /// not know, which is matched row by row through ``bind(_:)``.
    var form: RowSelectorKeyForm { get }
}

extension RowSelectorKey {
    package static var exclusiveGroup: String? { nil }
    package func validate() throws(PolicyError) {}
    package var selectsNothing: Bool { false }
    package var form: RowSelectorKeyForm { .other }
}

extension RowSelectorKey {
    /// Reads the value and wraps it, so the decoder can call a key it knows only by type.
    package static func decodeKey<Reader: RuleArgumentReader>(_ value: Reader.Node, in context: String, _ reader: inout Reader) -> (any RowSelectorKey)? {
        decode(value, in: context, &reader)
    }
}

/// A key's concrete test on one table: row `k` of `n` in section `u`.
package typealias RowKeyTest = (_ u: Int, _ k: Int, _ n: Int, _ row: UnsafePointer<Row>) -> (matches: Bool, fromEnd: Bool)

/// The built-in keys as the engine's fast paths know them (positions need no look at the rows,
/// ids, kinds and tags are read through the content memo).
package enum RowSelectorKeyForm {
    case section(SectionSelector)
    case position(RowPositionFilter)
    case ids([String])
    case kinds([String])
    case tags([String])
    case not(RowSelector)
    case other
}

/// The row attributes a selector compares with named words.
package enum RowAttribute: Sendable {
    case id, kind, tag
}

/// Receives what a selector's keys compare rows with (``RowSelectorKey/words(into:)``).
package protocol SelectorWordSink {
    /// The key compares a row's `attribute` with this list of words.
    mutating func rowWords(_ attribute: RowAttribute, _ list: [String])
    /// The key compares a row's index or its distance from the end with these thresholds:
    /// rows whose index and distance from the end lie between the same thresholds are alike
    /// (`first: N` → N; `index: k` → k, k + 1; `index: -k` → k - 1, k).
    mutating func rowThresholds(_ thresholds: [Int])
    /// The key selects the row's section with `selector`.
    mutating func sectionSelector(_ selector: SectionSelector)
    /// The key holds a nested row selector; `negated` for `not`.
    mutating func rowSelector(_ selector: RowSelector, negated: Bool)
}

/// Every key of a row selector's mapping, in the order SPEC §2.1 lists them (flow YAML writes
/// them in this order, and `not` last).
package enum RowSelectorRegistry {
    package static let keys: [any RowSelectorKey.Type] = [
        SectionKey.self,
        FirstKey.self,
        LastKey.self,
        IndexKey.self,
        IDKey.self,
        KindKey.self,
        TagKey.self,
        NotKey.self,
    ]

    /// The key with this keyword, if any.
    package static func key(_ keyword: String) -> (any RowSelectorKey.Type)? {
        keys.first { $0.keyword == keyword }
    }

    /// A key's place in ``keys`` (the canonical order of a mapping's keys).
    static func rank(_ type: any RowSelectorKey.Type) -> Int {
        keys.firstIndex { $0 == type } ?? keys.count
    }
}
