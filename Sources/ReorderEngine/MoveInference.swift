/// Infers the moves that turn one snapshot of a table into another, for services that receive
/// whole new orders from clients.
///
/// The moves are as few as possible (SPEC §1's model: a section move, then row moves):
/// - **Sections** are matched by id (sections sharing an id, or having none, by the rows they
///   share); when their order changed, the sections off a longest increasing run of their old
///   indices move, one section move each.
/// - **Rows** are matched by their whole value (id, kind, tags). Within a section the rows that
///   stay form a common subsequence of the old and new order, so a longest common subsequence
///   (Hunt–Szymanski: n log n for distinct ids) gives the fewest row moves, also when ids repeat.
///   Every other row moves once, placed right after its new predecessor.
///
/// Applying the moves in order to `before` gives `after`. A changed row kind or tag list, or a
/// changed section kind, tag list or attribute, is an edit: ``Change/notAReorder(_:)`` says which.
public enum MoveInference {
    /// What changed between two snapshots.
    public enum Change: Hashable, Sendable {
        /// Nothing.
        case unchanged
        /// One move (a row or a section).
        case move(Move)
        /// Two rows exchanged places: not a move; these two moves reproduce it.
        case exchange(Position, Position, moves: [Move])
        /// Several moves, in the order to apply them (section moves first).
        case moves([Move])
        /// Not a reordering: rows or sections added, removed, renamed or edited.
        case notAReorder(String)
    }

    /// Match pairs one section's longest-common-subsequence search may look at; past it (rows
    /// that nearly all share one id) rows are paired by occurrence, which may move a few more.
    static let pairLimit = 4_000_000

    /// The change from `before` to `after`.
    public static func infer(before: Table, after: Table) -> Change {
        guard before.sections.count == after.sections.count else {
            return .notAReorder("the number of sections changed from \(before.sections.count) to \(after.sections.count)")
        }
        if let why = rowSetChange(before, after) { return .notAReorder(why) }
        let orders: [[Int]]
        switch matchSections(before, after) {
        case .failure(let why): return .notAReorder(why.message)
        case .success(let o): orders = o
        }
        // Each candidate matching of sections gives a plan; the fewest moves wins.
        var best: (moves: [Move], origin: [[Position]])? = nil
        for order in orders {
            let plan = plan(before, after, order)
            if best == nil || plan.moves.count < best!.moves.count { best = plan }  // not nil: tested first
        }
        let (moves, origin) = best!  // `candidates` gives at least one order (the relative one)
        switch moves.count {
        case 0: return .unchanged
        case 1: return .move(moves[0])
        default:
            if moves.allSatisfy({ if case .row = $0 { true } else { false } }), let pair = exchangedPair(origin) {
                return .exchange(pair.0, pair.1, moves: moves)
            }
            return .moves(moves)
        }
    }

    /// The moves for one matching of sections (`order[u]`: the before-index of the section now
    /// at `u`), and where each row of `after` was once the sections are in place.
    static func plan(_ before: Table, _ after: Table, _ order: [Int]) -> (moves: [Move], origin: [[Position]]) {
        // 1. Section moves: the sections off a longest increasing run of old indices.
        var moves: [Move] = []
        // Section positions from an order-statistics tree (one "section" of sections): O(log S) a move.
        var current = SequenceForest(sectionSizes: [before.sections.count])
        let staying = Set(longestIncreasing(order).map { order[$0] })
        for (u, b) in order.enumerated() where !staying.contains(b) {
            let from = current.position(of: b).row
            current.remove(b)
            let to = u == 0 ? 0 : current.position(of: order[u - 1]).row + 1
            current.insert(b, into: 0, at: to)
            moves.append(.section(from: from, to: to))
        }
        let reordered = Table(sections: order.map { before.sections[$0] })
        // 2. Row moves, section by section matched.
        let origin = matchRows(reordered, after)
        var stays = Set<Position>()
        for list in origin {
            for entry in list where entry.stays { stays.insert(entry.position) }
        }
        var base: [Int] = [], total = 0
        for section in reordered.sections {
            base.append(total)
            total += section.rows.count
        }
        // Place each mover right after its predecessor in the new order. Rows are visited in
        // the new order, so that predecessor is always placed already. Positions in the working
        // table come from an order-statistics tree, so each move costs O(log n), not a scan.
        var working = SequenceForest(sectionSizes: reordered.sections.map(\.rows.count))
        var placed = stays
        for (t, list) in origin.enumerated() {
            for (j, entry) in list.enumerated() where !placed.contains(entry.position) {
                let row = entry.position
                let node = base[row.section] + row.row
                let from = working.position(of: node)
                working.remove(node)
                let previous = j == 0 ? nil : list[j - 1].position
                let index = previous.map { working.position(of: base[$0.section] + $0.row).row + 1 } ?? 0
                working.insert(node, into: t, at: index)
                moves.append(.row(from: from, to: Position(section: t, row: index)))
                placed.insert(row)
            }
        }
        return (moves, origin.map { $0.map(\.position) })
    }

