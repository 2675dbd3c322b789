// Size guards: the growth and hang limits of every path that reads a large input, checked in a
// release build, where a limit means something (issue #59). `.ci/run` runs them:
//
//     cd Benchmarks && swift run -c release SizeGuards
//
// The debug `swift test` keeps every correctness check of these inputs and no wall-clock limit
// of its own but a hang guard of at least ten times what the test needs (docs/ARCHITECTURE.md,
// "Tests and time"). Here each guard is either
//   - a growth ratio: the same path at n and 8n rows, timed in one run. Linear work gives
//     about 8, n log n about 9.5 at these sizes, a quadratic path 64; the bound is 24 — it
//     catches superlinear code whatever the machine's speed or load, since both sizes share
//     the machine's state; or
//   - an absolute limit on a hostile input, with the release figure it was set from beside it
//     (each limit is at least 10 times that figure, so that a loaded 2-core machine passes).
// Every guard also checks its answer, so a fast wrong path does not pass. Exit status 0 when
// every guard holds, 1 otherwise; one line per guard.
import Foundation
import ReorderEngine
import ReorderPolicy
import SpannedYAML

// MARK: - Running guards

nonisolated(unsafe) var failures: [String] = []

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The fastest of `runs` runs, in seconds.
func fastest(runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let clock = ContinuousClock(), start = clock.now
        try body()
        best = min(best, seconds(clock.now - start))
    }
    return best
}

func require(_ condition: Bool, _ what: @autoclosure () -> String) {
    if !condition { failures.append(what()) ; print("  wrong answer: \(what())") }
}

func format(_ s: Double) -> String { String(format: "%.3f s", s) }

/// A growth guard: `time(large) / time(small) < 24`.
func growth(_ name: String, small: Int = 20_000, large: Int = 160_000, runs: Int = 3, _ run: (Int) throws -> Void) {
    do {
        try run(small)  // warm up (the policy, the allocator)
        let a = try fastest(runs: runs) { try run(small) }, b = try fastest(runs: runs) { try run(large) }
        let ratio = b / max(a, 1e-6)
        let ok = ratio < 24
        print("\(ok ? "ok  " : "FAIL") growth  \(name): \(format(a)) at \(small), \(format(b)) at \(large) (×\(String(format: "%.1f", ratio)), limit ×24)")
        if !ok { failures.append("\(name): ×\(ratio)") }
    } catch {
        print("FAIL growth  \(name): \(error)")
        failures.append("\(name): \(error)")
    }
}

/// A hang guard: `body` ends within `limit` seconds. `measured` is the release figure the limit
/// was set from: one run on this project's 2-core machine (swift-packages-b), 2026-11-29,
/// unloaded; BENCHMARKS.md, "Size guards", has the run.
func within(_ limit: Double, measured: Double, _ name: String, _ body: () throws -> Void) {
    precondition(limit >= 10 * measured, "\(name): a limit is at least 10 times its measured need")
    do {
        let took = try fastest(runs: 1, body)
        let ok = took < limit
        print("\(ok ? "ok  " : "FAIL") limit   \(name): \(format(took)) (limit \(format(limit)), measured \(format(measured)))")
        if !ok { failures.append("\(name): \(took) s") }
    } catch {
        print("FAIL limit   \(name): \(error)")
        failures.append("\(name): \(error)")
    }
}

// MARK: - Tables and policies

func policy(_ rules: String) -> CompiledPolicy {
    let document = PolicyLoader.load(text: "reorder-policy: 1\nname: guard\n" + rules + "\n")
    guard let compiled = document.compiled() else { fatalError("a guard's policy does not load: \(document.diagnostics)") }
    return compiled
}

/// Rules that scan rows (a tag, a kind, a `not`), the pin of issue #26's quadratic retarget
/// (`last` with `anchor: start`) and a list of positions and kinds (policies/chats.yaml).
let scanning = policy("""
    rules:
      - lock: { tag: blocked }
      - pin: { kind: header }
      - pin: { last: 5000, anchor: start }
      - accept: { section: 1, rows: { not: { id: x } } }
      - pin: [{ first: 1, kind: folder }, { last: 1, kind: invite }]
    section-rules:
      - lock: { section: { kind: archive } }
    """)

