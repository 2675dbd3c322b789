import Foundation
import Testing
import ReorderEngine
import ReorderPolicy

/// Every path that reads a table, timed on one section of n and of 8n rows (issue #26): the
/// ratio must stay below 24. Linear work gives about 8, n log n about 9.5 at these sizes, and a
/// quadratic path 64, so the bound catches superlinear code with room for a noisy machine; it
/// is a guard, not a measurement (BENCHMARKS.md, "Scaling", has the figures).
@Suite(.serialized) struct ScalingTests {
    /// Rules that scan rows (a tag, a kind, a `not`), the pin of issue #26's quadratic
    /// retarget (`last` with `anchor: start`: every row it holds is a pin the block can shift)
    /// and the list of positions and kinds of policies/chats.yaml (`diff` bound it again per
    /// move until it was laid out again from its places).
    static let policy: CompiledPolicy = {
        let text = """
            reorder-policy: 1
            name: scaling
            rules:
              - lock: { tag: blocked }
              - pin: { kind: header }
              - pin: { last: 5000, anchor: start }
              - accept: { section: 1, rows: { not: { id: x } } }
              - pin: [{ first: 1, kind: folder }, { last: 1, kind: invite }]
            section-rules:
              - lock: { section: { kind: archive } }
            """
        // The policy above is valid: a failure here is a bug in this file.
        return try! PolicyLoader.load(text: text + "\n").compile()
    }()

    /// Lists and `not`s that read positions: a held list whose items do not all name a
    /// position, a held `not` of a position, and a query that is such a list (`diff` bound
    /// each of them again per move until their matches were tested again at the places their
    /// positions name).
    static let listPolicy: CompiledPolicy = {
        let text = """
            reorder-policy: 1
            name: scaling-lists
            rules:
              - pin: [{ kind: header }, { last: 1 }]
              - lock: { tag: blocked, not: { last: 3 } }
              - keep-in-section: { not: [{ first: 1 }, { kind: header }] }
            """
        // The policy above is valid: a failure here is a bug in this file.
        return try! PolicyLoader.load(text: text + "\n").compile()
    }()

    static func table(_ n: Int) -> Table {
        var rows: [Row] = []
        rows.reserveCapacity(n)
        for k in 0..<n {
            rows.append(Row(id: "r\(k)", kind: k % 997 == 500 ? "header" : nil, tags: k % 991 == 400 ? ["blocked"] : []))
        }
        return Table(sections: [Section(id: "main", rows: rows), Section(id: "side", rows: (0..<10).map { Row(id: "s\($0)", kind: $0 == 0 ? "folder" : $0 == 9 ? "invite" : nil) })])
    }

    /// The fastest of `runs` runs, in seconds.
    static func fastest(runs: Int = 5, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let start = ContinuousClock.now
            try body()
            let d = ContinuousClock.now - start
            best = min(best, Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
        }
        return best
    }

    /// Each path, given a table of n rows in its first section.
    static let paths: [(name: String, run: @Sendable (Table) throws -> Void)] = [
        ("bind", { _ = policy.bind($0) }),
        ("check", { table in
            let n = table.sections[0].rows.count
            let bound = policy.bind(table)
            for (from, to) in [(0, n - 1), (n - 1, 0), (n / 2, 10), (3, n / 3)] {
                _ = try bound.decide(.row(from: Position(section: 0, row: from), to: Position(section: 0, row: to)))
            }
            _ = try bound.decide(.row(from: Position(section: 0, row: 1), to: Position(section: 1, row: 5)))
        }),
        ("explain", { table in
            let n = table.sections[0].rows.count
            let bound = policy.bind(table)
            _ = try bound.explain(.row(from: Position(section: 0, row: 2), to: Position(section: 0, row: n - 2)))
            _ = try bound.explain(.row(from: Position(section: 0, row: n / 2), to: Position(section: 1, row: 0)))
        }),
        ("offsets", { table in
            // Issue #26's input: two rows dropped three quarters of the way down.
            let n = table.sections[0].rows.count
            _ = try policy.bind(table).decide(IndexConvention.move(fromOffsets: [0, 1], toOffset: 3 * n / 4, section: 0))
        }),
        ("multi-row", { table in
            let n = table.sections[0].rows.count
            let bound = policy.bind(table)
            _ = try bound.decide(MultiRowMove(section: 0, rows: [1, n / 2, n - 2], to: Position(section: 1, row: 3)))
            _ = try bound.decide(MultiRowMove(section: 0, rows: [0, 7, 9], to: Position(section: 0, row: n / 2)))
        }),
        ("diff", { table in
            // One section reversed: n - 1 inferred moves, each decided on the table the moves
            // before it left (a binding followed through the moves, BoundPolicy.follow).
            var after = table
            after.sections[0].rows.reverse()
            _ = DiffReport(policy: policy, before: table, after: after)
        }),
        ("diff, lists and nots reading positions", { table in
            var after = table
            after.sections[0].rows.reverse()
            _ = DiffReport(policy: listPolicy, before: table, after: after)
        }),
        ("diff across sections", { table in
            // A quarter of the rows moved to the other section: n / 4 moves between sections,
            // followed too (both sections' counts, limits and held rows change).
            var after = table
            let rows = after.sections[0].rows
            after.sections[0].rows = rows.indices.filter { $0 % 4 != 1 }.map { rows[$0] }
            after.sections[1].rows += rows.indices.filter { $0 % 4 == 1 }.map { rows[$0] }
            _ = DiffReport(policy: policy, before: table, after: after)
        }),
        ("diff section moves", { table in
            // The rows in sections of eight (an archive section every hundred), their order
            // reversed: n / 8 - 1 section moves, each followed by the section rules' binding.
            let rows = table.sections[0].rows
            let sections = stride(from: 0, to: rows.count, by: 8).map { k in
                Section(id: "s\(k)", kind: k % 800 == 0 ? "archive" : nil, rows: Array(rows[k..<min(k + 8, rows.count)]))
            }
            var after = Table(sections: sections)
            after.sections.reverse()
            _ = DiffReport(policy: policy, before: Table(sections: sections), after: after)
        }),
        ("drag session", { table in
            let n = table.sections[0].rows.count
            guard var session = DragSession(bound: policy.bind(table), source: Position(section: 0, row: 1)) else { return }
            for k in stride(from: 0, to: n, by: max(1, n / 64)) { _ = session.hover(Position(section: 0, row: k)) }
            _ = session.hover(Position(section: 1, row: 2))
            _ = session.drop()
        }),
    ]

    @Test("time(8n) / time(n) < 24 for every path that reads a table", arguments: paths.indices)
    func linearOrNLogN(path: Int) throws {
        let (name, run) = Self.paths[path]
        let small = Self.table(20_000), large = Self.table(160_000)
        try run(small)  // warm up (the policy, the allocator)
        // `diff` decides n - 1 moves: about 30 s a run in a debug build at 160,000 rows, so
        // two runs (its figures are steady: the work is one long loop, not a few short calls).
        let runs = name.hasPrefix("diff") ? 2 : 5
        let a = try Self.fastest(runs: runs) { try run(small) }, b = try Self.fastest(runs: runs) { try run(large) }
        print("scaling \(name): \(a) s at 20,000 rows, \(b) s at 160,000 (×\(b / max(a, 1e-6)))")
        let ratio = b / max(a, 1e-6)
        #expect(ratio < 24, "\(name): \(a) s at 20,000 rows, \(b) s at 160,000 (×\(ratio))")
    }
}
