import Foundation
import SpannedYAML
import Testing
import ReorderPolicy

/// Recall (issue #22, SPEC §10 "complete, in meaning, not in wording"): defects planted in
/// random policies, each class worded in many ways and surrounded by rules about other
/// sections, must be reported at the rule that causes them, with a counterexample that
/// reproduces and names that rule. The seed is fixed, so a miss is a repeatable failure.
@Suite struct PlantedDefectTests {
    typealias Generator = DecisionServiceTests.Generator

    /// One planted defect: the policy's rules, the index of the rule the finding must stand
    /// at, and the codes that count as finding it.
    struct Planted {
        var rules: [String]
        var at: Int
        var codes: Set<DiagnosticCode>
    }

    enum Class: String, CaseIterable, Sendable {
        case shadowed, impossible, fullCapacity, keepOrder, frozenBetweenPins
    }

    /// Rules about sections and words the planted rules never mention, so they cannot cure a
    /// defect (they may have defects of their own; only the planted finding is asked for).
    static func noise(_ g: inout Generator) -> String {
        let s = g.pick(["Noise", "[Noise, Spare]", "{ kind: spare }", "{ id: Spare, not: { tag: old } }"])
        return g.pick([
            "pin: { section: \(s), kind: banner }",
            "lock: { section: \(s), tag: [frozen-n, held-n] }",
            "capacity: { section: \(s), max: \(g.int(2...9)) }",
            "accept: { section: \(s), from: [Inbox-n], rows: { kind: note } }",
            "reserve: { section: \(s), last: 1 }",
            "keep-order: \(s)",
            "pin: { section: \(s), id: [top-n, head-n], anchor: start }",
        ])
    }

    static func plant(_ c: Class, _ g: inout Generator) -> Planted {
        switch c {
        case .shadowed:
            // An earlier rule already does all the later one does, in other words.
            let pairs: [(String, String)] = [
                ("lock: { kind: [a, b] }", "lock: [ { kind: a }, { kind: b, tag: x } ]"),
                ("lock: { section: Done }", "lock: { section: [Done], id: [p, q] }"),
                ("lock: { kind: a }", "lock: { kind: a, not: { tag: x } }"),
                ("keep-in-section: all", "keep-in-section: { kind: card }"),
                ("keep-in-section: { section: [Todo, Doing] }", "keep-in-section: { section: { id: Doing }, kind: card }"),
                ("pin: { first: 2 }", "pin: { index: [0, 1] }"),
                ("pin: { first: 3, anchor: start }", "pin: { index: 1, kind: header }"),
                ("accept: { section: Done, from: [Doing] }", "accept: { section: { id: Done, kind: col }, from: [Doing, Todo] }"),
                ("capacity: { section: Doing, max: 2 }", "capacity: { section: [Doing], max: 3 }"),
                ("capacity: { section: all, max: 4 }", "capacity: { section: { kind: col }, max: 6, rows: { kind: card } }"),
                ("keep-order: all", "keep-order: [Doing, Done]"),
                ("keep-order: [Doing, Review]", "keep-order: { id: Review }"),
                ("lock: { tag: x }", "lock: [ { tag: [x], kind: a }, { tag: x, section: Done } ]"),
            ]
            let (first, second) = g.pick(pairs)
            var rules = (0..<g.int(0...2)).map { _ in noise(&g) }
            rules.append(first)
            rules += (0..<g.int(0...2)).map { _ in noise(&g) }
            rules.append(second)
            let at = rules.count - 1
            rules += (0..<g.int(0...1)).map { _ in noise(&g) }
            return Planted(rules: rules, at: at, codes: [.deadRule])
        case .impossible:
            let rule = g.pick(["lock", "pin", "keep-in-section"])
            let selector = g.pick([
                "{ kind: a, not: { kind: [a, b] } }",
                "{ section: { id: Done, not: Done } }",
                "{ id: [], kind: x }",
                "{ not: all }",
                "[ { kind: a, not: { kind: a } }, { tag: [] } ]",
                "{ index: 2, not: { first: 3 } }",
                "{ last: 1, not: { index: -1 } }",
                "{ section: [], kind: x }",
                "{ tag: x, not: { tag: [x, y] } }",
                "{ section: { kind: col, not: { kind: [col] } } }",
                "{ first: 1, not: { index: [0] } }",
            ])
            var rules = (0..<g.int(0...3)).map { _ in noise(&g) }
            rules.append("\(rule): \(selector)")
            let at = rules.count - 1
            rules += (0..<g.int(0...2)).map { _ in noise(&g) }
            return Planted(rules: rules, at: at, codes: [.neverSelects])
        case .fullCapacity:
            // A capacity of 0 on the accept's sections: no row can ever come in.
            let target = g.pick(["Done", "[Done]", "{ id: Done }"])
            let capacity = g.pick([
                "capacity: { section: \(target), max: 0 }",
                "capacity: { section: [Done, Archive], max: 0 }",
                "capacity: { section: all, max: 0 }",
                "capacity: { section: { id: [Done] }, max: 0, rows: all }",
            ])
            let accept = "accept: { section: \(target), from: \(g.pick(["[Doing]", "Doing", "[Doing, Todo]", "{ not: Done }"])) }"
            var rules = (0..<g.int(0...2)).map { _ in noise(&g) }
            let acceptFirst = g.chance(0.5)
            rules.append(acceptFirst ? accept : capacity)
            rules += (0..<g.int(0...1)).map { _ in noise(&g) }
            rules.append(acceptFirst ? capacity : accept)
            let at = acceptFirst ? rules.firstIndex(of: accept)! : rules.count - 1  // it is in the list: just appended
            rules += (0..<g.int(0...1)).map { _ in noise(&g) }
            return Planted(rules: rules, at: at, codes: [.neverSelects, .closedSection])  // "lets no row in" is never-selects
        case .keepOrder:
            // keep-order made pointless or freezing by other rules.
            switch g.int(0...3) {
            case 3:
                // The same, in some sections only: their rows are stuck there.
                let section = g.pick(["Doing", "[Doing, Review]", "{ kind: col }"])
                var rules = (0..<g.int(0...2)).map { _ in noise(&g) }
                let order = "keep-order: \(section)", keep = g.pick(["keep-in-section: { section: \(section) }", "accept: { section: all, from: [] }"])
                rules += g.chance(0.5) ? [order, keep] : [keep, order]
                return Planted(rules: rules, at: -1, codes: [.stuckRow])
            case 0:
                // Rows may neither leave their section nor move within it: every row is stuck.
                let order = g.pick(["keep-order: all", "keep-order: { not: [] }"])
                let keep = g.pick(["keep-in-section: all", "keep-in-section: [ { kind: a }, { not: { kind: a } } ]", "keep-in-section: { section: all }"])
                var rules = (0..<g.int(0...2)).map { _ in noise(&g) }
                rules += g.chance(0.5) ? [order, keep] : [keep, order]
                let at = rules.count - 1
                return Planted(rules: rules, at: at, codes: [.stuckRow])
            case 1:
                // Every row of the section is locked: nothing is left to keep in order.
                let section = g.pick(["Doing", "[Doing]", "{ id: Doing }"])
                var rules = (0..<g.int(0...2)).map { _ in noise(&g) }
                rules.append(g.pick(["lock: { section: \(section) }", "lock: [ { section: Doing, kind: a }, { section: Doing, not: { kind: a } } ]"]))
                rules += (0..<g.int(0...1)).map { _ in noise(&g) }
                rules.append("keep-order: \(section)")
                return Planted(rules: rules, at: rules.count - 1, codes: [.deadRule])
            default:
                // The same sections kept in order twice, in other words.
                var rules = (0..<g.int(0...2)).map { _ in noise(&g) }
                rules.append(g.pick(["keep-order: [Doing, Review]", "keep-order: { id: [Doing, Review] }", "keep-order: all"]))
                rules += (0..<g.int(0...1)).map { _ in noise(&g) }
                rules.append(g.pick(["keep-order: { id: Review }", "keep-order: [Review]", "keep-order: { id: Review, kind: col }"]))
                return Planted(rules: rules, at: rules.count - 1, codes: [.deadRule])
            }
        case .frozenBetweenPins:
            // Two pins one place apart, in a section rows may not leave: the row between
            // them can never move.
            let k = g.int(0...3)
            let fromEnd = g.chance(0.5)
            let lower: String, upper: String
            if fromEnd {
                lower = g.pick(["pin: { index: \(-(k + 1)) }", k == 0 ? "pin: { last: 1 }" : "pin: { index: [\(-(k + 1))] }"])
                upper = "pin: { index: \(-(k + 3)) }"
            } else {
                lower = g.pick(["pin: { index: \(k) }", "pin: { first: \(k + 1) }", "pin: { index: [\(k)] }"])
                upper = g.pick(["pin: { index: \(k + 2) }", "pin: [ { index: \(k + 2), kind: a }, { index: \(k + 2), not: { kind: a } } ]"])
            }
            let keep = g.pick(["keep-in-section: all", "keep-in-section: { not: [] }", "accept: { section: all, from: [] }"])
            var rules = (0..<g.int(0...2)).map { _ in noise(&g) }
            rules += g.chance(0.5) ? [lower, upper, keep] : [keep, lower, upper]
            return Planted(rules: rules, at: -1, codes: [.stuckRow])
        }
    }