/// Lists and `not`s that read positions.
let listing = policy("""
    rules:
      - pin: [{ kind: header }, { last: 1 }]
      - lock: { tag: blocked, not: { last: 3 } }
      - keep-in-section: { not: [{ first: 1 }, { kind: header }] }
    """)

func table(_ n: Int) -> Table {
    var rows: [Row] = []
    rows.reserveCapacity(n)
    for k in 0..<n {
        rows.append(Row(id: "r\(k)", kind: k % 997 == 500 ? "header" : nil, tags: k % 991 == 400 ? ["blocked"] : []))
    }
    return Table(sections: [Section(id: "main", rows: rows),
                            Section(id: "side", rows: (0..<10).map { Row(id: "s\($0)", kind: $0 == 0 ? "folder" : $0 == 9 ? "invite" : nil) })])
}

func at(_ s: Int, _ r: Int) -> Position { Position(section: s, row: r) }

// MARK: - Growth: every path that reads a table (issue #26), at 20,000 and 160,000 rows

print("Size guards (release). Growth: time at 160,000 rows / time at 20,000 rows < 24.")
nonisolated(unsafe) var tables: [Int: Table] = [:]
func cached(_ n: Int) -> Table {
    if let t = tables[n] { return t }
    let t = table(n)
    tables[n] = t
    return t
}

growth("bind") { n in _ = scanning.bind(cached(n)) }
growth("check") { n in
    let bound = scanning.bind(cached(n))
    for (from, to) in [(0, n - 1), (n - 1, 0), (n / 2, 10), (3, n / 3)] {
        _ = try bound.decide(.row(from: at(0, from), to: at(0, to)))
    }
    _ = try bound.decide(.row(from: at(0, 1), to: at(1, 5)))
}
growth("explain") { n in
    let bound = scanning.bind(cached(n))
    _ = try bound.explain(.row(from: at(0, 2), to: at(0, n - 2)))
    _ = try bound.explain(.row(from: at(0, n / 2), to: at(1, 0)))
}
growth("offsets") { n in
    // Issue #26's input: two rows dropped three quarters of the way down.
    _ = try scanning.bind(cached(n)).decide(IndexConvention.move(fromOffsets: [0, 1], toOffset: 3 * n / 4, section: 0))
}
growth("multi-row") { n in
    let bound = scanning.bind(cached(n))
    _ = try bound.decide(MultiRowMove(section: 0, rows: [1, n / 2, n - 2], to: at(1, 3)))
    _ = try bound.decide(MultiRowMove(section: 0, rows: [0, 7, 9], to: at(0, n / 2)))
}
growth("diff", runs: 2) { n in
    // One section reversed: n - 1 inferred moves, each decided on the table the moves before
    // it left.
    var after = cached(n)
    after.sections[0].rows.reverse()
    let report = DiffReport(policy: scanning, before: cached(n), after: after)
    require(report.decisions.count == n - 1, "diff at \(n): \(report.decisions.count) moves")
}
growth("diff, lists and nots reading positions", runs: 2) { n in
    var after = cached(n)
    after.sections[0].rows.reverse()
    _ = DiffReport(policy: listing, before: cached(n), after: after)
}
growth("diff across sections", runs: 2) { n in
    var after = cached(n)
    let rows = after.sections[0].rows
    after.sections[0].rows = rows.indices.filter { $0 % 4 != 1 }.map { rows[$0] }
    after.sections[1].rows += rows.indices.filter { $0 % 4 == 1 }.map { rows[$0] }
    _ = DiffReport(policy: scanning, before: cached(n), after: after)
}
growth("diff section moves", runs: 2) { n in
    let rows = cached(n).sections[0].rows
    let sections = stride(from: 0, to: rows.count, by: 8).map { k in
        Section(id: "s\(k)", kind: k % 800 == 0 ? "archive" : nil, rows: Array(rows[k..<min(k + 8, rows.count)]))
    }
    var after = Table(sections: sections)
    after.sections.reverse()
    _ = DiffReport(policy: scanning, before: Table(sections: sections), after: after)
}
growth("drag session") { n in
    guard var session = DragSession(bound: scanning.bind(cached(n)), source: at(0, 1)) else { return }
    for k in stride(from: 0, to: n, by: max(1, n / 64)) { _ = session.hover(at(0, k)) }
    _ = session.hover(at(1, 2))
    _ = session.drop()
}
growth("a block retargeted past pinned rows") { n in
    // Issue #26: each pinned row was counted once per destination.
    let policy = try CompiledPolicy(Policy(name: "t", rules: [RowRule(.pin(RowSelector(position: .last(n / 2)), anchor: .start), metadata: RuleMetadata(id: "p"))]))
    let bound = policy.bind(Table(sections: [Section(rowIDs: (0..<n).map { "r\($0)" })]))
    let decision = try bound.decide(MultiRowMove(section: 0, rows: [0, 1], to: at(0, 3 * n / 4)))
    require(decision.kind == .retargeted && decision.target == at(0, n / 2 - 2), "block at \(n): \(decision.kind) \(decision.target)")
}
tables = [:]

