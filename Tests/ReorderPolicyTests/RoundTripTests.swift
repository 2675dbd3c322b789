import Testing
import ReorderPolicy

/// Writes policy models as YAML text, so random policies can go through the real loader.
enum PolicyWriter {
    static func q(_ s: String) -> String { "\"" + s.replacingAll("\\", "\\\\").replacingAll("\"", "\\\"") + "\"" }

    static func sections(_ s: SectionSelector) -> String {
        switch s {
        case .all: return "all"
        case .some(let refs):
            return "[" + refs.map { ref in
                switch ref {
                case .index(let i): "\(i)"
                case .id(let id): q(id)
                }
            }.joined(separator: ", ") + "]"
        }
    }

    static func rows(_ r: RowSelector, anchor: Anchor? = nil) -> String {
        var parts: [String] = []
        if let s = r.section { parts.append("section: \(sections(s))") }
        switch r.position {
        case .first(let n)?: parts.append("first: \(n)")
        case .last(let n)?: parts.append("last: \(n)")
        case .indices(let list)?: parts.append("index: [\(list.map(String.init).joined(separator: ", "))]")
        case nil: break
        }
        if let ids = r.ids { parts.append("id: [\(ids.map(q).joined(separator: ", "))]") }
        if let kinds = r.kinds { parts.append("kind: [\(kinds.map(q).joined(separator: ", "))]") }
        if let tags = r.tags { parts.append("tag: [\(tags.map(q).joined(separator: ", "))]") }
        if let anchor { parts.append("anchor: \(anchor.rawValue)") }
        if parts.isEmpty && anchor == nil { return Bool.random() ? "all" : "{}" }
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    static func yaml(_ p: Policy) -> String {
        var out = "reorder-policy: 1\nname: \(q(p.name))\nretarget: \(p.retarget.rawValue)\nrules:\n"
        if p.rules.isEmpty { out = out.replacingAll("rules:\n", "rules: []\n") }
        for rule in p.rules {
            let body: String
            switch rule.kind {
            case .lock(let r): body = "lock: \(rows(r))"
            case .pin(let r, let anchor): body = "pin: \(rows(r, anchor: anchor))"
            case .reserve(let edge, let count, let section):
                body = "reserve: { \(edge == .start ? "first" : "last"): \(count)\(section.map { ", section: \(sections($0))" } ?? "") }"
            case .keepInSection(let r): body = "keep-in-section: \(rows(r))"
            case .accept(let section, let from, let r):
                body = "accept: { section: \(sections(section)), from: \(sections(from)), rows: \(rows(r)) }"
            case .capacity(let section, let max, let min):
                body = "capacity: { section: \(sections(section))\(max.map { ", max: \($0)" } ?? "")\(min.map { ", min: \($0)" } ?? "") }"
            }
            out += "  - \(body)\n    id: \(q(rule.metadata.id))\n"
        }
        if !p.sectionRules.isEmpty { out += "section-rules:\n" }
        for rule in p.sectionRules {
            func target(_ t: SectionRuleTarget) -> String {
                switch t {
                case .sections(let s): "section: \(sections(s))"
                case .first(let n): "first: \(n)"
                case .last(let n): "last: \(n)"
                }
            }
            switch rule.kind {
            case .lock(let t): out += "  - lock: { \(target(t)) }\n"
            case .pin(let t, let anchor): out += "  - pin: { \(target(t))\(anchor.map { ", anchor: \($0.rawValue)" } ?? "") }\n"
            }
            out += "    id: \(q(rule.metadata.id))\n"
        }
        return out
    }
}

extension String {
    func replacingAll(_ a: String, _ b: String) -> String { split(separator: a, omittingEmptySubsequences: false).joined(separator: b) }
}

@Suite struct RoundTripTests {
    /// `all` is the keyword even quoted, so a section id "all" means every section.
    static func normalized(_ s: SectionSelector) -> SectionSelector {
        if case .some(let refs) = s, refs.contains(.id("all")) { return .all }
        return s
    }

    static func normalized(_ r: RowSelector) -> RowSelector {
        var r = r
        r.section = r.section.map(normalized)
        return r
    }

