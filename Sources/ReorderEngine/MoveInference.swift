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
        // Place each mover right after its predecessor in the new order. Rows are visited in
        // the new order, so that predecessor is always placed already. Positions in the working
        // table come from an order-statistics tree, so each move costs O(log n), not a scan.
        var base: [Int] = [], total = 0
        for section in before.sections {
            base.append(total)
            total += section.rows.count
        }
        var working = SequenceForest(sectionSizes: before.sections.map(\.rows.count))
        var placed = stays
        var moves: [Move] = []
        for (t, list) in origin.enumerated() {
            for (j, row) in list.enumerated() where !placed.contains(row) {
                let node = base[row.section] + row.row
                let from = working.position(of: node)
                working.remove(node)
                let index = j == 0 ? 0 : working.position(of: base[list[j - 1].section] + list[j - 1].row).row + 1
                working.insert(node, into: t, at: index)
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

/// The rows of every section as implicit treaps (one per section, nodes are rows numbered in
/// reading order of the starting table): where a row is, removing it and inserting it at an
/// index each cost O(log n) expected.
struct SequenceForest {
    private var left: [Int], right: [Int], parent: [Int], size: [Int], priority: [UInt64]
    private var roots: [Int]
    private var sectionOf: [Int]

    init(sectionSizes: [Int]) {
        let n = sectionSizes.reduce(0, +)
        left = Array(repeating: -1, count: n)
        right = left
        parent = left
        size = Array(repeating: 1, count: n)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        priority = (0..<n).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        roots = []
        sectionOf = []
        var next = 0
        for (s, count) in sectionSizes.enumerated() {
            var root = -1
            for node in next..<(next + count) {
                root = merge(root, node)
                sectionOf.append(s)
            }
            roots.append(root)
            next += count
        }
    }

    private func count(_ t: Int) -> Int { t < 0 ? 0 : size[t] }

    private mutating func update(_ t: Int) {
        size[t] = 1 + count(left[t]) + count(right[t])
        if left[t] >= 0 { parent[left[t]] = t }
        if right[t] >= 0 { parent[right[t]] = t }
    }

    private mutating func merge(_ a: Int, _ b: Int) -> Int {
        if a < 0 { return b }
        if b < 0 { return a }
        if priority[a] > priority[b] {
            right[a] = merge(right[a], b)
            update(a)
            parent[a] = -1
            return a
        }
        left[b] = merge(a, left[b])
        update(b)
        parent[b] = -1
        return b
    }

    /// The first `k` nodes of `t`, and the rest.
    private mutating func split(_ t: Int, _ k: Int) -> (Int, Int) {
        if t < 0 { return (-1, -1) }
        if count(left[t]) >= k {
            let (a, b) = split(left[t], k)
            left[t] = b
            update(t)
            parent[t] = -1
            if a >= 0 { parent[a] = -1 }
            return (a, t)
        }
        let (a, b) = split(right[t], k - count(left[t]) - 1)
        right[t] = a
        update(t)
        parent[t] = -1
        if b >= 0 { parent[b] = -1 }
        return (t, b)
    }

    /// Where row `node` is now.
    func position(of node: Int) -> Position {
        var index = count(left[node]), c = node
        while parent[c] >= 0 {
            let p = parent[c]
            if right[p] == c { index += count(left[p]) + 1 }
            c = p
        }
        return Position(section: sectionOf[node], row: index)
    }

    mutating func remove(_ node: Int) {
        let p = position(of: node)
        let (a, rest) = split(roots[p.section], p.row)
        let (_, c) = split(rest, 1)
        roots[p.section] = merge(a, c)
        left[node] = -1
        right[node] = -1
        parent[node] = -1
        size[node] = 1
    }

    mutating func insert(_ node: Int, into section: Int, at index: Int) {
        let (a, c) = split(roots[section], index)
        roots[section] = merge(merge(a, node), c)
        sectionOf[node] = section
    }
}
