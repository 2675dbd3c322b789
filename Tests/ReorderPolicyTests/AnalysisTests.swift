import Foundation
import SpannedYAML
import Testing
import ReorderPolicy

/// A policy for the analysis and whether it must trigger `code`.
struct AnalysisCase: CustomTestStringConvertible, Sendable {
    let code: DiagnosticCode
    let fires: Bool
    let source: MarkedSource
    var needsCounterexample = false
    var testDescription: String { "\(code) \(fires ? "fires" : "stays quiet")" }

    init(_ code: DiagnosticCode, fires: Bool, counterexample: Bool = false, _ rules: String) {
        self.code = code
        self.fires = fires
        self.needsCounterexample = counterexample
        self.source = MarkedSource("reorder-policy: 1\nname: t\nrules:\n" + rules)
    }
}

@Suite struct AnalysisTests {
    static let cases: [AnalysisCase] = [
        // Contradictory bounds across two rules, on sections both select (SPEC §10.5).
        AnalysisCase(.capacityConflict, fires: true, "  - capacity: { section: [Doing, Done], max: 2 }\n  - »capacity: { section: { not: Todo }, min: 3 }\n"),
        AnalysisCase(.capacityConflict, fires: false, "  - capacity: { section: Doing, max: 2 }\n  - capacity: { section: Done, min: 3 }\n"),
        AnalysisCase(.capacityConflict, fires: false, "  - capacity: { section: Doing, max: 2, rows: { kind: card } }\n  - capacity: { section: Doing, min: 3 }\n"),
        // A bound read from an attribute, counting fewer rows than a twin on the same bound, or
        // the same rows in other words, is dead (issue #62): the counts' order is decided from
        // the selectors' meanings (it was found only for equal words, and nothing was said).
        // SPEC §13.2: a keep-among that no move can break is dead; one that some move breaks
        // alone is not; what the analysis cannot decide yet it says (docs/ANALYSIS.md).
        AnalysisCase(.deadRule, fires: true, "  - »keep-among: all\n"),
        AnalysisCase(.deadRule, fires: true, "  - »keep-among: { not: [] }\n"),
        AnalysisCase(.deadRule, fires: true, "  - »keep-among: kind\n  - keep-order: all\n"),
        AnalysisCase(.deadRule, fires: true, "  - »keep-among: kind\n  - lock: all\n"),
        AnalysisCase(.deadRule, fires: true, "  - keep-among: kind\n  - »keep-among: kind\n"),
        AnalysisCase(.deadRule, fires: false, "  - keep-among: kind\n"),
        AnalysisCase(.deadRule, fires: false, "  - keep-among: { tag: pinned }\n  - pin: { last: 1, kind: invite }\n"),
        AnalysisCase(.deadRule, fires: false, "  - keep-among: { tag: pinned }\n  - keep-in-section: all\n  - pin: { first: 1 }\n"),
        // (Dead, but not decided yet: said in analysis-budget, never claimed either way.)
        AnalysisCase(.deadRule, fires: false, "  - keep-among: { tag: pinned }\n  - pin: { tag: pinned }\n"),
        AnalysisCase(.analysisBudget, fires: false, "  - keep-among: kind\n"),
        AnalysisCase(.deadRule, fires: true, "  - capacity: { section: all, max: { attribute: wip }, rows: { kind: card } }\n  - »capacity: { section: all, max: { attribute: wip }, rows: { kind: card, not: { tag: archived } } }\n"),
        AnalysisCase(.deadRule, fires: true, "  - capacity: { section: all, max: { attribute: wip }, rows: { tag: card } }\n  - »capacity: { section: all, max: { attribute: wip }, rows: [ { tag: card } ] }\n"),
        AnalysisCase(.deadRule, fires: false, "  - capacity: { section: all, max: { attribute: wip }, rows: { kind: card } }\n  - capacity: { section: all, max: { attribute: wip }, rows: { tag: x } }\n  - capacity: { section: all, max: { attribute: wip }, rows: { kind: note } }\n"),
        // Decided from what the rows selectors mean, not how they are written (issue #61): the
        // rows the min counts are among those the max counts.
        AnalysisCase(.capacityConflict, fires: true, "  - capacity: { section: Done, max: 2 }\n  - »capacity: { section: Done, min: 5, rows: all }\n"),
        AnalysisCase(.capacityConflict, fires: true, "  - capacity: { section: Done, max: 2 }\n  - »capacity: { section: Done, min: 5, rows: { kind: card } }\n"),
        AnalysisCase(.capacityConflict, fires: true, "  - capacity: { section: Done, max: 2, rows: [ { kind: card }, { tag: x } ] }\n  - »capacity: { section: Done, min: 5, rows: { kind: card, not: { tag: y } } }\n"),
        AnalysisCase(.capacityConflict, fires: true, "  - capacity: { section: Done, max: 2, rows: { not: { kind: note } } }\n  - »capacity: { section: Done, min: 5, rows: { kind: card } }\n"),
        AnalysisCase(.capacityConflict, fires: false, "  - capacity: { section: Done, max: 2, rows: { kind: card } }\n  - capacity: { section: Done, min: 5 }\n"),
        AnalysisCase(.capacityConflict, fires: false, "  - capacity: { section: Done, max: 2, rows: { kind: card } }\n  - capacity: { section: Done, min: 5, rows: [ { kind: card }, { tag: x } ] }\n"),
        AnalysisCase(.capacityConflict, fires: false, "  - capacity: { section: Done, max: 2, rows: { first: 3 } }\n  - capacity: { section: Done, min: 5, rows: { first: 4 } }\n"),
        // Section rules, decided exactly in any wording (SPEC §10: dead, selects nothing).
        AnalysisCase(.deadRule, fires: true, "  []\nsection-rules:\n  - pin: { first: 1 }\n  - »lock: { section: 0 }\n"),
        AnalysisCase(.deadRule, fires: true, "  []\nsection-rules:\n  - lock: { section: [Todo, Done] }\n  - »lock: { section: Done }\n"),
        AnalysisCase(.deadRule, fires: true, "  []\nsection-rules:\n  - »lock: { section: Done }\n  - pin: { section: Done }\n"),
        AnalysisCase(.deadRule, fires: false, "  []\nsection-rules:\n  - pin: { first: 1 }\n  - pin: { last: 1 }\n"),
        AnalysisCase(.neverSelects, fires: true, "  []\nsection-rules:\n  - »lock: { section: { kind: a, not: { kind: a } } }\n"),
        AnalysisCase(.lockDisplaced, fires: true, counterexample: true, "  - »lock: { first: 1 }\n"),
        AnalysisCase(.lockDisplaced, fires: false, "  - pin: { first: 1 }\n"),
        AnalysisCase(.deadRule, fires: true, "  - keep-in-section: all\n    id: own\n  - »keep-in-section: { kind: item }\n"),
        AnalysisCase(.deadRule, fires: false, "  - keep-in-section: { kind: item }\n  - pin: { first: 1 }\n"),
        AnalysisCase(.neverSelects, fires: true, "  - »pin: { tag: [] }\n"),
        AnalysisCase(.neverSelects, fires: false, "  - pin: { section: 9 }\n"),
        AnalysisCase(.closedSection, fires: true, "  - »accept: { section: Done, from: [] }\n  - capacity: { section: Done, max: 5 }\n"),
        AnalysisCase(.closedSection, fires: false, "  - accept: { section: Done, from: [] }\n"),
        AnalysisCase(.capacityConflict, fires: true, "  - »capacity: { section: all, min: 3, max: 2 }\n"),
        AnalysisCase(.capacityConflict, fires: false, "  - capacity: { section: all, min: 1, max: 2 }\n"),
        // A capacity whose `rows` selects nothing limits no row: it conflicts with nothing.
        AnalysisCase(.capacityConflict, fires: false, "  - capacity: { section: all, min: 4, max: 1, rows: { not: all } }\n"),
        AnalysisCase(.capacityConflict, fires: false, "  - capacity: { section: all, max: 1, rows: { not: all } }\n  - capacity: { section: all, min: 4, rows: { not: all } }\n"),
        // The reserve is dead beside this pin (it refuses nothing the pin does not): the pair
        // changes no decision the pin alone does not make, so only the dead rule is reported.
        AnalysisCase(.conflictingAnchors, fires: false, "  - pin: { last: 1, anchor: start }\n  - reserve: { last: 1 }\n"),
        AnalysisCase(.conflictingAnchors, fires: false, "  - pin: { last: 1 }\n  - reserve: { last: 1 }\n"),
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - »pin: { index: [0, 2] }\n  - keep-in-section: all\n"),
        // SPEC §10.4: frozen means it can never end up anywhere else. Between two pins a row can
        // still leave a two-row section (nothing after it shifts), so the place is not frozen on
        // every table; SPEC §10.1: it is in sections of 3 rows or more, and that is said.
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - »pin: { index: [0, 2] }\n"),
        // Said in other words: a reserve and a pin, a list, the other end, a `not`.
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - reserve: { first: 1 }\n  - »pin: { index: 2 }\n  - keep-in-section: all\n"),
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - »pin: [{ first: 1 }, { index: 2 }]\n  - keep-in-section: [{ kind: x }, { not: { kind: x } }]\n"),
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - reserve: { last: 1 }\n  - »pin: { index: -3 }\n  - keep-in-section: all\n"),
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - »pin: { not: { index: 1 } }\n"),
        AnalysisCase(.stuckRow, fires: false, "  - pin: { index: [0, 3] }\n"),
        // SPEC §8: the enumeration reaches lists, `not`, section data and attribute bounds.
        AnalysisCase(.neverSelects, fires: true, "  - »pin: []\n"),
        AnalysisCase(.neverSelects, fires: true, "  - »keep-order: { not: all }\n"),
        AnalysisCase(.neverSelects, fires: false, "  - keep-order: { kind: bucket }\n"),
        AnalysisCase(.neverSelects, fires: false, "  - lock: [ { section: { tag: archived } }, { kind: ad } ]\n"),
        AnalysisCase(.neverSelects, fires: false, "  - capacity: { section: { kind: bucket, not: { tag: open } }, max: { attribute: wip } }\n"),
        AnalysisCase(.deadRule, fires: false,
                     "  - lock: { not: { kind: card } }\n  - capacity: { section: { kind: bucket }, max: { attribute: wip } }\n"
                     + "  - keep-order: { tag: frozen }\n  - pin: [ { index: 0, kind: header }, { last: 1, kind: footer } ]\n"),
        AnalysisCase(.deadRule, fires: true, "  - keep-in-section: all\n    id: own\n  - »keep-in-section: [ { kind: item }, { not: { tag: x } } ]\n"),
        AnalysisCase(.capacityConflict, fires: false, "  - capacity: { section: all, min: { attribute: floor }, max: 2 }\n"),
        // Claims about every table need a proof, not an enumeration that stopped at 3x4
        // (the analysis-claims issue): none of these is a finding.
        AnalysisCase(.deadRule, fires: false, "  - capacity: { section: Doing, max: 5 }\n"),
        AnalysisCase(.deadRule, fires: false, "  - accept: { section: Review, from: [Doing] }\n  - capacity: { section: Review, max: 3 }\n"),
        AnalysisCase(.closedSection, fires: false, "  - accept: { section: Review, from: [Doing] }\n  - capacity: { section: Review, max: 3 }\n"),
        AnalysisCase(.neverSelects, fires: false, "  - keep-in-section: { section: Inbox, kind: task }\n"),
        // SPEC §10.1: rows held at both ends are reported only where the pair changes a
        // decision: under keep-in-section: all no row enters or leaves a section anyway, so the
        // status row pinned first and the add row reserved last get no finding (issue #55),
        // nor do a header and a footer of two rows each; without it, rows cannot enter a
        // one-row section at any slot, though each rule alone would let them.
        AnalysisCase(.conflictingAnchors, fires: false, "  - pin: { first: 1 }\n  - reserve: { last: 1 }\n  - keep-in-section: all\n"),
        AnalysisCase(.conflictingAnchors, fires: false, "  - reserve: { first: 2 }\n  - reserve: { last: 2 }\n  - keep-in-section: all\n"),
        AnalysisCase(.conflictingAnchors, fires: true, counterexample: true, "  - pin: { first: 1 }\n  - »reserve: { last: 1 }\n"),
        AnalysisCase(.conflictingAnchors, fires: true, counterexample: true, "  - reserve: { first: 2 }\n  - »reserve: { last: 2 }\n"),
        // Position constants too large for explicit shapes (docs/ANALYSIS.md, "Large position
        // constants"): decided on runs between the thresholds.
        // The rows held at both ends are in every section of up to 80,002 rows, and a row that
        // can move at all lies in a section longer than that: the move that would show the
        // pair refusing an entry is past the evidence search (64 rows), so nothing is claimed.
        AnalysisCase(.conflictingAnchors, fires: false, "  - pin: { first: 3 }\n  - pin: { last: 80000 }\n"),
        AnalysisCase(.conflictingAnchors, fires: false, "  - pin: { first: 3 }\n  - pin: { last: 80000, anchor: start }\n"),
        AnalysisCase(.deadRule, fires: true, "  - lock: { index: 50000 }\n  - »lock: { index: [50000] }\n  - pin: { index: -70000 }\n"),
        AnalysisCase(.deadRule, fires: false, "  - lock: { index: 50000 }\n  - lock: { index: [50001] }\n  - pin: { index: -70000 }\n"),
        AnalysisCase(.neverSelects, fires: true, "  - »accept: { section: 1, from: all }\n  - capacity: { section: 1, max: 0 }\n  - pin: { last: 90000 }\n"),
        AnalysisCase(.neverSelects, fires: false, "  - accept: { section: 1, from: all }\n  - capacity: { section: 1, max: 1 }\n  - pin: { last: 90000 }\n"),
        AnalysisCase(.conflictingAnchors, fires: false, "  - pin: { last: 1, anchor: start }\n  - reserve: { last: 1 }\n  - keep-in-section: all\n"),
        // Positions that meet only in a long section (12 rows), out of the enumeration's reach.
        AnalysisCase(.conflictingAnchors, fires: true, counterexample: true, "  - pin: { index: 5 }\n  - »pin: { index: -7, anchor: end }\n"),
        // In other words: a list, a section mapping, a `not`.
        AnalysisCase(.conflictingAnchors, fires: true, counterexample: true, "  - pin: [{ first: 1, section: { kind: bucket } }, { id: x }]\n  - »reserve: { last: 1, section: { not: { id: Done } } }\n"),
        AnalysisCase(.conflictingAnchors, fires: false, "  - pin: { first: 1, section: Done }\n  - reserve: { last: 1, section: { not: { id: Done } } }\n"),
        // Proved: a lock inside a pin, a duplicate, a keep-in-section inside keep-in-section: all.
        AnalysisCase(.deadRule, fires: true, "  - pin: { first: 1 }\n  - »lock: { first: 1 }\n"),
        AnalysisCase(.deadRule, fires: true, "  - lock: { kind: ad }\n  - »lock: { kind: ad }\n"),
        AnalysisCase(.deadRule, fires: false, "  - lock: { kind: ad }\n  - lock: { kind: banner }\n"),
        // Defects the enumeration missed.
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - pin: { first: 1 }\n  - »pin: { index: 2 }\n  - keep-in-section: all\n"),
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - »pin: { index: [1, 2, 3] }\n  - keep-in-section: all\n"),
        // Frozen once a section is large enough (SPEC §10.1): the row between them can leave a
        // section of 2 rows (there is no row -3), and in sections of 3 rows or more never.
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - pin: { last: 1 }\n  - »pin: { index: -3 }\n"),
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - reserve: { first: 1, section: Review }\n  - »pin: { index: 2, section: Review }\n"),
        AnalysisCase(.stuckRow, fires: false, "  - pin: { index: [0, 2] }\n  - lock: { index: 1 }\n"),
        // SPEC §10: two sections may share the id Done, and a row moving from one to the other
        // enters: this accept admits rows on such tables, so no "never" may be said of it.
        AnalysisCase(.neverSelects, fires: false, "  - accept: { section: Done, rows: { section: Done } }\n"),
        AnalysisCase(.neverSelects, fires: true, "  - »accept: { section: [2], from: [2] }\n"),
        AnalysisCase(.neverSelects, fires: false, "  - accept: { section: Done, from: [Doing], rows: { section: Doing } }\n"),
        AnalysisCase(.neverSelects, fires: true, "  - »lock: { section: [] }\n"),
        // Every place frozen, the middle ones included: no position constant at all (C = 0).
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - keep-order: all\n  - »keep-in-section: all\n"),
        AnalysisCase(.stuckRow, fires: false, "  - keep-order: all\n  - keep-in-section: { kind: card }\n"),
        // An attribute-bound capacity on cards after the same bound on every row: whenever the
        // narrower refuses, the wider does too (counts past the cap are no longer taken as
        // unrelated: corpus p091).
        AnalysisCase(.deadRule, fires: true, "  - capacity: { section: Inbox, max: { attribute: wip } }\n  - keep-in-section: { kind: status }\n  - »capacity: { section: Inbox, max: { attribute: wip }, rows: { kind: card } }\n"),
        // In the other order the narrower one is the dead one: whatever it refuses, the later
        // (every row) refuses too.
        AnalysisCase(.deadRule, fires: true, "  - »capacity: { section: Inbox, max: { attribute: wip }, rows: { kind: card } }\n  - capacity: { section: Inbox, max: { attribute: wip } }\n"),
        // With `min` neither is dead: a card can leave under one and not the other either way.
        AnalysisCase(.deadRule, fires: false, "  - capacity: { section: Inbox, min: { attribute: floor } }\n  - capacity: { section: Inbox, min: { attribute: floor }, rows: { kind: card } }\n"),
        // Frozen in sections however the policy words them (issue #62, item 1): a list's
        // items, the sections an accept of every section takes no row from, two items of a
        // pin list, and the sections two rules name together (fixed-kind, closed-tagged).
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - keep-order: all\n  - »keep-in-section: [ { section: Done }, { section: Archive } ]\n"),
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - keep-order: all\n  - »accept: { section: all, from: { not: { id: Done } } }\n"),
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - keep-in-section: all\n  - »pin: [ { index: 0, section: Done }, { index: 2, section: Done } ]\n"),
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - keep-order: { kind: fixed }\n  - »keep-in-section: { section: { tag: closed } }\n"),
        AnalysisCase(.stuckRow, fires: false, "  - keep-order: { kind: fixed }\n  - keep-in-section: { section: { kind: open } }\n"),
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - keep-order: all\n  - »accept: { section: {}, from: Inbox }\n"),
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - keep-order: all\n  - »accept: { section: { not: [] }, from: Inbox }\n"),
        // Meets that one key cannot say: two tag lists, indices from either end (a review). In a
        // table of one section, the first and the last, no row has another section to go to:
        // keep-order alone freezes them.
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - keep-order: { tag: fixed }\n  - »keep-in-section: { section: { tag: closed } }\n"),
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - keep-order: { index: [0, 1] }\n  - »keep-in-section: { section: { index: [1, 2] } }\n"),
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - »keep-order: { index: 0 }\n  - keep-in-section: { section: { index: -1 } }\n"),
        // Frozen in the sections two rules name, and nowhere else.
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - keep-order: Doing\n  - »keep-in-section: { section: Doing }\n"),
        // And with a large constant: the middle is one question, asked at any size.
        AnalysisCase(.stuckRow, fires: true, counterexample: true, "  - keep-order: all\n  - pin: { last: 80000 }\n  - »keep-in-section: all\n"),
        AnalysisCase(.neverSelects, fires: true, "  - »keep-in-section: { kind: card, section: { tag: [] } }\n"),
    ]

