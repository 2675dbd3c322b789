import Foundation

/// A structured record of one decision, for services to log (one JSON object per line).
///
/// `check --log FILE` appends these as JSON Lines. The record is `Codable`, so a log can be
/// read back with `JSONDecoder`; ``jsonLine`` writes the same shape quickly for batches.
public struct DecisionEvent: Codable, Sendable, Hashable {
    /// The move as given.
    public struct MoveRecord: Codable, Sendable, Hashable {
        public var from: [Int]?
        public var to: [Int]?
        public var sectionFrom: Int?
        public var sectionTo: Int?
        /// The offset form (rows moved together): `from-offsets`, `to-offset`, `section`.
        public var fromOffsets: [Int]?
        public var toOffset: Int?
        public var section: Int?
        /// A malformed moves item, as the JSON text it was given as.
        public var given: String?

        enum CodingKeys: String, CodingKey {
            case from, to
            case sectionFrom = "section-from"
            case sectionTo = "section-to"
            case fromOffsets = "from-offsets"
            case toOffset = "to-offset"
            case section, given
        }

        /// The record of an offset move.
        public init(fromOffsets: [Int], toOffset: Int, section: Int) {
            self.fromOffsets = fromOffsets
            self.toOffset = toOffset
            self.section = section
        }

        /// The record of a malformed item, echoed as JSON text.
        public init(given: String) { self.given = given }

        /// The record of `move`.
        public init(_ move: Move) {
            switch move {
            case .row(let f, let t):
                from = [f.section, f.row]
                to = [t.section, t.row]
            case .section(let a, let b):
                sectionFrom = a
                sectionTo = b
            }
        }
    }

    /// The policy's name.
    public var policy: String
    /// A hash of the policy file's bytes (`fnv1a64:` and 16 hex digits), to tell versions apart.
    public var policyHash: String
    /// The move.
    public var move: MoveRecord
    /// `allowed`, `retargeted`, `rejected`, `denied` or `invalid`.
    public var decision: String
    /// Where the item ends up: `[s, r]` for rows, `[i]` for sections; absent for `invalid`.
    public var target: [Int]?
    /// Ids of the violated rules, in file order.
    public var rules: [String]
    /// For `invalid`, why.
    public var error: String?
    /// When the decision was made, ISO 8601 in UTC.
    public var time: String

    enum CodingKeys: String, CodingKey {
        case policy, policyHash = "policy-hash", move, decision, target, rules, error, time
    }

    /// The event for a decision.
    public init(policy: String, policyHash: String, decision: Decision, time: Date = Date()) {
        self.policy = policy
        self.policyHash = policyHash
        move = MoveRecord(decision.move)
        self.decision = decision.kind.rawValue
        switch decision.target {
        case .row(let p): target = [p.section, p.row]
        case .section(let i): target = [i]
        }
        rules = (0..<decision.violationCount).map { decision.violation(at: $0).rule }  // no array of violations built
        error = nil
        self.time = Self.timestamp(time)
    }

    /// The event for a move that did not fit the table.
    public init(policy: String, policyHash: String, invalid move: Move, error: String, time: Date = Date()) {
        self.policy = policy
        self.policyHash = policyHash
        self.move = MoveRecord(move)
        decision = "invalid"
        target = nil
        rules = []
        self.error = error
        self.time = Self.timestamp(time)
    }

    /// An event from its parts: for offset moves and malformed items, which have no `Move`.
    public init(policy: String, policyHash: String, move: MoveRecord, decision: String, target: [Int]?, rules: [String],
                error: String?, time: Date = Date()) {
        self.policy = policy
        self.policyHash = policyHash
        self.move = move
        self.decision = decision
        self.target = target
        self.rules = rules
        self.error = error
        self.time = Self.timestamp(time)
    }

    /// FNV-1a (64-bit) of `bytes`, as `fnv1a64:` and 16 hex digits.
    public static func hash(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `2026-11-22T04:26:37.297Z`: ISO 8601 in UTC with milliseconds (no formatter per event).
    static func timestamp(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        var whole = time_t(seconds.rounded(.down))
        let millis = Int((seconds - Double(whole)) * 1000)
        var parts = tm()
        gmtime_r(&whole, &parts)
        func pad(_ v: Int32, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
    }

    /// The event as one line of JSON (keys in a fixed order, no trailing newline).
    public var jsonLine: String {
        var w = JSONWriter(capacity: 256)
        w.raw("{\"policy\": ")
        w.string(policy)
        w.raw(", \"policy-hash\": ")
        w.string(policyHash)
        w.raw(", \"move\": {")
        if let from, let to {
            w.raw("\"from\": ")
            w.pair(from[0], from[1])
            w.raw(", \"to\": ")
            w.pair(to[0], to[1])
        } else if let a = move.sectionFrom, let b = move.sectionTo {
            w.raw("\"section-from\": ")
            w.int(a)
            w.raw(", \"section-to\": ")
            w.int(b)
        } else if let offsets = move.fromOffsets, let toOffset = move.toOffset, let section = move.section {
            DecisionJSON.offsetFields(offsets, toOffset: toOffset, section: section, into: &w)
        } else if let given = move.given {
            w.raw("\"given\": ")
            w.string(given)
        }
        w.raw("}, \"decision\": ")
        w.string(decision)
        if let target {
            w.raw(", \"target\": [")
            for (n, v) in target.enumerated() {
                if n > 0 { w.raw(", ") }
                w.int(v)
            }
            w.raw("]")
        }
        w.raw(", \"rules\": ")
        w.strings(rules)
        if let error {
            w.raw(", \"error\": ")
            w.string(error)
        }
        w.raw(", \"time\": ")
        w.string(time)
        w.raw("}")
        return w.text
    }

    private var from: [Int]? { move.from }
    private var to: [Int]? { move.to }
}