    @Test(arguments: Class.allCases)
    func plantedDefectsAreFound(_ c: Class) throws {
        var g = Generator(state: 0x22_2026 &+ UInt64(Class.allCases.firstIndex(of: c)!))  // allCases holds c
        var found = 0, misses: [String] = []
        for n in 0..<25 {
            let planted = Self.plant(c, &g)
            let text = "reorder-policy: 1\nname: planted-\(n)\nrules:\n" + planted.rules.map { "  - \($0)\n" }.joined()
            let document = PolicyLoader.load(text: text, path: "planted.yaml")
            try #require(document.diagnostics.isEmpty, "\(document.diagnostics.map(\.message))\n\(text)")
            let findings = PolicyAnalyzer.analyze(document)
            // The finding stands at the planted rule (line 4 is the first rule), or anywhere
            // for a frozen place, which is caused by several rules together.
            let hits = findings.filter { planted.codes.contains($0.code) && (planted.at < 0 || $0.span.start.line == 4 + planted.at) }
            guard let hit = hits.first else {
                misses.append("\(text)  → \(findings.map { "\($0.code)@\($0.span.start.line): \($0.message)" })")
                continue
            }
            found += 1
            // Its evidence reproduces through the engine and names the rule it stands at.
            if let json = hit.counterexample?.json {
                #expect(try Reproduction.decision(json, policy: document) == Reproduction.claimed(json), "\(json)\n\(text)")
                let named = try Reproduction.object(json)["rules"] as? [String] ?? []
                #expect(named.contains("rule-\(hit.span.start.line - 3)"), "\(json)\n\(text)")
            } else {
                #expect(![.closedSection, .stuckRow].contains(hit.code), "\(hit.code) without a counterexample\n\(text)")
            }
        }
        #expect(found == 25, "\(c.rawValue): found \(found) of 25\n\(misses.joined(separator: "\n"))")
    }
}

extension DecisionServiceTests.Generator {
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &self) }
}
