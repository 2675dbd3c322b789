import Foundation
import ReorderPolicy

/// Inputs shared by the benchmarks, built deterministically.
enum Fixtures {
    /// Pinned header, same-section only, reserved "Add" row: Apple's listing 8-3 plus a header.
    static let listingPolicy = Policy(name: "listing", rules: [
        RowRule(.pin(RowSelector(position: .first(1)), anchor: nil), metadata: RuleMetadata(id: "header")),
        RowRule(.keepInSection(.all), metadata: RuleMetadata(id: "own-section")),
        RowRule(.reserve(edge: .end, count: 1, section: nil), metadata: RuleMetadata(id: "add-row")),
    ])

    /// A board: cross-section moves with accept and capacity rules.
    static let boardPolicy = Policy(name: "board", rules: [
        RowRule(.accept(section: .index(-1), from: .some([]), rows: .all), metadata: RuleMetadata(id: "archive")),
        RowRule(.capacity(section: .index(1), max: 3, min: nil), metadata: RuleMetadata(id: "wip")),
        RowRule(.pin(RowSelector(position: .first(1)), anchor: nil), metadata: RuleMetadata(id: "header")),
    ])

    /// A kanban board (SPEC §8): every third section a pool, the rest buckets with their own
    /// `wip` attribute, every tenth tagged `sorted`; half the rows are notes.
    static func kanbanTable(sections: Int, rows: Int) -> Table {
        Table(sections: (0..<sections).map { s in
            Section(id: "S\(s)", kind: s % 3 == 0 ? "pool" : "bucket", tags: s % 10 == 9 ? ["sorted"] : [],
                    attributes: s % 3 == 0 ? [:] : ["wip": rows + s % 2],
                    rows: (0..<rows).map { Row(id: "r\(s).\($0)", kind: $0 % 2 == 0 ? "card" : "note") })
        })
    }

    /// The kanban policy, selecting sections by kind, tag and attribute (`byData`), or the
    /// same policy for one table size written with index lists and numbers: the two decide alike.
    static func kanbanPolicy(byData: Bool, sections: Int, rows: Int) -> Policy {
        let buckets = (0..<sections).filter { $0 % 3 != 0 }, sorted = (0..<sections).filter { $0 % 10 == 9 }
        let bucketSel: SectionSelector = byData ? .matching(SectionFilter(kinds: ["bucket"])) : .some(buckets.map { .index($0) })
        let sortedSel: SectionSelector = byData ? .matching(SectionFilter(tags: ["sorted"])) : .some(sorted.map { .index($0) })
        let workSel: SectionSelector = byData ? .matching(SectionFilter(kinds: ["bucket"], not: .matching(SectionFilter(tags: ["sorted"]))))
            : .some(buckets.filter { $0 % 10 != 9 }.map { .index($0) })
        var rules: [RowRule] = []
        if byData {
            rules.append(RowRule(.capacity(section: bucketSel, max: .attribute("wip"), min: nil), metadata: RuleMetadata(id: "wip")))
        } else {
            // Two capacity rules, one per wip value the fixture gives.
            let even = buckets.filter { $0 % 2 == 0 }, odd = buckets.filter { $0 % 2 == 1 }
            rules.append(RowRule(.capacity(section: .some(even.map { .index($0) }), max: .value(rows), min: nil), metadata: RuleMetadata(id: "wip")))
            rules.append(RowRule(.capacity(section: .some(odd.map { .index($0) }), max: .value(rows + 1), min: nil), metadata: RuleMetadata(id: "wip-odd")))
        }
        rules.append(RowRule(.accept(section: sortedSel, from: workSel, rows: .all), metadata: RuleMetadata(id: "done-from-work")))
        rules.append(RowRule(.keepOrder(sortedSel), metadata: RuleMetadata(id: "done-sorted")))
        let notes = byData ? RowSelector(not: RowSelector(kinds: ["card"])) : RowSelector(kinds: ["note"])
        rules.append(RowRule(.keepInSection(notes), metadata: RuleMetadata(id: "notes-stay")))
        return Policy(name: "kanban", rules: rules)
    }

    static func table(sections: Int, rows: Int) -> Table {
        Table(sections: (0..<sections).map { s in Section(id: "S\(s)", rows: (0..<rows).map { Row(id: "r\(s).\($0)") }) })
    }

    /// Deterministic pseudo-random proposals for a table of `sections` × `rows`.
    static func proposals(sections: Int, rows: Int, count: Int = 4096, crossSection: Double = 0.25) -> [(Position, Position)] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<count).map { _ in
            let s = next(sections), i = next(rows)
            let t = next(100) < Int(crossSection * 100) ? next(sections) : s
            let j = next(t == s ? rows : rows + 1)
            return (Position(section: s, row: i), Position(section: t, row: j))
        }
    }

    /// The hand-written baseline: what an app would write in `targetIndexPathForMoveFromRowAt`
    /// for the listing policy (header row 0 pinned, last row reserved, rows stay in their section).
    @inline(never)
    static func handWrittenTarget(from: Position, proposed: Position, rowCounts: [Int]) -> Position {
        let n = rowCounts[from.section]
        if from.row == 0 || from.row == n - 1 { return from }
        if proposed.section < from.section { return Position(section: from.section, row: 1) }
        if proposed.section > from.section { return Position(section: from.section, row: n - 2) }
        return Position(section: from.section, row: min(max(proposed.row, 1), n - 2))
    }

    /// SPEC §13: pinned chats stay among pinned chats in one flat list per section, rows stay in
    /// their section, and an invalid drop stays in the own section at the proposed row.
    static let amongPolicy = Policy(name: "among", retarget: .sourceSection, rules: [
        RowRule(.keepAmong(.rows(RowSelector(tags: ["pinned"]))), metadata: RuleMetadata(id: "pinned-apart")),
        RowRule(.keepInSection(.all), metadata: RuleMetadata(id: "own-section")),
    ])

    /// `sections` × `rows`, the first `pinned` rows of each section tagged `pinned`.
    static func chatsTable(sections: Int, rows: Int, pinned: Int) -> Table {
        Table(sections: (0..<sections).map { s in
            Section(id: "S\(s)", rows: (0..<rows).map { Row(id: "r\(s).\($0)", tags: $0 < pinned ? ["pinned"] : []) })
        })
    }

    /// The hand-written baseline for ``amongPolicy``: what an app writes in
    /// `targetIndexPathForMoveFromRowAt` when it keeps the number of pinned rows per section
    /// (pinned rows first): the row stays in its section, among its own group, at the proposed
    /// row (`IndexPath(row: proposed.row, section: source.section)`, clamped).
    @inline(never)
    static func handWrittenAmongTarget(from: Position, proposed: Position, rowCounts: [Int], pinnedCounts: [Int]) -> Position {
        let n = rowCounts[from.section], p = pinnedCounts[from.section]
        let (lo, hi) = from.row < p ? (0, p - 1) : (p, n - 1)
        return Position(section: from.section, row: min(max(min(proposed.row, n - 1), lo), hi))
    }

    /// A moves file of `count` flow-style moves over a 10 × 100 table (about 32 bytes a move).
    static func movesFile(count: Int) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reorder-bench-moves-\(count).yaml").path
        if FileManager.default.fileExists(atPath: path) { return path }
        var text = ""
        text.reserveCapacity(count * 34)
        for (from, to) in proposals(sections: 10, rows: 100, count: count, crossSection: 0.5) {
            text += "- {from: [\(from.section), \(from.row)], to: [\(to.section), \(to.row)]}\n"
        }
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
