/// `keep-among: kind` or `keep-among: <row selector>` (SPEC §13.2): rows stay among their own
/// group within their section. A move within one section is invalid when a row it shifts (the
/// rows `i+1 ... j` before the move when `j > i`, `j ... i-1` when `j < i`) is in another group
/// than the moving row. Moves to another section are not limited by it, nor is `canMove`.
public struct KeepAmongRule: Hashable, Sendable {
    /// How rows are put into groups.
    public enum Groups: Hashable, Sendable {
        /// Every row belongs to the group of its `kind`; rows without a kind form one group.
        case kind
        /// The rows the selector matches (on the table before the move) form one group, every
        /// other row another.
        case rows(RowSelector)
    }

    /// How rows are put into groups.
    public var groups: Groups

    /// Creates the rule.
    public init(_ groups: Groups) { self.groups = groups }
}

extension RowRule.Kind {
    /// Rows stay among their own group (by kind, or selected and not) within their section.
    public static func keepAmong(_ groups: KeepAmongRule.Groups) -> Self { Self(KeepAmongRule(groups)) }
}

extension KeepAmongRule: RowRuleKind {
    package static let keyword = "keep-among"
    package static let summary = "a move within one section is invalid when a row it shifts is in another group than the moving row (by kind, or selected by the selector and not)"
    package static let argumentSchema = ##"{ "description": "'kind' (rows are grouped by kind), or a row selector (its rows form one group, the others another).", "anyOf": [ { "const": "kind" }, { "$ref": "#/$defs/rowSelector" } ] }"##

    package static func decode<Reader: RuleArgumentReader>(_ argument: Reader.Node, _ reader: inout Reader) -> Self? {
        if let word = reader.scalarWord(argument) {
            if word == "kind" { return Self(.kind) }
            if word != "all" {
                reader.report(.invalidValue, "expected 'kind' or a row selector for 'keep-among', found '\(word)'", at: argument,
                              help: "write 'keep-among: kind' to keep rows among rows of their kind, or a row selector such as '{ tag: pinned }'")
                return nil
            }
        }
        return reader.rowSelector(argument, for: keyword).map { Self(.rows($0)) }
    }

    package var argumentYAML: String {
        switch groups {
        case .kind: "kind"
        case .rows(let rows): rows.flowYAML
        }
    }

    package var mentions: RuleMentions {
        switch groups {
        // A kind no selector names: the small tables then hold rows of two groups (that kind,
        // and none).
        case .kind: RuleMentions(rows: [RowSelector(kinds: ["kind-of-its-own"])])
        case .rows(let rows): RuleMentions(rows: [rows])
        }
    }

    package func compile() throws(PolicyError) -> any CompiledRowRuleKind {
        switch groups {
        case .kind: return Compiled(rows: nil, phrase: "")
        case .rows(let rows):
            try rows.validate()
            return Compiled(rows: CompiledRowSelector(rows), phrase: Self.phrase(rows))
        }
    }

    /// `tag pinned`, `kind header`, `id A or B`, else the selector as flow YAML.
    static func phrase(_ r: RowSelector) -> String {
        r.oneWordList.map { "\($0.key) " + $0.words.joined(separator: " or ") } ?? r.flowYAML
    }

    struct Compiled: CompiledRowRuleKind {
        /// nil: grouped by kind.
        let rows: CompiledRowSelector?
        /// The selector in words, for reasons.
        let phrase: String

        func bind(_ binder: inout RuleBinder) -> RuleEffects {
            var group: [Int32] = []
            group.reserveCapacity(binder.counts.reduce(0, +))
            if let rows {
                let matcher = RowMatcher(rows, &binder, memo: false)
                for u in binder.table.sections.indices {
                    binder.table.sections[u].rows.withUnsafeBufferPointer { list in
                        guard let base = list.baseAddress else { return }
                        for k in list.indices { group.append(matcher.match(u, k, list.count, base + k).matches ? 1 : 0) }
                    }
                }
            } else {
                // Kinds numbered as met; no kind is 0.
                var numbers: [String: Int32] = [:]
                for section in binder.table.sections {
                    for row in section.rows {
                        guard let kind = row.kind else {
                            group.append(0)
                            continue
                        }
                        if let n = numbers[kind] {
                            group.append(n)
                        } else {
                            let n = Int32(numbers.count + 1)
                            numbers[kind] = n
                            group.append(n)
                        }
                    }
                }
            }
            binder.declineFollowing()
            return RuleEffects(among: RowGroups(group: group, counts: binder.counts))
        }

        /// `tag pinned` or `not tag pinned`; `kind card` or `no kind`: the group of the row at `p`.
        func groupWords(_ among: RowGroups, _ bound: BoundPolicy, _ p: Position) -> String {
            if rows != nil { return among.group(p.section, p.row) == 1 ? phrase : "not " + phrase }
            return bound.table.sections[p.section].rows[p.row].kind.map { "kind " + $0 } ?? "no kind"
        }