    // MARK: Edits

    /// Why the rows are not the same rows in another order: ids added or removed, or a row's
    /// kind or tags changed. Nil when the two tables hold the same rows.
    static func rowSetChange(_ before: Table, _ after: Table) -> String? {
        var ids: [String: Int] = [:]
        for section in before.sections { for row in section.rows { ids[row.id, default: 0] += 1 } }
        for section in after.sections { for row in section.rows { ids[row.id, default: 0] -= 1 } }
        let added = ids.filter { $0.value < 0 }.flatMap { Array(repeating: $0.key, count: -$0.value) }
        let removed = ids.filter { $0.value > 0 }.flatMap { Array(repeating: $0.key, count: $0.value) }
        if !added.isEmpty || !removed.isEmpty {
            var parts: [String] = []
            if !added.isEmpty { parts.append("added " + added.sorted().map { "\"\($0)\"" }.joined(separator: ", ")) }
            if !removed.isEmpty { parts.append("removed " + removed.sorted().map { "\"\($0)\"" }.joined(separator: ", ")) }
            return "rows were " + parts.joined(separator: " and ")
        }
        // Same ids: is every row the same value (kind, tags)?
        var rows: [Row: Int] = [:]
        for section in before.sections { for row in section.rows { rows[row, default: 0] += 1 } }
        for section in after.sections { for row in section.rows { rows[row, default: 0] -= 1 } }
        guard rows.values.contains(where: { $0 != 0 }) else { return nil }
        // The first row of `after` (reading order) that has no equal before: what changed.
        for (t, section) in after.sections.enumerated() {
            for (j, row) in section.rows.enumerated() where rows[row, default: 0] < 0 {
                let was = rows.first { $0.value > 0 && $0.key.id == row.id }?.key
                return "row \"\(row.id)\" (now at \(Position(section: t, row: j))) was edited: " + edits(was, row)
            }
        }
        return "rows were edited"
    }

    private static func edits(_ was: Row?, _ now: Row) -> String {
        guard let was else { return "its kind or tags changed" }
        var parts: [String] = []
        if was.kind != now.kind { parts.append("kind \(quoted(was.kind)) → \(quoted(now.kind))") }
        if was.tags != now.tags { parts.append("tags \(list(was.tags)) → \(list(now.tags))") }
        return parts.joined(separator: ", ")
    }

    private static func quoted(_ s: String?) -> String { s.map { "\"\($0)\"" } ?? "none" }
    private static func list(_ items: [String]) -> String { "[" + items.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }

    // MARK: Sections

