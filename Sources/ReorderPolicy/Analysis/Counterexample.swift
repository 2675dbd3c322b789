import ReorderEngine
import SpannedYAML

/// The evidence of an analysis finding that says something can happen (SPEC §10): a table, a
/// move, the decision the policy gives for it (what `check` prints), and the rules the finding
/// is about that are among that decision's violations. A typed value from the analysis to
/// every renderer: text and GitHub annotations show ``lines``, JSON and SARIF ``json``.
public struct Counterexample: DiagnosticEvidence, Hashable {
    public var table: Table
    public var move: Move
    public var decision: DecisionKind
    /// Rule ids, each among the decision's violations.
    public var rules: [String]

    public init(table: Table, move: Move, decision: DecisionKind, rules: [String]) {
        self.table = table
        self.move = move
        self.decision = decision
        self.rules = rules
    }

    /// The table in flow style (a table file `check` reads) and the move with its decision. A
    /// section of more than ``longSection`` rows, or a run of more empty sections than that (a
    /// large position constant needs them), is shown by its ends; JSON and SARIF always carry
    /// the whole table.
    public var lines: [String] {
        let long = TableText.elides(table, over: Self.longSection)
        return ["counterexample: table: \(TableText.flow(table, elidingOver: Self.longSection))",
                "  move: \(TableText.flow(move)), decided \(decision.rawValue)"]
            + (long ? ["  (long sections and runs of empty sections are cut short here; '--format json' gives the whole table)"] : [])
    }

    /// The longest section the text shows whole.
    public static let longSection = 64

    /// `{ "table", "move", "decision", "rules" }`: the table as §3 JSON, the move as a §5
    /// moves item.
    public var json: String {
        var w = JSONWriter()
        w.raw("{\"table\": ")
        TableText.json(table, into: &w)
        w.raw(", \"move\": ")
        DecisionJSON.move(move, into: &w)
        w.raw(", \"decision\": ")
        w.string(decision.rawValue)
        w.raw(", \"rules\": ")
        w.strings(rules)
        w.raw("}")
        return w.text
    }
}
