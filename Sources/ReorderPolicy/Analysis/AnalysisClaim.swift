import SpannedYAML
import ReorderEngine

/// What an analysis finding states, as data (SPEC §10.1): the property, whether it speaks of
/// every table, and the ids of the rules it is about. A `frozen` claim adds the sections it
/// speaks of, its places and the smallest section size it holds from. JSON and SARIF carry
/// it as `claim`, so that an editor or any consumer reads findings without parsing English.
public struct AnalysisClaim: DiagnosticEvidence, Hashable {
    /// The property (SPEC §10): one of `selects-nothing`, `dead`, `admits-nothing`, `frozen`,
    /// `contradictory`, `conflicting-anchors`, `lock-displaced`.
    public enum Property: String, Sendable, Hashable, CaseIterable {
        case selectsNothing = "selects-nothing", dead, admitsNothing = "admits-nothing", frozen, contradictory
        case conflictingAnchors = "conflicting-anchors", lockDisplaced = "lock-displaced"

        /// Whether a finding of this property speaks of every table (a proof) or shows one
        /// table (a counterexample).
        public var everyTable: Bool {
            switch self {
            case .selectsNothing, .dead, .admitsNothing, .frozen, .contradictory: true
            case .conflictingAnchors, .lockDisplaced: false
            }
        }
    }

    /// The places of a `frozen` claim.
    public struct Frozen: Sendable, Hashable {
        /// The id of the rule whose sections the claim speaks of; nil: every section. For
        /// sections no one rule's selector names (a list's item, the sections an accept takes
        /// no row from, the sections two rules name together), the rule that names them in part.
        public var sections: String?
        /// Exactly the sections the claim speaks of, as the policy would write them (a section
        /// selector in flow YAML); nil: every section.
        public var sectionSelector: String? = nil
        /// Indices counted from the start, and from the end (0 is the last row).
        public var fromStart: [Int]
        public var fromEnd: [Int]
        /// Every row with at least this many rows on each side; nil: none such.
        public var middle: Int?
        /// The claim holds in every section of at least this many rows.
        public var minRows: Int
    }

    public var property: Property
    public var rules: [String]
    public var frozen: Frozen?

    public init(_ property: Property, rules: [String], frozen: Frozen? = nil) {
        self.property = property
        self.rules = rules
        self.frozen = frozen
    }

    /// No lines: the message says it for people.
    public var lines: [String] { [] }

    public var json: String {
        var w = JSONWriter()
        w.raw("{\"property\": ")
        w.string(property.rawValue)
        w.raw(", \"every-table\": ")
        w.raw(property.everyTable ? "true" : "false")
        w.raw(", \"rules\": ")
        w.strings(rules)
        if let frozen {
            w.raw(", \"sections\": ")
            if let sections = frozen.sections { w.string(sections) } else { w.raw("null") }
            w.raw(", \"section-selector\": ")
            if let selector = frozen.sectionSelector { w.string(selector) } else { w.raw("null") }
            w.raw(", \"from-start\": ")
            Self.integers(frozen.fromStart, into: &w)
            w.raw(", \"from-end\": ")
            Self.integers(frozen.fromEnd, into: &w)
            w.raw(", \"middle\": ")
            if let middle = frozen.middle { w.int(middle) } else { w.raw("null") }
            w.raw(", \"min-rows\": ")
            w.int(frozen.minRows)
        }
        w.raw("}")
        return w.text
    }

    private static func integers(_ list: [Int], into w: inout JSONWriter) {
        w.raw("[")
        for (n, k) in list.enumerated() {
            if n > 0 { w.raw(", ") }
            w.int(k)
        }
        w.raw("]")
    }
}
