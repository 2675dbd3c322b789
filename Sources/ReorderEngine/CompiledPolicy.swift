/// Why a policy built in code cannot be compiled. Policies loaded from files are checked
/// by the loader first, which reports the same problems with their locations.
public struct PolicyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A rule that stops rows from being picked up: `lock`, `pin` or `reserve`.
struct HoldRule: Sendable {
    /// Index of the rule in `Policy.rules`.
    let ruleIndex: Int
    let selector: CompiledRowSelector
    /// The explicit anchor; nil means decided row by row.
    let anchor: Anchor?
    /// False for `lock`: locked rows may be shifted by other moves.
    let pins: Bool
    /// True for `reserve`, which explanations call "reserved".
    let reserved: Bool
}

/// A policy checked and prepared for binding: immutable and `Sendable`, so one instance
/// can serve every request of a service.
public struct CompiledPolicy: Sendable {
    /// The policy as given.
    public let policy: Policy

    /// Per row rule, the reference its violations share.
    let rowRuleReferences: [RuleReference]
    /// Per section rule, the reference its violations share.
    let sectionRuleReferences: [RuleReference]

    let holds: [HoldRule]
    /// For each row rule, its index in `holds`, or nil.
    let holdIndexOfRule: [Int?]
    /// Selectors whose match on the moving row is needed per call: keep-in-section and accept `rows`.
    let querySelectors: [CompiledRowSelector]
    /// Indices into `querySelectors` of keep-in-section rules.
    let keepQueries: [Int]
    /// Accept rules: index in `Policy.rules` and the query selector index of `rows`.
    let accepts: [(ruleIndex: Int, query: Int)]
    /// For each row rule, its index in `accepts`, or nil.
    let acceptIndexOfRule: [Int?]
    /// For each row rule, its index in `querySelectors` (keep-in-section), or nil.
    let queryIndexOfRule: [Int?]

    /// Checks `policy` and prepares it.
    public init(_ policy: Policy) throws(PolicyError) {
        self.policy = policy
        var ids = Set<String>()
        for id in policy.rules.map(\.metadata.id) + policy.sectionRules.map(\.metadata.id) {
            guard ids.insert(id).inserted else { throw PolicyError("rule id '\(id)' is used twice") }
        }
        var holds: [HoldRule] = []
        var holdIndex: [Int?] = []
        var queries: [CompiledRowSelector] = []
        var keep: [Int] = []
        var accepts: [(Int, Int)] = []
        var acceptIndex: [Int?] = []
        var queryIndex: [Int?] = []
        for (index, rule) in policy.rules.enumerated() {
            var h: Int? = nil, a: Int? = nil, q: Int? = nil
            let id = rule.metadata.id
            switch rule.kind {
            case .lock(let s):
                try Self.check(s, id)
                h = holds.count
                holds.append(HoldRule(ruleIndex: index, selector: CompiledRowSelector(s), anchor: nil, pins: false, reserved: false))
            case .pin(let s, let anchor):
                try Self.check(s, id)
                h = holds.count
                holds.append(HoldRule(ruleIndex: index, selector: CompiledRowSelector(s), anchor: anchor, pins: true, reserved: false))
            case .reserve(let edge, let count, let section):
                guard count >= 1 else { throw PolicyError("rule '\(id)': reserve needs a count of at least 1") }
                let s = RowSelector(section: section, position: edge == .start ? .first(count) : .last(count))
                h = holds.count
                holds.append(HoldRule(ruleIndex: index, selector: CompiledRowSelector(s), anchor: edge, pins: true, reserved: true))
            case .keepInSection(let s):
                try Self.check(s, id)
                q = queries.count
                keep.append(queries.count)
                queries.append(CompiledRowSelector(s))
            case .accept(_, _, let rows):
                try Self.check(rows, id)
                a = accepts.count
                accepts.append((index, queries.count))
                queries.append(CompiledRowSelector(rows))
            case .capacity(_, let max, let min):
                guard max != nil || min != nil else { throw PolicyError("rule '\(id)': capacity needs max or min") }
                if let max, max < 0 { throw PolicyError("rule '\(id)': capacity max must be >= 0") }
                if let min, min < 0 { throw PolicyError("rule '\(id)': capacity min must be >= 0") }
            }
            holdIndex.append(h)
            acceptIndex.append(a)
            queryIndex.append(q)
        }
        for rule in policy.sectionRules {
            let target: SectionRuleTarget
            switch rule.kind {
            case .lock(let t): target = t
            case .pin(let t, _): target = t
            }
            switch target {
            case .first(let n), .last(let n):
                guard n >= 1 else { throw PolicyError("rule '\(rule.metadata.id)': counts must be at least 1") }
            case .sections: break
            }
        }
        rowRuleReferences = policy.rules.enumerated().map { n, rule in
            RuleReference(id: rule.metadata.id, kind: rule.keyword, message: rule.metadata.message, location: rule.metadata.location, ordinal: n)
        }
        sectionRuleReferences = policy.sectionRules.enumerated().map { n, rule in
            RuleReference(id: rule.metadata.id, kind: rule.keyword, message: rule.metadata.message, location: rule.metadata.location,
                          ordinal: policy.rules.count + n)
        }
        self.holds = holds
        self.holdIndexOfRule = holdIndex
        self.querySelectors = queries
        self.keepQueries = keep
        self.accepts = accepts
        self.acceptIndexOfRule = acceptIndex
        self.queryIndexOfRule = queryIndex
    }

    private static func check(_ s: RowSelector, _ id: String) throws(PolicyError) {
        switch s.position {
        case .first(let n), .last(let n):
            guard n >= 1 else { throw PolicyError("rule '\(id)': first and last need a count of at least 1") }
        default: break
        }
    }

    /// Binds the policy to a table: linear in the table's size, done once per drag or request.
    public func bind(_ table: Table) -> BoundPolicy {
        BoundPolicy(compiled: self, table: table)
    }
}