    /// Candidate matchings of sections, each as `order[u]`: the index before of the section
    /// now at `u`. Sections are matched by id; among sections with one id (or none): the same
    /// positions when the ids allow it, and a matching by content (an equal section first,
    /// else the one sharing the most rows, else the earliest). A changed id, kind, tag list or
    /// attribute is an edit.
    static func matchSections(_ before: Table, _ after: Table) -> Result<[[Int]], MoveError> {
        var groups: [String?: [Int]] = [:]
        for (u, section) in before.sections.enumerated() { groups[section.id, default: []].append(u) }
        var counts = groups.mapValues(\.count)
        for section in after.sections { counts[section.id, default: 0] -= 1 }
        if counts.values.contains(where: { $0 != 0 }) {
            let added = counts.filter { $0.value < 0 }.map { quoted($0.key) }.sorted()
            let removed = counts.filter { $0.value > 0 }.map { quoted($0.key) }.sorted()
            var parts: [String] = []
            if !added.isEmpty { parts.append("added \(added.joined(separator: ", "))") }
            if !removed.isEmpty { parts.append("removed \(removed.joined(separator: ", "))") }
            return .failure(MoveError("section ids changed: " + parts.joined(separator: " and ")))
        }
        // Same ids: now the whole data (kind, tags, attributes) must match too, else it is an edit.
        var keyCounts: [SectionKey: Int] = [:]
        for section in before.sections { keyCounts[SectionKey(section), default: 0] += 1 }
        for section in after.sections { keyCounts[SectionKey(section), default: 0] -= 1 }
        if keyCounts.values.contains(where: { $0 != 0 }) {
            // Both loops above gave every section of either table a key: the unwraps hold.
            for (u, now) in after.sections.enumerated() where keyCounts[SectionKey(now)]! < 0 {
                if let was = before.sections.first(where: { $0.id == now.id && keyCounts[SectionKey($0)]! > 0 }),
                   let edit = sectionEdit(was, now, u) {
                    return .failure(MoveError(edit))
                }
            }
            return .failure(MoveError("sections were edited"))
        }
        var byKey: [SectionKey: [Int]] = [:]
        for (u, section) in before.sections.enumerated() { byKey[SectionKey(section), default: []].append(u) }
        return .success(candidates(byKey, before, after))
    }

    /// A section's identity for matching: everything but its rows.
    struct SectionKey: Hashable {
        /// The section with its rows left out: every other field, whatever fields sections have.
        let fields: Section
        init(_ s: Section) {
            var fields = s
            fields.rows = []
            self.fields = fields
        }
    }

    /// Candidate matchings of sections with equal keys: every one when few enough, else the
    /// same positions (when possible), the relative order kept, and a matching by content.
    ///
    /// `groups` holds every key of `before`, and `after` has the same keys (`matchSections`
    /// checked that every key counts as often in both): `groups[SectionKey(s)]!` holds for a
    /// section of either table.
    static func candidates(_ groups: [SectionKey: [Int]], _ before: Table, _ after: Table) -> [[Int]] {
        // Few sections share a key: try every matching (the fewest moves are then guaranteed).
        if let every = everyMatching(groups, after, rows: before.sections.reduce(0) { $0 + $1.rows.count }) {
            return every
        }
        var orders: [[Int]] = []
        if zip(before.sections, after.sections).allSatisfy({ SectionKey($0) == SectionKey($1) }) { orders.append(Array(before.sections.indices)) }
        // Sections sharing a key keep their relative order (what section moves alone do).
        var next: [SectionKey: Int] = [:]
        let inOrder = after.sections.map { section -> Int in
            let k = next[SectionKey(section), default: 0]
            next[SectionKey(section)] = k + 1
            return groups[SectionKey(section)]![k]  // every key is in `groups` (see above)
        }
        if !orders.contains(inOrder) { orders.append(inOrder) }
        // By content. Rows per section as counts, only for groups with a choice to make.
        let shared = groups.values.contains { $0.count > 1 }
        var rowCounts: [[String: Int]] = []
        if shared {
            rowCounts = before.sections.map { section in
                var c: [String: Int] = [:]
                for row in section.rows { c[row.id, default: 0] += 1 }
                return c
            }
        }
        var taken = [Bool](repeating: false, count: before.sections.count)
        var order = [Int](repeating: -1, count: after.sections.count)
        // First every section that has an equal one before (hashed: linear in the rows), then the
        // rest by the rows they share (scored only in groups of at most 64: linear in large ones).
        var equal: [Section: [Int]] = [:]
        // `groups` has a key for every section of `before` (see above).
        for (b, section) in before.sections.enumerated() where groups[SectionKey(section)]!.count > 1 {
            equal[section, default: []].append(b)
        }
        var equalNext: [Section: Int] = [:]
        for (u, section) in after.sections.enumerated() where groups[SectionKey(section)]!.count > 1 {  // every key is in `groups`
            let k = equalNext[section, default: 0]
            if let list = equal[section], k < list.count {
                equalNext[section] = k + 1
                taken[list[k]] = true
                order[u] = list[k]
            }
        }
        var firstFree: [SectionKey: Int] = [:]
        for (u, section) in after.sections.enumerated() where order[u] < 0 {
            let key = SectionKey(section), group = groups[key]!  // every key is in `groups`
            guard group.count <= 64 else {
                var k = firstFree[key, default: 0]
                while taken[group[k]] { k += 1 }
                firstFree[key] = k
                taken[group[k]] = true
                order[u] = group[k]
                continue
            }
            let candidates = group.filter { !taken[$0] }
            var best = candidates[0]
            if candidates.count > 1 {
                do {
                    var mine: [String: Int] = [:]
                    for row in section.rows { mine[row.id, default: 0] += 1 }
                    // Shared rows (multiset intersection); ties: the same index, then the earliest.
                    func score(_ b: Int) -> (Int, Int) {
                        let common = mine.reduce(0) { $0 + Swift.min($1.value, rowCounts[b][$1.key] ?? 0) }
                        return (common, b == u ? 1 : 0)
                    }
                    for b in candidates.dropFirst() where score(b) > score(best) { best = b }
                }
            }
            taken[best] = true
            order[u] = best
        }
        if !orders.contains(order) { orders.append(order) }
        return orders
    }