    /// A frozen place is said once: not again in narrower sections from as many rows or more,
    /// and not twice when a list's items merged name the sections another rule names (a review
    /// of the frozen classes found both).
    @Test(arguments: [
        "  - reserve: { first: 1 }\n  - pin: { index: 2 }\n  - keep-order: Review\n",
        "  - keep-in-section: [ { section: A }, { section: B } ]\n  - keep-order: [A, B]\n",
    ])
    func frozenPlacesAreSaidOnce(rules: String) {
        let document = PolicyLoader.load(text: "reorder-policy: 1\nname: t\nrules:\n" + rules, path: "once.yaml")
        let stuck = PolicyAnalyzer.analyze(document).filter { $0.code == .stuckRow }
        #expect(stuck.count == 1, "\(stuck.map(\.message))")
    }

    /// SPEC §10.1: every finding's claim as data says what its words say. The claim is derived
    /// here from the text alone (the code, the message's quoted rule ids, the words "lets no row
    /// in", a frozen finding's "in sections x" or "in every section" and "loosen 'y'") and compared with
    /// the `claim` the finding carries, on every case above that fires and on frozen rows.
    @Test func claimsSayWhatTheWordsSay() throws {
        let frozen = [
            "  - keep-order: all\n  - keep-in-section: { section: Done }\n  - lock: { index: 3 }\n",
            "  - keep-order: all\n  - keep-in-section: all\n",
            "  - pin: { index: [0, 2], section: Done }\n  - keep-in-section: all\n",
        ]
        var compared = 0
        for source in Self.cases.filter(\.fires).map(\.source.text) + frozen.map({ "reorder-policy: 1\nname: t\nrules:\n" + $0 }) {
            let document = PolicyLoader.load(text: source, path: "a.yaml")
            for d in PolicyAnalyzer.analyze(document) where d.code != .analysisBudget {
                let claim = try #require(d.claim as? AnalysisClaim, "\(d.code) has no claim: \(d.message)")
                let words = d.message + " " + (d.help ?? "")
                // The property, from the code and the words.
                let property: AnalysisClaim.Property = switch d.code {
                case .neverSelects: d.message.contains("lets no row in") ? .admitsNothing : .selectsNothing
                case .deadRule, .closedSection: .dead
                case .stuckRow: .frozen
                case .capacityConflict: .contradictory
                case .conflictingAnchors: .conflictingAnchors
                default: .lockDisplaced
                }
                #expect(claim.property == property, "\(claim.json) for \(d.message)")
                #expect(claim.property.everyTable == (d.counterexample == nil || d.code == .stuckRow || d.code == .deadRule || d.code == .neverSelects || d.code == .closedSection),
                        "\(claim.json) for \(d.message)")
                // The rules: the ids the message quotes (a frozen finding names its cause in its
                // help, "loosen 'x'", and its sections' rule in its message).
                let quoted = Set(d.message.split(separator: "'", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
                if d.code == .stuckRow {
                    let cause = try #require(d.help?.components(separatedBy: "loosen '").dropFirst().first?.split(separator: "'").first.map(String.init))
                    #expect(claim.rules == [cause], "\(claim.json) for \(words)")
                    // Every section, or the sections a rule's selector names (the message writes
                    // the selector as the policy does; the claim names the rule).
                    if d.message.hasPrefix("in every section") || d.message.hasPrefix("in sections of ") {
                        #expect(claim.frozen?.sections == nil, "\(claim.json) for \(d.message)")
                    } else {
                        #expect((d.message.hasPrefix("in sections ") || d.message.hasPrefix("in the sections ")) && claim.frozen?.sections != nil,
                                "\(claim.json) for \(d.message)")
                        // The sections exactly: the words' selector is the claim's.
                        let selector = try #require(claim.frozen?.sectionSelector)
                        let words = selector.hasPrefix("[") && !selector.contains("{") ? "in sections \(selector.dropFirst().dropLast())" : "in the sections \(selector)"
                        #expect(d.message.hasPrefix(words), "\(claim.json) for \(d.message)")
                    }
                    let f = try #require(claim.frozen)
                    #expect(!(f.fromStart.isEmpty && f.fromEnd.isEmpty && f.middle == nil) && f.minRows >= 1, "\(claim.json)")
                    // The size (SPEC §10.1): "of 3 rows or more" before the places, else none.
                    let head = d.message.components(separatedBy: ", ").first ?? ""
                    let said = head.components(separatedBy: " of ").last.flatMap { $0.hasSuffix(" rows or more") ? Int($0.dropLast(" rows or more".count)) : nil } ?? 1
                    #expect(f.minRows == said, "\(claim.json) for \(d.message)")
                } else {
                    #expect(Set(claim.rules) == quoted, "\(claim.json) for \(d.message)")
                }
                compared += 1
            }
        }
        #expect(compared > 40, "\(compared) findings compared")
    }