    static func normalized(_ p: Policy) -> [String] {
        p.rules.map { rule -> String in
            switch rule.kind {
            case .lock(let r): "\(RowRule.Kind.lock(normalized(r)))"
            case .pin(let r, let a): "\(RowRule.Kind.pin(normalized(r), anchor: a))"
            case .reserve(let e, let c, let s): "\(RowRule.Kind.reserve(edge: e, count: c, section: s.map(normalized)))"
            case .keepInSection(let r): "\(RowRule.Kind.keepInSection(normalized(r)))"
            case .accept(let s, let f, let r): "\(RowRule.Kind.accept(section: normalized(s), from: normalized(f), rows: normalized(r)))"
            case .capacity(let s, let max, let min): "\(RowRule.Kind.capacity(section: normalized(s), max: max, min: min))"
            }
        } + p.sectionRules.map { rule -> String in
            switch rule.kind {
            case .lock(.sections(let s)): "\(SectionRule.Kind.lock(.sections(normalized(s))))"
            case .pin(.sections(let s), let a): "\(SectionRule.Kind.pin(.sections(normalized(s)), anchor: a))"
            default: "\(rule.kind)"
            }
        }
    }

    @Test func randomPoliciesSurviveTheLoader() {
        var gen = RandomPoliciesForLoader(seed: 11)
        for _ in 0..<1000 {
            let policy = gen.policy()
            let text = PolicyWriter.yaml(policy)
            let document = PolicyLoader.load(text: text, path: "r.yaml")
            guard let loaded = document.policy else {
                Issue.record("\(document.diagnostics.map(\.message))\n\(text)")
                return
            }
            #expect(Self.normalized(loaded) == Self.normalized(policy), "\(text)")
            #expect(loaded.rules.map(\.metadata.id) == policy.rules.map(\.metadata.id))
            #expect(loaded.retarget == policy.retarget)
        }
    }
}

/// A small random policy generator for this target (the engine tests have their own).
struct RandomPoliciesForLoader {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func int(_ r: ClosedRange<Int>) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return r.lowerBound + Int((state >> 33) % UInt64(r.count))
    }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
    mutating func pick(_ l: [String]) -> String { l[int(0...(l.count - 1))] }

    mutating func sections() -> SectionSelector {
        if chance(20) { return .all }
        return .some((0..<int(0...3)).map { _ in chance(50) ? .index(int(-4...4)) : .id(pick(["In", "Out", "all", "2", "a b"])) })
    }

    mutating func rows() -> RowSelector {
        var r = RowSelector()
        if chance(40) { r.section = sections() }
        switch int(0...4) {
        case 0: r.position = .first(int(1...3))
        case 1: r.position = .last(int(1...3))
        case 2: r.position = .indices((0..<int(0...3)).map { _ in int(-4...4) })
        default: break
        }
        if chance(30) { r.ids = (0..<int(0...2)).map { _ in pick(["a", "2", "x\"y", "all"]) } }
        if chance(20) { r.kinds = (0..<int(0...2)).map { _ in pick(["item", "yes", "010"]) } }
        if chance(20) { r.tags = (0..<int(0...2)).map { _ in pick(["t", "u"]) } }
        return r
    }

    mutating func policy() -> Policy {
        let rules = (0..<int(0...5)).map { n -> RowRule in
            let meta = RuleMetadata(id: "r\(n)")
            switch int(0...5) {
            case 0: return RowRule(.lock(rows()), metadata: meta)
            case 1: return RowRule(.pin(rows(), anchor: chance(40) ? (chance(50) ? .start : .end) : nil), metadata: meta)
            case 2: return RowRule(.reserve(edge: chance(50) ? .start : .end, count: int(1...3), section: chance(50) ? sections() : nil), metadata: meta)
            case 3: return RowRule(.keepInSection(rows()), metadata: meta)
            case 4: return RowRule(.accept(section: sections(), from: sections(), rows: rows()), metadata: meta)
            default:
                let max = chance(60) ? int(0...5) : nil
                return RowRule(.capacity(section: sections(), max: max, min: max == nil || chance(30) ? int(0...5) : nil), metadata: meta)
            }
        }
        let sectionRules = (0..<int(0...2)).map { n -> SectionRule in
            let meta = RuleMetadata(id: "s\(n)")
            let target: SectionRuleTarget = chance(50) ? .sections(sections()) : (chance(50) ? .first(int(1...2)) : .last(int(1...2)))
            return chance(50) ? SectionRule(.lock(target), metadata: meta) : SectionRule(.pin(target, anchor: chance(30) ? .end : nil), metadata: meta)
        }
        return Policy(name: "random \(int(0...99))", retarget: chance(20) ? .cancel : .nearest, rules: rules, sectionRules: sectionRules)
    }
}
