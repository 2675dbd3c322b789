/// `pin: <row selector>` with an optional `anchor` (SPEC §2.2, §7): selected rows cannot be
/// picked up, and no move may change a pinned row's section or its anchored position — its
/// index (`start`) or its distance from the end of its section (`end`).
public struct PinRule: Hashable, Sendable {
    /// The pinned rows.
    public var rows: RowSelector
    /// The anchor; nil means the default, decided row by row: `end` for rows selected
    /// through `last` or a negative index, `start` otherwise.
    public var anchor: Anchor?

    /// Creates the rule.
    public init(_ rows: RowSelector, anchor: Anchor? = nil) {
        self.rows = rows
        self.anchor = anchor
    }
}

extension RowRule.Kind {
    /// Selected rows cannot be picked up, and no move may change their section or anchored position.
    public static func pin(_ rows: RowSelector, anchor: Anchor?) -> Self { Self(PinRule(rows, anchor: anchor)) }
}

extension PinRule: RowRuleKind {
    package static let keyword = "pin"
    package static let summary = "selected rows cannot be picked up, and no move may change a pinned row's section or its position counted from its anchor"
    package static let argumentSchema = ##"{ "$ref": "#/$defs/pinSelector", "description": "Rows that cannot be picked up and never change position." }"##

    package static func decode<Reader: RuleArgumentReader>(_ argument: Reader.Node, _ reader: inout Reader) -> Self? {
        reader.pinSelector(argument, for: keyword).map { Self($0.0, anchor: $0.1) }
    }

    package var argumentYAML: String {
        guard let anchor else { return rows.flowYAML }
        return FlowYAML.mapping(rows.flowEntries + [("anchor", anchor.rawValue)])
    }

    package var mentions: RuleMentions { RuleMentions(rows: [rows]) }

    package func compile() throws(PolicyError) -> any CompiledRowRuleKind {
        try rows.validate()
        if anchor != nil && rows.alternatives != nil {
            throw PolicyError("a pin's anchor goes with a mapping selector, not a list; split the pin")
        }
        return Compiled(rows: CompiledRowSelector(rows), anchor: anchor)
    }

    struct Compiled: CompiledRowRuleKind {
        let rows: CompiledRowSelector
        let anchor: Anchor?

        func bind(_ binder: inout RuleBinder) -> RuleEffects {
            RuleEffects(held: binder.held(rows, anchor: anchor, pins: true, word: "pinned"))
        }

        @_specialize(where W == WordedReason) @_specialize(where W == JSONWordedReason)
        func word<W: ReasonText>(_ c: RowCheck, into reason: inout W) -> RuleScope { c.heldRowsWording(into: &reason) }
        func word(_ c: BlockCheck) -> Reason { c.heldRowsReason() }
    }
}

// How pins and reserved slots word their verdicts (a reserve is exactly a pin, SPEC §2.2).
extension RowCheck {
    /// Which held row the move would shift, and how (the first in reading order, and how many more).
    func heldRowsWording<W: ReasonText>(into reason: inout W) -> RuleScope {
        guard let held = effects.held else {
            reason = "holds no row"
            return .notApplicable
        }
        let word = held.word
        let start = held.start, end = held.end
        let touches = !start.isEmpty(s) || !end.isEmpty(s) || (t != s && (!start.isEmpty(t) || !end.isEmpty(t)))
        guard touches else {
            let sections: Reason = t == s ? "\(sectionName(s))" : "\(sectionName(s)) or \(sectionName(t))"
            reason = "holds no row in \(sections)"
            return .notApplicable
        }
        guard broken else {
            reason = "no \(word) row would shift"
            return .applies
        }
        // Each candidate: (section, index, new index or nil when the index stays, rows after before, after).
        var shifted: [(u: Int, k: Int, to: Int?, after: (Int, Int))] = []
        var total = 0
        func consider(_ ranges: SectionRanges, _ u: Int, _ lo: Int, _ hi: Int, _ describe: (Int) -> (Int?, (Int, Int))) {
            let n = ranges.count(u, lo, hi)
            guard n > 0, let k = ranges.firstIn(u, lo, hi) else { return }
            total += n
            let (newIndex, after) = describe(k)
            shifted.append((u, k, newIndex, after))
        }
        let ns = count(s)
        if t == s {
            let (lo, hi, delta) = j < i ? (j, i - 1, 1) : (i + 1, j, -1)
            if j != i {
                for ranges in [start, end] {
                    consider(ranges, s, lo, hi) { k in (k + delta, (ns - 1 - k, ns - 1 - k - delta)) }
                }
            }
        } else {
            let nt = count(t)
            consider(start, s, i + 1, ns - 1) { k in (k - 1, (0, 0)) }
            consider(end, s, 0, i - 1) { k in (nil, (ns - 1 - k, ns - 2 - k)) }
            consider(start, t, j, nt - 1) { k in (k + 1, (0, 0)) }
            consider(end, t, 0, j - 1) { k in (nil, (nt - 1 - k, nt - k)) }
        }
        guard let first = shifted.min(by: { ($0.u, $0.k) < ($1.u, $1.k) }) else {
            reason = "the move would shift a \(word) row"
            return .applies
        }
        let here = Position(section: first.u, row: first.k)
        if let newIndex = first.to {
            reason = "moving \(row) to \(to) would shift \(word) row \(rowName(here)) from \(here) to \(Position(section: first.u, row: newIndex))"
        } else {
            reason = "moving \(row) to \(to) would change the rows after \(word) row \(rowName(here)) at \(here) from \(first.after.0) to \(first.after.1)"
        }
        if total > 1 { reason.append(" (and \(total - 1) more)") }
        return .applies
    }
}

extension BlockCheck {
    /// The first held row whose section or anchored position the block move changes.
    func heldRowsReason() -> Reason {
        guard let held = effects.held, let (old, new) = bound.shiftedHeldRow(held, move, to: to) else { return "" }
        return "moving \(label) to \(landing) would shift \(held.word) row \(rowName(old)) from \(old) to \(new)"
    }
}