    @Test(arguments: cases)
    func analysisWarning(_ c: AnalysisCase) throws {
        let document = PolicyLoader.load(text: c.source.text, path: "a.yaml")
        #expect(document.diagnostics.isEmpty, "\(document.diagnostics)")
        let findings = PolicyAnalyzer.analyze(document)
        let hit = findings.first { $0.code == c.code }
        if c.fires {
            let d = try #require(hit, "\(findings.map { "\($0.code): \($0.message)" })")
            #expect(d.severity == .warning)
            #expect(d.span.start.line == c.source.line)
            #expect(d.span.start.column == c.source.column)
            #expect(d.help != nil)
            if c.needsCounterexample {
                let note = try #require(d.counterexample?.lines.first { $0.hasPrefix("counterexample: table: ") })
                // The counterexample is a table the loader reads back.
                let yaml = String(note.dropFirst("counterexample: table: ".count))
                let (table, problems) = TableLoader.load(text: yaml)
                #expect(problems.isEmpty && table != nil, "\(yaml)")
                // And as data, it reproduces: the policy decides its move as it says.
                let json = try #require(d.counterexample?.json)
                // Filler rows (the search's and the enumeration's) are shown as row-1, row-2, ...
                let example = try #require(d.counterexample as? Counterexample)
                #expect(example.table.sections.flatMap(\.rows).allSatisfy { $0.id != "row" && !$0.id.hasPrefix("·") }, "\(example.lines)")
                #expect(try Reproduction.decision(json, policy: document) == Reproduction.claimed(json), "\(json)")
                // SPEC §10: the rule the finding stands at is among the move's violations (a
                // lock's shifted row is shown by a move it allows: a lock refuses nothing there).
                if c.code != .lockDisplaced {
                    let named = try Reproduction.object(json)["rules"] as? [String] ?? []
                    #expect(named.contains("rule-\(c.source.line - 3)"), "\(json)")
                }
            }
        } else {
            #expect(hit == nil, "\(hit?.message ?? "")")
        }
    }