    /// Matchings tried one by one at most, and rows times matchings planned at most.
    static let matchingLimit = 5_040
    static let matchingWork = 4_000_000

    /// Every matching of sections that respects ids, when there are few enough to plan each.
    static func everyMatching(_ groups: [SectionKey: [Int]], _ after: Table, rows: Int) -> [[Int]]? {
        var count = 1
        for list in groups.values where list.count > 1 {
            for k in 2...list.count {
                count *= k
                if count > matchingLimit { return nil }
            }
        }
        guard count == 1 || count * Swift.max(rows, 1) <= matchingWork else { return nil }
        // Positions in `after` of each group, and every permutation of the group's before-indices.
        var slots: [SectionKey: [Int]] = [:]
        for (u, section) in after.sections.enumerated() { slots[SectionKey(section), default: []].append(u) }
        var orders: [[Int]] = [[Int](repeating: -1, count: after.sections.count)]
        for (id, list) in groups {
            var next: [[Int]] = []
            for order in orders {
                for perm in permutations(list) {
                    var o = order
                    for (k, u) in slots[id]!.enumerated() { o[u] = perm[k] }  // `after` has every key of `groups`
                    next.append(o)
                }
            }
            orders = next
        }
        // The identity (when ids allow it) first, so that among equal plans no section moves.
        if let k = orders.firstIndex(of: Array(after.sections.indices)) { orders.swapAt(0, k) }
        return orders
    }

    static func permutations(_ list: [Int]) -> [[Int]] {
        guard list.count > 1 else { return [list] }
        var out: [[Int]] = []
        for (k, first) in list.enumerated() {
            var rest = list
            rest.remove(at: k)
            for p in permutations(rest) { out.append([first] + p) }
        }
        return out
    }

    /// A changed kind, tag list or attribute of a section, in words (nil when none changed).
    static func sectionEdit(_ was: Section, _ now: Section, _ u: Int) -> String? {
        var parts: [String] = []
        if was.kind != now.kind { parts.append("kind \(quoted(was.kind)) → \(quoted(now.kind))") }
        if was.tags != now.tags { parts.append("tags \(list(was.tags)) → \(list(now.tags))") }
        if was.attributes != now.attributes {
            let show = { (a: [String: Int]) in "{" + a.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}" }
            parts.append("attributes \(show(was.attributes)) → \(show(now.attributes))")
        }
        guard !parts.isEmpty else { return nil }
        let name = now.id.map { "section \"\($0)\"" } ?? "section \(u)"
        return "\(name) was edited: " + parts.joined(separator: ", ")
    }