        @_specialize(where W == WordedReason) @_specialize(where W == JSONWordedReason)
        func word<W: ReasonText>(_ c: RowCheck, into reason: inout W) -> RuleScope {
            guard let among = c.effects.among else {
                reason = "groups no row"
                return .notApplicable
            }
            if c.t != c.s {
                reason = "the move leaves \(c.sectionName(c.s)); only moves within it are limited"
                return .notApplicable
            }
            guard let k = among.firstOther(c.s, c.i, c.j) else {
                reason = c.j == c.i ? "\(c.row) stays at \(c.from)" : "\(c.row) passes only rows among its own"
                return .applies
            }
            let passed = Position(section: c.s, row: k)
            reason = "moving \(c.row) to \(c.to) would pass \(c.rowName(passed)), which is not among its own (\(groupWords(among, c.bound, passed)))"
            return .applies
        }

        func word(_ c: BlockCheck) -> Reason {
            guard let among = c.effects.among, let k = among.firstOther(block: c.move, to: c.to) else { return "" }
            let passed = Position(section: c.s, row: k)
            return "moving \(c.label) to \(c.landing) would pass \(c.rowName(passed)), which is not among its own (\(groupWords(among, c.bound, passed)))"
        }
    }
}

/// The groups of `keep-among` on one table: each row's group, and the run of rows of its group
/// around it in its section (its valid rows within the section).
package struct RowGroups: Sendable {
    /// Per row in table order.
    let group: [Int32]
    /// Per row: the first and last index of the run of its group that holds it.
    let runLo: [Int32]
    let runHi: [Int32]
    /// Index of each section's first row in the arrays.
    let base: [Int]
    let counts: [Int]

    init(group: [Int32], counts: [Int]) {
        self.group = group
        var base: [Int] = [], lo = [Int32](repeating: 0, count: group.count), hi = lo
        var b = 0
        for n in counts {
            base.append(b)
            var k = 0
            while k < n {
                var e = k
                while e + 1 < n && group[b + e + 1] == group[b + k] { e += 1 }
                for r in k...e {
                    lo[b + r] = Int32(k)
                    hi[b + r] = Int32(e)
                }
                k = e + 1
            }
            b += n
        }
        self.base = base
        self.counts = counts
        runLo = lo
        runHi = hi
    }

    @inline(__always)
    func group(_ s: Int, _ i: Int) -> Int32 { group[base[s] &+ i] }

    /// The runs of several `keep-among`s together: per row, the largest start and the smallest
    /// end of its runs (empty arrays for none).
    static func intersection(_ all: [RowGroups]) -> [UInt64] {
        guard var lo = all.first?.runLo, var hi = all.first?.runHi else { return [] }
        for g in all.dropFirst() {
            for k in lo.indices {
                lo[k] = Swift.max(lo[k], g.runLo[k])
                hi[k] = Swift.min(hi[k], g.runHi[k])
            }
        }
        return lo.indices.map { UInt64(UInt32(bitPattern: lo[$0])) | UInt64(UInt32(bitPattern: hi[$0])) << 32 }
    }

    /// The valid rows within section `s` for its row `i`: those it reaches passing only rows of its group.
    @inline(__always)
    func run(_ s: Int, _ i: Int) -> (lo: Int, hi: Int) { (Int(runLo[base[s] &+ i]), Int(runHi[base[s] &+ i])) }

    /// The first row that moving row `i` of section `s` to index `j` of it passes whose group
    /// is another (nil when none).
    func firstOther(_ s: Int, _ i: Int, _ j: Int) -> Int? {
        let (lo, hi) = run(s, i)
        if j > hi { return hi + 1 }
        guard j < lo else { return nil }
        // Row `lo - 1` is of another group; rows before it may be of the row's own again.
        let own = group(s, i)
        var k = j
        while group(s, k) == own { k += 1 }
        return k
    }

    /// For a block moved within its section: the first row it shifts (in reading order) that is
    /// in another group than one of the block's rows (nil when none, or when the block leaves
    /// its section). Only rows between the block and its landing shift; O(rows of the section).
    func firstOther(block move: MultiRowMove, to: Position) -> Int? {
        let s = move.section, m = move.rows.count
        guard to.section == s, let first = move.rows.first, let last = move.rows.last else { return nil }
        let moving = Set(move.rows), groups = Set(move.rows.map { group(s, $0) })
        let lo = Swift.min(first, to.row), hi = Swift.max(last, to.row + m - 1)
        // `r`: the row's index once the block is taken out; it lands at r, or r + m past the landing.
        var r = 0
        for k in 0..<counts[s] where !moving.contains(k) {
            defer { r += 1 }
            if k < lo { continue }
            if k > hi { break }
            let now = r < to.row ? r : r + m
            if now != k && (groups.count > 1 || !groups.contains(group(s, k))) { return k }
        }
        return nil
    }
}