    @Test func theCounterexampleOfALockedHeaderIsADropAboveIt() throws {
        let document = PolicyLoader.load(text: "reorder-policy: 1\nname: t\nrules:\n  - lock: { first: 1 }\n", path: "a.yaml")
        let d = try #require(PolicyAnalyzer.analyze(document).first)
        // A typed value from the analysis to the renderers: text lines and JSON come from it.
        let example = try #require(d.counterexample as? Counterexample)
        #expect(example.table == Table(sections: [Section(rowIDs: ["row-1", "row-2"])]))
        #expect(example.move == .row(from: Position(section: 0, row: 1), to: Position(section: 0, row: 0)))
        #expect(example.decision == .allowed && example.rules.isEmpty)
        #expect(d.notes.isEmpty)
        #expect(example.lines == ["counterexample: table: { sections: [{ rows: [row-1, row-2] }] }",
                                  "  move: { from: [0, 1], to: [0, 0] }, decided allowed"])
        #expect(example.json == #"{"table": {"sections": [{"rows": ["row-1", "row-2"]}]}, "move": {"from": [0, 1], "to": [0, 0]}, "decision": "allowed", "rules": []}"#)
        // Replaying the counterexample shows the locked row shifting.
        let bound = try #require(document.compiled()).bind(Table(sections: [Section(rowIDs: ["row-1", "row-2"])]))
        #expect(try bound.decide(.row(from: Position(section: 0, row: 1), to: Position(section: 0, row: 0))).kind == .allowed)
    }

    @Test func bundledPoliciesLintCleanWithAnalysis() {
        let report = Linter.lint([ProcessInfoPath.policies], strict: true, analysis: { PolicyAnalyzer.analyze($0) })
        #expect(report.documents.count >= 3)
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map { "\($0.file):\($0.span.start.line) \($0.code) \($0.message)" })")
    }

    @Test func provedFindingsDoNotDependOnTheBound() throws {
        // The row between two pins is frozen on every table: even the smallest bound says so.
        let text = "reorder-policy: 1\nname: t\nrules:\n  - pin: { index: [0, 2] }\n  - keep-in-section: all\n"
        let document = PolicyLoader.load(text: text, path: "a.yaml")
        for bound in [AnalysisBound(sections: 1, rows: 1), AnalysisBound(sections: 2, rows: 5)] {
            #expect(PolicyAnalyzer.analyze(document, bound: bound).contains { $0.code == .stuckRow })
        }
        // What no table tried showed is no finding: titles in a settings screen only move in
        // sortable sections, a combination the enumeration does not build. The one finding is
        // proved: rows of the fixed sections can never move (SPEC §10.4).
        let settings = PolicyLoader.load(text: """
            reorder-policy: 1
            name: s
            rules:
              - keep-order: { not: { tag: sortable } }
              - pin: { first: 1, kind: title }
              - keep-in-section: all
            """, path: "s.yaml")
        let findings = PolicyAnalyzer.analyze(settings)
        #expect(findings.map(\.code) == [.stuckRow] && findings[0].message.hasPrefix("in the sections { not: { tag: sortable } }, "), "\(findings.map(\.message))")
    }

    /// A counterexample a large constant needs (a section of 80,002 rows) is cut short in the
    /// text people read, and says so; its JSON, which `check` reads back, keeps every row.
    @Test func longCounterexampleSectionsAreCutShortInTextOnly() throws {
        let rows = (1...200).map { Row(id: "row-\($0)") }
        let example = Counterexample(table: Table(sections: [Section(rows: rows), Section(rows: [Row(id: "x")])]),
                                     move: .row(from: Position(section: 0, row: 0), to: Position(section: 1, row: 0)), decision: .rejected, rules: ["r"])
        let lines = example.lines
        #expect(lines[0] == "counterexample: table: { sections: [{ rows: [" + (1...16).map { "row-\($0)" }.joined(separator: ", ")
                + ", … 168 more rows …, " + (185...200).map { "row-\($0)" }.joined(separator: ", ") + "] }, { rows: [x] }] }", "\(lines[0])")
        #expect(lines.count == 3 && lines[2].contains("'--format json' gives the whole table"))
        let json = try Reproduction.object(example.json)
        let sections = (json["table"] as? [String: Any])?["sections"] as? [[String: Any]]
        #expect((sections?[0]["rows"] as? [String])?.count == 200)
        let short = Counterexample(table: Table(sections: [Section(rows: Array(rows.prefix(64)))]), move: example.move, decision: .rejected, rules: ["r"])
        #expect(short.lines.count == 2 && !short.lines[0].contains("more rows"))
        // A section far from the ends (a section index of 300) needs runs of empty sections:
        // shown by their ends and their count; a run of 64 is shown whole.
        let far = Counterexample(table: Table(sections: [Section(rows: [Row(id: "a")])] + Array(repeating: Section(rows: []), count: 298) + [Section(id: "S", rows: [])]),
                                 move: .row(from: Position(section: 0, row: 0), to: Position(section: 299, row: 0)), decision: .allowed, rules: [])
        #expect(far.lines[0] == "counterexample: table: { sections: [{ rows: [a] }, { rows: [] }, … 296 more empty sections …, { rows: [] }, { id: S, rows: [] }] }", "\(far.lines[0])")
        #expect(far.lines.count == 3)
        let near = Counterexample(table: Table(sections: [Section(rows: [Row(id: "a")])] + Array(repeating: Section(rows: []), count: 64)), move: far.move, decision: .allowed, rules: [])
        #expect(near.lines.count == 2 && !near.lines[0].contains("more empty sections"))
    }

    @Test func theSearchDecidesLocksAndTheEnumerationOnlyStandsIn() throws {
        // The second lock can never be shifted (nothing enters its section, no row of it moves):
        // the search says so on every table, and the first lock's shift is its witness. No
        // enumeration runs, so no budget is spent or said.
        let decided = PolicyLoader.load(text: """
            reorder-policy: 1
            name: t
            rules:
              - lock: { first: 1, section: 0 }
              - lock: { section: 1 }
              - accept: { section: 1, from: [] }
            """, path: "a.yaml")
        let exact = PolicyAnalyzer.analyze(decided, bound: AnalysisBound(sections: 6, rows: 8), budget: 0.05)
        #expect(exact.map(\.code) == [.lockDisplaced], "\(exact.map(\.message))")
        #expect(exact.first?.span.start.line == 4)
        // Where the search cannot run (13 section tag classes), the enumeration stands in
        // for the locks, within its budget, and says where it stopped.
        let document = PolicyLoader.load(text: """
            reorder-policy: 1
            name: t
            rules:
              - lock: { first: 1, section: 0 }
              - lock: { section: 1 }
              - accept: { section: 1, from: [] }
              - keep-order: [{ tag: t1 }, { tag: t2 }, { tag: t3 }, { tag: t4 }, { tag: t5 }, { tag: t6 }, { tag: t7 }, { tag: t8 }, { tag: t9 }, { tag: t10 }, { tag: t11 }, { tag: t12 }, { tag: t13 }]
            """, path: "a.yaml")
        let findings = PolicyAnalyzer.analyze(document, bound: AnalysisBound(sections: 6, rows: 8), budget: 0.05)
        // One finding says both (SPEC §10.1: said once): why the search did not run, and where
        // the small tables stopped, as a budget of work, never a time.
        let budget = try #require(findings.first { $0.message.contains("stopped at their work budget") }, "\(findings.map(\.message))")
        #expect(budget.code == .analysisBudget && budget.severity == .warning && budget.message.contains("--analysis-budget 0.05:"))
        #expect(budget.message.contains("did not run") && !budget.message.contains(" s "))
        #expect(findings.filter { $0.code == .analysisBudget }.count == 1)
        // The lock's counterexample comes from the first, smallest tables: still found.
        #expect(findings.contains { $0.code == .lockDisplaced })
        #expect(!PolicyAnalyzer.analyze(document, bound: AnalysisBound(sections: 2, rows: 2), budget: 10).contains { $0.message.contains("stopped at their work budget") })
        // Once everything the enumeration can find is found, it stops: no budget is spent and
        // nothing is said about one.
        let single = PolicyLoader.load(text: "reorder-policy: 1\nname: t\nrules:\n  - lock: { first: 1 }\n", path: "a.yaml")
        let found = PolicyAnalyzer.analyze(single, bound: AnalysisBound(sections: 6, rows: 8), budget: 0.05)
        #expect(found.map(\.code) == [.lockDisplaced])
        // Where one exact query shows that no row can move on any table, no lock's row is ever
        // shifted: the enumeration does not run, and spends no budget.
        let still = PolicyLoader.load(text: "reorder-policy: 1\nname: t\nrules:\n  - lock: all\n", path: "a.yaml")
        #expect(!PolicyAnalyzer.analyze(still, bound: AnalysisBound(sections: 6, rows: 8), budget: 0.05).contains { $0.code == .analysisBudget })
    }
}

