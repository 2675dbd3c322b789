/// Infers the moves that turn one snapshot of a table into another, for services that receive
/// whole new orders from clients.
///
/// Rows are matched by id (rows sharing an id are matched in reading order). Sections must
/// be the same, in the same order. The moves are as few as possible: a row that changes
/// section moves; within a section, the rows outside a longest increasing subsequence of
/// their old positions move. Applying the moves in order to `before` gives `after`.
public enum MoveInference {
    /// What changed between two snapshots.
    public enum Change: Hashable, Sendable {
        /// Nothing.
        case unchanged
        /// One row move.
        case move(Move)
        /// Two rows exchanged places: not a move; these two moves reproduce it.
        case exchange(Position, Position, moves: [Move])
        /// Several moves, in the order to apply them.
        case moves([Move])
        /// Not a reordering: rows or sections added, removed or renamed.
        case notAReorder(String)
    }

    /// The change from `before` to `after`.
    public static func infer(before: Table, after: Table) -> Change {
        guard before.sections.count == after.sections.count else {
            return .notAReorder("the number of sections changed from \(before.sections.count) to \(after.sections.count)")
        }
        for (u, (a, b)) in zip(before.sections, after.sections).enumerated() where a.id != b.id {
            return .notAReorder("section \(u) changed id from \(a.id.map { "\"\($0)\"" } ?? "none") to \(b.id.map { "\"\($0)\"" } ?? "none")")
        }
        // Match rows: the k-th occurrence of an id before is the k-th occurrence after.
        var occurrences: [String: [Position]] = [:]
        for (s, section) in before.sections.enumerated() {
            for (r, row) in section.rows.enumerated() { occurrences[row.id, default: []].append(Position(section: s, row: r)) }
        }
        var used: [String: Int] = [:]
        var origin: [[Position]] = []  // origin[t][j]: where the row now at t.j was before
        var added: [String] = []
        for section in after.sections {
            var list: [Position] = []
            for row in section.rows {
                let k = used[row.id, default: 0]
                if let p = occurrences[row.id], k < p.count {
                    list.append(p[k])
                    used[row.id] = k + 1
                } else {
                    added.append(row.id)
                }
            }
            origin.append(list)
        }
        let removed = occurrences.flatMap { id, list in Array(repeating: id, count: list.count - used[id, default: 0]) }
        if !added.isEmpty || !removed.isEmpty {
            var parts: [String] = []
            if !added.isEmpty { parts.append("added " + added.sorted().map { "\"\($0)\"" }.joined(separator: ", ")) }
            if !removed.isEmpty { parts.append("removed " + removed.sorted().map { "\"\($0)\"" }.joined(separator: ", ")) }
            return .notAReorder("rows were " + parts.joined(separator: " and "))
        }
        // Rows that stay: same section, on a longest increasing run of old positions.
        var stays = Set<Position>()
        for (t, list) in origin.enumerated() {
            let own = list.filter { $0.section == t }
            for k in longestIncreasing(own.map(\.row)) { stays.insert(own[k]) }
        }
        // Place each mover right after its nearest placed predecessor in the new order.
        var working = before.sections.indices.map { s in before.sections[s].rows.indices.map { Position(section: s, row: $0) } }
        var placed = stays
        var moves: [Move] = []
        for (t, list) in origin.enumerated() {
            for (j, row) in list.enumerated() where !placed.contains(row) {
                let from = locate(row, in: working)
                working[from.section].remove(at: from.row)
                let predecessor = list[..<j].last { placed.contains($0) }
                let index = predecessor.map { locate($0, in: working).row + 1 } ?? 0
                working[t].insert(row, at: index)
                moves.append(.row(from: from, to: Position(section: t, row: index)))
                placed.insert(row)
            }
        }
        switch moves.count {
        case 0: return .unchanged
        case 1: return .move(moves[0])
        default:
            if let pair = exchangedPair(origin) { return .exchange(pair.0, pair.1, moves: moves) }
            return .moves(moves)
        }
    }

    /// Two rows that swapped places while every other row stayed: their old positions.
    static func exchangedPair(_ origin: [[Position]]) -> (Position, Position)? {
        var changed: [(now: Position, was: Position)] = []
        for (t, list) in origin.enumerated() {
            for (j, was) in list.enumerated() where was != Position(section: t, row: j) {
                changed.append((Position(section: t, row: j), was))
            }
        }
        guard changed.count == 2, changed[0].now == changed[1].was, changed[1].now == changed[0].was else { return nil }
        return (changed[0].was, changed[1].was)
    }

    static func locate(_ row: Position, in working: [[Position]]) -> Position {
        for (s, list) in working.enumerated() {
            if let r = list.firstIndex(of: row) { return Position(section: s, row: r) }
        }
        preconditionFailure("every row is in the working table")
    }

    /// Indices of one longest strictly increasing subsequence of `values` (patience sorting).
    static func longestIncreasing(_ values: [Int]) -> [Int] {
        var tails: [Int] = [], previous = [Int](repeating: -1, count: values.count)
        for (i, v) in values.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var out: [Int] = []
        var k = tails.last ?? -1
        while k >= 0 {
            out.append(k)
            k = previous[k]
        }
        return out.reversed()
    }
}