// MARK: - Limits: hostile inputs

print("Limits: hostile inputs end within a limit at least 10 times their release figure.")

func parse(_ text: String) -> YAMLDocument.Result { YAMLDocument.parse(Array(text.utf8), file: "hostile.yaml") }

within(1, measured: 0.001, "YAML: a billion laughs is refused before expansion") {
    var text = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
    for level in 1...9 {
        let prev = String(UnicodeScalar(UInt8(96 + level))), name = String(UnicodeScalar(UInt8(97 + level)))
        text += "\(name): &\(name) [" + Array(repeating: "*\(prev)", count: 9).joined(separator: ",") + "]\n"
    }
    require(parse(text).diagnostics.first?.code == .yamlAlias, "billion laughs")
}
within(1, measured: 0.002, "YAML: 60,000 nested brackets stop at the depth limit") {
    require(parse(String(repeating: "[", count: 60_000)).diagnostics.map(\.code) == [.tooDeep], "brackets")
}
within(1, measured: 0.002, "YAML: 60,000 nested mappings stop at the depth limit") {
    require(parse(String(repeating: "{a: ", count: 60_000)).diagnostics.map(\.code) == [.tooDeep], "mappings")
}
within(1, measured: 0.002, "YAML: a 9 MiB input is refused without parsing") {
    let result = YAMLDocument.parse([UInt8](repeating: UInt8(ascii: "a"), count: 9 * 1024 * 1024), file: "big.yaml")
    require(result.diagnostics.map(\.code) == [.tooLarge], "oversized")
}
within(1, measured: 0.002, "YAML: 10,000 anchors are capped, not listed") {
    let result = parse((0..<10_000).map { "k\($0): &a\($0) v" }.joined(separator: "\n"))
    require(result.diagnostics.count <= 21 && result.diagnostics.first?.code == .yamlAlias, "anchors")
}
within(5, measured: 0.28, "YAML: a 200,000-key mapping (duplicate keys checked in linear time)") {
    let result = parse((0..<200_000).map { "k\($0): v" }.joined(separator: "\n"))
    require(result.diagnostics.isEmpty && result.root?.mapping?.count == 200_000, "200,000 keys")
}
within(2, measured: 0.02, "bind: section selectors by kind, tag and nested nots over 50,000 sections") {
    let table = Table(sections: (0..<50_000).map { Section(kind: $0 % 2 == 0 ? "bucket" : "pool", tags: $0 % 3 == 0 ? ["x"] : [], rows: [Row(id: "r\($0)")]) })
    let selector = SectionSelector.matching(SectionFilter(kinds: ["bucket"], not: .matching(SectionFilter(tags: ["x"], not: .index(0)))))
    let policy = try CompiledPolicy(Policy(name: "t", rules: [RowRule(.keepOrder(selector), metadata: RuleMetadata(id: "k"))]))
    _ = policy.bind(table)
}
within(5, measured: 0.16, "moves file: an item with 100,000 keys is refused in linear time") {
    let yaml = "- {" + (0..<100_000).map { "k\($0): 1" }.joined(separator: ", ") + "}\n- {from: [0, 1], to: [0, 2]}\n"
    var count = 0
    _ = MovesFile.stream(SourceFile(path: "m.yaml", text: yaml)) { _ in count += 1 }
    require(count == 2, "items: \(count)")
}
within(5, measured: 0.04, "offset moves on a 160,000-row table, every second row in one block") {
    let n = 160_000
    let policy = policy("rules:\n  - lock: { tag: blocked }\n  - pin: { kind: header }\n")
    let rows = (0..<n).map { Row(id: "r\($0)", tags: $0 % 1000 == 7 ? ["blocked"] : []) }
    let bound = policy.bind(Table(sections: [Section(id: "Backlog", rows: rows), Section(id: "Doing", rows: [])]))
    let kinds = try [IndexConvention.move(fromOffsets: [0, 5, 100, n - 1], toOffset: n / 2, section: 0),
                     IndexConvention.move(fromOffsets: Array(stride(from: 0, to: n, by: 2)), toOffset: 0, section: 0),
                     IndexConvention.move(fromOffsets: [7], toOffset: 0, section: 0)].map { try bound.decide($0).kind }
    require(kinds == [.allowed, .allowed, .denied], "offset moves: \(kinds)")
}
for rules in ["rules: []\n", "rules:\n  - lock: { tag: blocked }\n  - pin: { kind: header }\n  - accept: { section: 1, rows: { not: { id: x } } }\n"] {
    within(2, measured: 0.14, "diff of a reversed 20,000-row table (\(rules.contains("lock") ? "three scanning rules" : "no rules"))") {
        let ids = (0..<20_000).map { "r\($0)" }
        let report = DiffReport(policy: policy(rules), before: Table(sections: [Section(rowIDs: ids)]), after: Table(sections: [Section(rowIDs: ids.reversed())]))
        require(report.decisions.count == 19_999, "reversal: \(report.decisions.count) moves")
    }
}
within(2.5, measured: 0.2, "diff of 20,000 sections without ids, reversed") {
    let sections = (0..<20_000).map { Section(rowIDs: ["r\($0)"]) }
    guard case .moves(let moves) = MoveInference.infer(before: Table(sections: sections), after: Table(sections: sections.reversed())) else {
        return require(false, "sections reversed: not moves")
    }
    require(moves.count == 19_999, "sections reversed: \(moves.count) moves")
}
within(1, measured: 0.003, "diff of 3,000 rows sharing one id") {
    var rows = (0..<3_000).map { _ in Row(id: "same") }
    rows[0] = Row(id: "other")
    var moved = rows
    moved.append(moved.removeFirst())
    let change = MoveInference.infer(before: Table(sections: [Section(rows: rows)]), after: Table(sections: [Section(rows: moved)]))
    require(change == .move(.row(from: at(0, 0), to: at(0, 2_999))), "repeated ids: \(change)")
}
// Position constants in the tens of thousands: the analysis decides them by segments. These
// are HostileSizeTests' cases; the debug suite checks their findings too.
let constants: [(String, Set<DiagnosticCode>, Double)] = [
    ("  - pin: { last: 80000, anchor: start }\n  - lock: { index: 3 }\n  - lock: { index: 3 }\n", [.lockDisplaced, .deadRule], 0.22),
    ("  - lock: { index: -1000000 }\n  - accept: { section: 0, from: 1 }\n", [.lockDisplaced], 2.3),
    ("  - accept: { section: { index: 70000 }, from: [] }\n  - pin: { index: 5 }\n", [], 0.03),
    ("  - lock: { section: { index: -300 } }\n  - keep-in-section: { section: { index: 70000 } }\n  - capacity: { section: { index: 400 }, max: 0 }\n  - accept: { section: { index: 400 }, from: all }\n", [.lockDisplaced, .neverSelects], 0.05),
    ("  - lock: { first: 1 }\nsection-rules:\n  - pin: { section: { index: 70000 } }\n  - pin: { section: { index: 70000 } }\n", [.analysisBudget, .lockDisplaced, .deadRule], 0.002),
    // Capacity bounds in the tens of thousands (issue #62): counts open past a small cap, decided.
    ("  - capacity: { section: Doing, max: 100000 }\n  - capacity: { section: Done, min: 5000 }\n  - capacity: { section: all, max: 70000, rows: { kind: card } }\n  - capacity: { section: Todo, max: 3000 }\n  - capacity: { section: Done, max: 10000 }\n", [], 0.07),
    ("  - capacity: { section: all, max: 50000, rows: { kind: card } }\n  - capacity: { section: all, max: 40000 }\n  - capacity: { section: Done, min: 50000 }\n  - capacity: { section: Done, max: 40000 }\n", [.deadRule, .capacityConflict], 0.07),
]
for (k, (rules, codes, measured)) in constants.enumerated() {
    within(max(1, 10 * measured), measured: measured, "lint of position constants and capacity bounds in the tens of thousands, case \(k + 1)") {
        let document = PolicyLoader.load(text: "reorder-policy: 1\nname: t\nrules:\n" + rules, path: "big.yaml")
        let found = Set(PolicyAnalyzer.analyze(document).map(\.code))
        require(found == codes, "constants case \(k + 1): \(found.map(\.rawValue).sorted())")
    }
}