/// Replays a finding's counterexample (`{"table", "move", "decision"}`) as `check` would.
enum Reproduction {
    static func object(_ json: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
    }

    static func claimed(_ json: String) throws -> String { try object(json)["decision"] as! String }

    /// The decision the policy gives for the counterexample's move on its table.
    static func decision(_ json: String, policy document: PolicyDocument) throws -> String {
        let o = try object(json)
        let tableText = String(decoding: try JSONSerialization.data(withJSONObject: o["table"]!), as: UTF8.self)
        let (table, problems) = TableLoader.load(text: tableText)
        guard let table, problems.isEmpty else { return "table does not load: \(problems)" }
        let move = o["move"] as! [String: Any]
        let m: Move
        if let from = move["from"] as? [Int], let to = move["to"] as? [Int] {
            m = .row(from: Position(section: from[0], row: from[1]), to: Position(section: to[0], row: to[1]))
        } else {
            m = .section(from: move["section-from"] as! Int, to: move["section-to"] as! Int)
        }
        return try document.compiled()!.bind(table).decide(m).kind.rawValue
    }
}

enum ProcessInfoPath {
    /// The bundled policies folder, found from this file's location.
    static let policies: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/policies"
    }()
}

/// The engine's invariants on the analysis's own enumeration: bugs in this package if they fail.
@Suite struct EnumeratedInvariantTests {
    static let policies: [String] = [
        "  - pin: { first: 1 }\n  - keep-in-section: all\n  - reserve: { last: 1 }\n",
        "  - accept: { section: Done, from: [Doing] }\n  - capacity: { section: Doing, max: 2 }\n  - pin: { kind: status }\n",
        "  - pin: { index: [0, -1] }\n  - lock: { tag: x }\n  - keep-in-section: { id: a }\n",
        "  - reserve: { first: 1, section: [0, Done] }\n  - capacity: { section: all, min: 1 }\n",
        "  - pin: [ { index: 0, kind: header }, { last: 1, not: { tag: x } } ]\n  - keep-order: { kind: pool }\n"
            + "  - capacity: { section: { not: { kind: pool } }, max: { attribute: wip }, min: { attribute: wip } }\n",
    ]

