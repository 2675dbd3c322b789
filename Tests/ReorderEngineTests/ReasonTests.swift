import Foundation
import Testing
@testable import ReorderEngine

/// A reason is rendered into bytes as it is built (issue #26). The rendering agrees with a
/// plain description of its parts for every kind of part, every length (across the 128 bytes
/// kept inline, and past them), and every number; and the short copy under it agrees with
/// `memcpy` for every length.
@Suite struct ReasonTests {
    /// The parts as a plain renderer would write them (the old `description`).
    static func plain(_ parts: [Reason.Part]) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .text(let t): out += t
            case .quoted(let id): out += "\"\(id)\""
            case .position(let p): out += "\(p.section).\(p.row)"
            case .number(let n): out += String(n)
            case .section(let u, let id): out += "section \(u)" + (id.map { " (\"\($0)\")" } ?? "")
            }
        }
        return out
    }

    static func randomText(_ g: inout SplitMix64) -> String {
        let alphabet: [String] = ["a", "Z", " ", "\"", "\\", "é", "→", "🙂", "\n", "\t", "0"]
        return (0..<Int.random(in: 0...(Bool.random(using: &g) ? 6 : 70), using: &g)).map { _ in alphabet.randomElement(using: &g)! }.joined()
    }

    static func randomNumber(_ g: inout SplitMix64) -> Int {
        [0, 9, 10, 99, 100, -1, -10, Int.max, Int.min, Int.random(in: -1_000_000...1_000_000, using: &g)].randomElement(using: &g)!
    }

    @Test func partsRenderAsTheyRead() {
        var g = SplitMix64(seed: 0x2EA5)
        for _ in 0..<3_000 {
            var parts: [Reason.Part] = []
            for _ in 0..<Int.random(in: 0...9, using: &g) {
                switch Int.random(in: 0..<5, using: &g) {
                case 0: parts.append(.text(Self.randomText(&g)))
                case 1: parts.append(.quoted(Self.randomText(&g)))
                case 2: parts.append(.position(Position(section: Self.randomNumber(&g), row: Self.randomNumber(&g))))
                case 3: parts.append(.number(Self.randomNumber(&g)))
                default: parts.append(.section(Self.randomNumber(&g), id: Bool.random(using: &g) ? Self.randomText(&g) : nil))
                }
            }
            let expected = Self.plain(parts)
            #expect(Reason(parts).description == expected)
            #expect(Reason(parts).utf8.elementsEqual(expected.utf8))
            // The same parts through interpolation, and appended one by one.
            var interpolated = Reason.StringInterpolation(literalCapacity: 0, interpolationCount: parts.count)
            for part in parts { interpolated.appendInterpolation(part) }
            #expect(Reason(stringInterpolation: interpolated) == Reason(parts))
            var appended: Reason = ""
            for part in parts { appended.append(part) }
            #expect(appended == Reason(parts))
        }
    }

    @Test func literalsAndInterpolationsMix() {
        let long = String(repeating: "x", count: 200)
        let p = Position(section: 3, row: -12)
        let r: Reason = "moving \(Reason.Part.quoted("Blue")) to \(p) takes \(7) of \(Reason.Part.section(2, id: "Do\"ne")) \(long)"
        #expect(r.description == "moving \"Blue\" to 3.-12 takes 7 of section 2 (\"Do\"ne\") " + long)
        #expect(Reason("plain \"text\"").description == "plain \"text\"")
        #expect(("" as Reason).utf8.isEmpty)
        #expect(Reason.joined(["a", "b \(1)", ""]).description == "a; b 1; ")
    }

    @Test func shortCopiesAgreeWithMemcpy() {
        var g = SplitMix64(seed: 0xC0B7)
        let source = (0..<64).map { _ in UInt8.random(in: 0...255, using: &g) }
        for count in 0...48 {
            for offset in 0..<8 {
                var target = [UInt8](repeating: 0xAA, count: 80)
                source.withUnsafeBytes { s in
                    target.withUnsafeMutableBytes { t in
                        _ShortCopy.copy(s.baseAddress! + offset, to: t.baseAddress! + 3, count: count)
                    }
                }
                #expect(Array(target[3..<3 + count]) == Array(source[offset..<offset + count]), "count \(count) offset \(offset)")
                #expect(target[0..<3].allSatisfy { $0 == 0xAA } && target[(3 + count)...].allSatisfy { $0 == 0xAA }, "count \(count): wrote outside")
            }
        }
    }
}

/// A decision keeps its first violation inline and the others in an array (issue #26); read
/// and written through `violations`, through `violation(at:)`, compared, hashed and encoded,
/// it is the list it was made from, whatever its length and however it was made or changed.
@Suite struct DecisionViolationsTests {
    static func violation(_ n: Int) -> Violation {
        Violation(rule: "r\(n)", kind: "lock", message: n % 2 == 0 ? nil : "m", location: nil, reason: "reason \(n)")
    }

    @Test("violations read back as made, for 0 to 4 of them and after every change")
    func violationsReadBackAsMade() {
        let move = Move.row(from: Position(section: 0, row: 1), to: Position(section: 0, row: 2))
        func made(_ list: [Violation]) -> Decision {
            Decision(move: move, kind: .rejected, target: .row(Position(section: 0, row: 1)), violations: list)
        }
        for count in 0...4 {
            let list = (0..<count).map(Self.violation)
            var d = made(list)
            #expect(d.violations == list)
            #expect(d.violationCount == count)
            #expect((0..<d.violationCount).map { d.violation(at: $0) } == list)
            // Changed through the property: appended, removed from the front, emptied; each
            // time equal (and equally hashed) to a decision made from that list, and to no
            // other.
            d.violations.append(Self.violation(9))
            #expect(d.violations == list + [Self.violation(9)] && d.violationCount == count + 1)
            #expect(d == made(list + [Self.violation(9)]) && d.hashValue == made(list + [Self.violation(9)]).hashValue)
            #expect(d != made(list))
            d.violations.removeFirst()
            let rest = Array((list + [Self.violation(9)]).dropFirst())
            #expect(d.violations == rest && d == made(rest) && d.hashValue == made(rest).hashValue)
            #expect((d == made(list)) == (count == 0))  // equal exactly when the lists are
            d.violations = []
            #expect(d.violationCount == 0 && d.violations.isEmpty)
            #expect(d == made([]) && d.hashValue == made([]).hashValue)
        }
    }

    @Test("decided violations (one rule broken, or several) equal the same list made by hand, also after JSON")
    func decidedViolationsEqualTheirList() throws {
        var gen = RandomPolicies(seed: 0x2625)
        var several = 0, one = 0
        for _ in 0..<400 {
            let policy = gen.policy(), table = gen.table()
            let bound = try CompiledPolicy(policy).bind(table)
            for _ in 0..<8 {
                guard let (from, to) = gen.rowMove(in: table) else { break }
                let decided = try bound.decide(.row(from: from, to: to))
                if decided.violationCount > 1 { several += 1 } else if decided.violationCount == 1 { one += 1 }
                let byHand = Decision(move: decided.move, kind: decided.kind, target: decided.target, violations: decided.violations)
                #expect(decided == byHand && decided.hashValue == byHand.hashValue)
                #expect((0..<decided.violationCount).map { decided.violation(at: $0) } == decided.violations)
                let decoded = try JSONDecoder().decode(Decision.self, from: JSONEncoder().encode(decided))
                #expect(decoded == decided)
            }
        }
        #expect(several > 0 && one > 0, "the random policies broke several rules at once \(several) times, one \(one) times")
    }
}