// The analysis at every size (issue #55, SPEC §10.1): the issue's families at 300 rules answer,
// with what they find, and a policy of 16,920 rules ends and says what it left undecided.
func rules(_ count: Int, _ rule: (Int) -> String) -> String { (0..<count).map { "  - " + rule($0) + "\n" }.joined() }
let families: [(String, String, Set<DiagnosticCode>, Double)] = [
    ("300 locks at indices 1000-1299", rules(300) { "lock: { index: \(1000 + $0) }" }, [.lockDisplaced], 0.74),
    ("300 pins at indices 1000-1299", rules(300) { "pin: { index: \(1000 + $0) }" }, [], 0.67),
    ("300 locks at indices 0-299", rules(300) { "lock: { index: \($0) }" }, [.lockDisplaced], 0.54),
    ("300 capacities of 1000-1299 rows, one per section", rules(300) { "capacity: { section: S\($0), max: \(1000 + $0) }" }, [], 0.32),
    ("a board of 50 columns, each with its own pin, capacity and accept", rules(150) { k in
        let c = k / 3
        return ["pin: { index: 0, section: C\(c) }", "capacity: { section: C\(c), max: \(3 + c % 5) }", "accept: { section: C\(c), from: [C\((c + 1) % 50)] }"][k % 3]
    }, [], 0.11),
    ("a lock at 1000+k, a pin at index k and a capacity per k over 40 sections, 300 rules", rules(300) { k in
        let i = k / 3
        return ["lock: { index: \(1000 + i) }", "pin: { index: \(i), section: S\(i % 40) }", "capacity: { section: S\(i % 40), max: \(5 + i % 9) }"][k % 3]
    }, [.lockDisplaced, .deadRule, .stuckRow], 1.9),
    ("a pin at index k mod 7 in each of 300 columns", rules(300) { "pin: { index: \($0 % 7), section: S\($0) }" }, [.stuckRow], 0.8),
]
for (name, text, codes, measured) in families {
    within(10 * measured, measured: measured, "lint of \(name)") {
        let document = PolicyLoader.load(text: "reorder-policy: 1\nname: t\nrules:\n" + text, path: "big.yaml")
        let found = Set(PolicyAnalyzer.analyze(document, budget: PolicyAnalyzer.defaultBudget).map(\.code))
        require(found == codes, "\(name): \(found.map(\.rawValue).sorted())")
    }
}
let kinds = ["card", "header", "note"]
let thousands = rules(16_920) { k in
    let section = "S\((k * 7) % 8)", kind = kinds[(k / 6) % 3], index = (k * 13) % 51
    switch k % 6 {
    case 0: return "lock: { kind: \(kind), section: \(section), index: \(index) }"
    case 1: return "pin: { kind: \(kind), section: \(section), index: \(index) }"
    case 2: return "keep-in-section: { kind: \(kind), section: \(section), index: \(index) }"
    case 3: return "accept: { section: \(section), from: [S\((k * 3) % 8), S\((k * 5) % 8)] }"
    case 4: return "capacity: { section: \(section), max: \(1 + k % 9) }"
    default: return "keep-order: \(section)"
    }
}
within(40, measured: 3.6, "lint of a policy of 16,920 rules") {
    let document = PolicyLoader.load(text: "reorder-policy: 1\nname: t\nrules:\n" + thousands, path: "big.yaml")
    // (lint's budget: without one the enumeration of small tables that stands in has no end)
    let budget = PolicyAnalyzer.analyze(document, budget: PolicyAnalyzer.defaultBudget).filter { $0.code == .analysisBudget }
    require(budget.count <= 1, "16,920 rules: \(budget.count) analysis-budget findings")
}

if failures.isEmpty {
    print("Every size guard holds.")
} else {
    print("\(failures.count) size guard(s) failed:")
    for failure in failures { print("  \(failure)") }
    exit(1)
}