    @Test(arguments: policies)
    func targetsAreValidIdempotentAndPinsStay(_ rules: String) throws {
        let document = PolicyLoader.load(text: "reorder-policy: 1\nname: t\nrules:\n" + rules, path: "i.yaml")
        let policy = try #require(document.policy, "\(document.diagnostics)")
        let failures = PolicyAnalyzer(policy: policy, source: document.source, bound: AnalysisBound(sections: 3, rows: 3)).invariantFailures()
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func theClosedSectionWarningShowsARefusedDrop() throws {
        let document = PolicyLoader.load(text: "reorder-policy: 1\nname: t\nrules:\n  - accept: { section: Done, from: [] }\n  - capacity: { section: Done, max: 5 }\n", path: "c.yaml")
        let d = try #require(PolicyAnalyzer.analyze(document).first { $0.code == .closedSection })
        #expect(d.counterexample?.lines.contains { $0.hasPrefix("counterexample: table: ") && $0.contains("id: Done") } == true)
    }
}

/// Waiver comments: a policy author acknowledges one warning of one rule.
@Suite struct WaiverTests {
    static let text = """
        reorder-policy: 1
        name: ads
        rules:
          - lock: { kind: ad }   # reorder-policy: allow lock-displaced -- ads are re-placed by the server
            id: ads
          # reorder-policy: allow dead-rule -- kept while the old app version is live

          - lock: { kind: ad }
            id: ads-again
          - pin: { first: 1 } # reorder-policy: allow stuck-row
          - pin: { tag: [] } # reorder-policy: allow never-selects
          - pin: { kind: [] } # reorder-policy: allow capacity-conflict
        """

