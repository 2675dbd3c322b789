/// `diff`: infers the moves between two snapshots and decides each with the policy, on the
/// table as it stands after the moves before it.
public struct DiffReport: Sendable {
    /// What changed.
    public var change: MoveInference.Change
    /// One decision per inferred move, in order.
    public var decisions: [Decision]
    /// Counts.
    package var summary: DecisionJSON.Summary

    /// The change's keyword: `unchanged`, `move`, `exchange`, `moves` or `not-a-reorder`.
    public var keyword: String {
        switch change {
        case .unchanged: "unchanged"
        case .move: "move"
        case .exchange: "exchange"
        case .moves: "moves"
        case .notAReorder: "not-a-reorder"
        }
    }

    /// A sentence about the change.
    public var detail: String {
        switch change {
        case .unchanged: "the two tables have the same order"
        case .move(let m): "one move: \(DecisionText.move(m))"
        case .exchange(let a, let b, let moves): "rows at \(a) and \(b) were exchanged: not a move; as moves it takes \(moves.count)"
        case .moves(let moves): "\(moves.count) moves"
        case .notAReorder(let why): "not a reordering: \(why)"
        }
    }

    /// 0 when unchanged or every move is allowed, 1 otherwise.
    public var exitStatus: Int32 {
        if case .notAReorder = change { return 1 }
        return summary.exitStatus
    }

    /// Infers and decides.
    public init(policy: CompiledPolicy, before: Table, after: Table) {
        change = MoveInference.infer(before: before, after: after)
        decisions = []
        summary = DecisionJSON.Summary()
        let moves: [Move]
        switch change {
        case .unchanged, .notAReorder: moves = []
        case .move(let m): moves = [m]
        case .exchange(_, _, let m), .moves(let m): moves = m
        }
        // The first move binds the policy; each move then updates that binding
        // (BoundPolicy.follow: O(log n) and the held ranges the row passes or shifts, no pass
        // over the rows). A move it cannot follow (a selector with keys the fast paths do not
        // know; none is built in) binds the moved table again, through a memo of the rows'
        // content. Section moves are decided on the section rules' binding (below).
        var table: Table? = before  // nil while `bound` or `sections` holds it
        var bound: BoundPolicy?
        var sections: BoundPolicy?  // the section rules' binding, while section moves lead
        var memo: RowContentMemo?
        // Moves the binding followed that the memo has not seen yet: applied to it before it is
        // used again, so a diff that never binds twice never pays for it.
        var unseen: [Move] = []
        for move in moves {
            // Inferred moves always fit the table they apply to.
            let decision: Decision
            do {
                if case .section = move, bound == nil {
                    // Section moves come first (MoveInference.plan) and are decided by section
                    // rules alone: one binding of them (O(sections)), which holds the table and
                    // follows each section move (the sections between its two places); the
                    // whole table is bound once, after them.
                    guard var current = sections ?? table.take().map(policy.bindSections) else { break }
                    sections = nil  // `current` owns the binding (its first move copies the
                                    // sections array `before` still shares, once)
                    decision = try current.decide(move)
                    _ = try current.follow(move)  // a binding of section rules follows every section move
                    sections = current
                    if memo != nil { unseen.append(move) }
                    decisions.append(decision)
                    summary.add(decision.kind)
                    continue
                }
                if let followed = sections.take() { table = followed.table }
                var current: BoundPolicy
                if let followed = bound {
                    current = followed
                    bound = nil  // `current` is now the binding's one owner: followed in place
                } else if let rows = table {
                    let numbered = memo ?? RowContentMemo(rows)
                    if memo != nil {
                        for m in unseen { numbered.apply(m) }
                    }
                    memo = numbered
                    unseen.removeAll()
                    current = policy.bind(rows, memo: numbered)
                    table = nil
                } else {
                    break  // unreachable: one of the two always holds the table
                }
                decision = try current.decide(move)
                if try current.follow(move) {
                    bound = current
                } else {
                    // Bound again before the next move: O(rows) then anyway, so a copy of the
                    // table here (when the binding still shares it) costs no more than that.
                    var rows = current.table
                    try rows.apply(move)
                    table = rows
                }
                unseen.append(move)
            } catch {
                break
            }
            decisions.append(decision)
            summary.add(decision.kind)
        }
    }

    /// The report as JSON: `change`, `detail`, the check-style `results` and `summary`.
    public func json(policy name: String) -> String {
        var w = JSONWriter()
        w.raw("{\n  \"policy\": ")
        w.string(name)
        w.raw(",\n  \"change\": ")
        w.string(keyword)
        w.raw(",\n  \"detail\": ")
        w.string(detail)
        w.raw(",\n  \"results\": [")
        for (n, d) in decisions.enumerated() {
            DecisionJSON.separator(n, into: &w)
            DecisionJSON.result(d, into: &w)
        }
        DecisionJSON.close(summary, empty: decisions.isEmpty, into: &w)
        return w.text
    }

    /// The report as text.
    public func text(style: TerminalStyle) -> String {
        var lines = [style.bold("change") + "  \(keyword): \(detail)"]
        // The decision words in one column: every move is known before the first is written.
        let width = decisions.lazy.map { DecisionText.move($0.move).count }.max() ?? 0
        for d in decisions { lines += DecisionText.lines(d, style: style, moveWidth: width) }
        lines.append(DecisionText.summary(summary, style: style))
        return lines.joined(separator: "\n") + "\n"
    }
}