    // MARK: Rows

    /// For each row of `after`, the position in `before` (sections already in `after`'s order)
    /// of the row it is, and whether it stays (on the section's longest common subsequence).
    static func matchRows(_ before: Table, _ after: Table) -> [[(position: Position, stays: Bool)]] {
        var origin: [[(position: Position, stays: Bool)?]] = after.sections.map { Array(repeating: nil, count: $0.rows.count) }
        var used = Set<Position>()
        for t in after.sections.indices {
            for (j, p) in commonSubsequence(before.sections[t].rows, after.sections[t].rows) {
                origin[t][j] = (Position(section: t, row: p), true)
                used.insert(Position(section: t, row: p))
            }
        }
        // The other rows: equal rows paired in reading order.
        var pool: [Row: [Position]] = [:]
        for (s, section) in before.sections.enumerated() {
            for (r, row) in section.rows.enumerated() where !used.contains(Position(section: s, row: r)) {
                pool[row, default: []].append(Position(section: s, row: r))
            }
        }
        var next: [Row: Int] = [:]
        for (t, section) in after.sections.enumerated() {
            for (j, row) in section.rows.enumerated() where origin[t][j] == nil {
                let k = next[row, default: 0]
                next[row] = k + 1
                // The tables hold the same rows (checked before matching), so `pool` has each
                // unmatched row of `after` as often as it occurs.
                origin[t][j] = (pool[row]![k], false)
            }
        }
        // Every row of `after` has its origin now: the subsequence rows, then the pool pairs.
        return origin.map { $0.map { $0! } }
    }

    /// One longest common subsequence of two rows lists, as (index in `b`, index in `a`) pairs:
    /// Hunt–Szymanski, a longest strictly increasing run over the match pairs taken in `b`'s
    /// order with each element's positions in `a` descending. Past ``pairLimit`` pairs, rows
    /// are paired by occurrence and the increasing run is taken over those.
    static func commonSubsequence(_ a: [Row], _ b: [Row]) -> [(Int, Int)] {
        var positions: [Row: [Int]] = [:]
        for (i, row) in a.enumerated() { positions[row, default: []].append(i) }
        var pairs = 0
        for row in b { pairs += positions[row]?.count ?? 0 }
        var values: [Int] = [], owners: [Int] = []
        if pairs <= pairLimit {
            values.reserveCapacity(pairs)
            owners.reserveCapacity(pairs)
            for (j, row) in b.enumerated() {
                for i in (positions[row] ?? []).reversed() {
                    values.append(i)
                    owners.append(j)
                }
            }
        } else {
            var used: [Row: Int] = [:]
            for (j, row) in b.enumerated() {
                let k = used[row, default: 0]
                guard let list = positions[row], k < list.count else { continue }
                used[row] = k + 1
                values.append(list[k])
                owners.append(j)
            }
        }
        return longestIncreasing(values).map { (owners[$0], values[$0]) }
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

    /// The row at `index` of `section` (it must have one): O(log n) expected.
    func node(in section: Int, at index: Int) -> Int {
        var t = roots[section], k = index
        while true {
            let l = count(left[t])
            if k < l {
                t = left[t]
            } else if k == l {
                return t
            } else {
                k -= l + 1
                t = right[t]
            }
        }
    }

    /// The rows of `section` in order.
    func nodes(in section: Int) -> [Int] {
        var result: [Int] = [], stack: [Int] = []
        var t = roots[section]
        while t >= 0 || !stack.isEmpty {
            while t >= 0 {
                stack.append(t)
                t = left[t]
            }
            // The loop above pushed at least one node: the stack is not empty here.
            let top = stack.removeLast()
            result.append(top)
            t = right[top]
        }
        return result
    }
}