    func lint(_ text: String, analysis: Bool = true) throws -> LintReport {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("waivers-\(getpid())-\(UUID().uuidString.prefix(6)).yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return Linter.lint([file.path], analysis: analysis ? { PolicyAnalyzer.analyze($0) } : nil)
    }

    @Test func waiversSuppressTheirFindingAndSayWhy() throws {
        let report = try lint(Self.text)
        let suppressed = report.suppressed.map { "\($0.diagnostic.span.start.line) \($0.diagnostic.code) \($0.justification)" }
        #expect(suppressed.sorted() == ["11 never-selects ", "4 lock-displaced ads are re-placed by the server",
                                        "8 dead-rule kept while the old app version is live"], "\(suppressed)")
        let kept = report.diagnostics.map { "\($0.span.start.line) \($0.code)" }
        // ads-again is dead (its waived finding), so its rows' shifts are not said again; the
        // two waivers that match nothing say so.
        #expect(kept == ["10 unused-waiver", "12 never-selects", "12 unused-waiver"], "\(kept)")
        #expect(report.warnings == 3 && report.exitStatus == 0)
        // JSON lists them apart, with the reason.
        let json = DiagnosticRenderer.lintJSON(report)
        #expect(json.contains("\"suppressed\": [") && json.contains("\"justification\": \"ads are re-placed by the server\""))
        #expect(json.contains("\"summary\": {\"files\": 1, \"errors\": 0, \"warnings\": 3}"))
        // SARIF marks them as suppressed in source.
        #expect(LintSARIFFormat().render(report, RenderContext(toolVersion: "t")).contains("\"suppressions\": [ { \"kind\": \"inSource\", \"justification\": \"ads are re-placed by the server\" } ]"))
    }

    @Test func errorsCannotBeWaivedAndUnjudgedWaiversStayQuiet() throws {
        let broken = try lint("reorder-policy: 1\nname: b\nrules:\n  - pin: { first: x }  # reorder-policy: allow type-mismatch\n")
        #expect(broken.errors == 1 && broken.suppressed.isEmpty)
        let unanalysed = try lint(Self.text, analysis: false)
        #expect(!unanalysed.diagnostics.contains { $0.code == .unusedWaiver })
    }
}

/// An analysis its caller cancelled (the language server, when the text changed) stops: its
/// searches count as out of work from the start and the enumeration tries no table, so what
/// needs a search is left undecided (its findings are for no one), while the same analysis
/// without the token decides it.
@Suite struct AnalysisCancellationTests {
    @Test func aCancelledAnalysisSearchesNothing() {
        let document = PolicyLoader.load(text: "reorder-policy: 1\nname: p\nrules:\n  - pin: { index: 1, section: A }\n  - keep-order: B\n  - pin: { first: 1 }\n  - lock: { index: 3 }\n")
        let plain = PolicyAnalyzer.analyze(document).map(\.code)
        #expect(!plain.contains(.analysisBudget) && plain.contains(.lockDisplaced), "\(plain)")
        let token = AnalysisCancellation()
        token.cancel()
        let cancelled = AnalysisCancellation.$current.withValue(token) { PolicyAnalyzer.analyze(document) }.map(\.code)
        #expect(cancelled.contains(.analysisBudget) && !cancelled.contains(.lockDisplaced), "\(cancelled)")
        // The token is read where the analysis starts: one given afterwards changes nothing.
        #expect(PolicyAnalyzer.analyze(document).map(\.code) == plain)
    }
}
