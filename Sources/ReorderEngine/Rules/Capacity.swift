/// `capacity: { section, max, min }` (SPEC §2.2, §7, §8.3): a move from another section into a
/// selected section `t` needs `n_t + 1 <= max`; a move out of a selected section `s` into
/// another needs `n_s - 1 >= min`. Counts are taken before the move; moves within one
/// section are never limited. A bound is a number or a section attribute (`{ attribute: wip }`).
/// With `rows` (SPEC §12) a section's count is the rows `rows` selects, and only a moving row
/// that `rows` selects is limited.
public struct CapacityRule: Hashable, Sendable {
    /// The limited sections.
    public var section: SectionSelector
    /// The most rows a section may hold after a row comes in, if limited.
    public var max: CapacityBound?
    /// The fewest rows a section may keep after a row leaves, if limited.
    public var min: CapacityBound?
    /// The rows that are counted and limited (SPEC §12); nil: every row, as `all`.
    public var rows: RowSelector?

    /// Creates the rule.
    public init(section: SectionSelector, max: CapacityBound? = nil, min: CapacityBound? = nil, rows: RowSelector? = nil) {
        self.section = section
        self.max = max
        self.min = min
        self.rows = rows
    }
}

/// A `capacity` bound (SPEC §8.3): a fixed count, or each section's own integer attribute.
/// Integer literals build fixed bounds (`max: 3`).
public enum CapacityBound: Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The same count for every selected section.
    case value(Int)
    /// The section's attribute of this name; a section without it is not bounded on that side.
    case attribute(String)

    public init(integerLiteral value: Int) { self = .value(value) }

    /// The bound for `section`, or nil when it has none.
    public func resolved(for section: Section) -> Int? {
        switch self {
        case .value(let n): n
        case .attribute(let name): section.attributes[name]
        }
    }

    /// `3` or `{ attribute: wip }`, as in policy files.
    public var description: String {
        switch self {
        case .value(let n): String(n)
        case .attribute(let name): FlowYAML.mapping([("attribute", FlowYAML.scalar(name))])
        }
    }
}

extension RowRule.Kind {
    /// Moves into a selected section need room below `max`; moves out need `min` rows left.
    /// With `rows`, only the rows it selects are counted and limited (SPEC §12).
    public static func capacity(section: SectionSelector, max: CapacityBound?, min: CapacityBound?, rows: RowSelector? = nil) -> Self {
        Self(CapacityRule(section: section, max: max, min: min, rows: rows))
    }
}

extension CapacityRule: RowRuleKind {
    package static let keyword = "capacity"
    package static let summary = "a move from another section into a selected section needs room below 'max'; a move out of one needs 'min' rows left; with 'rows', only those rows are counted and limited"
    package static let argumentSchema = ##"""
        {
          "type": "object", "additionalProperties": false, "required": ["section"],
          "anyOf": [ { "required": ["max"] }, { "required": ["min"] } ],
          "properties": { "section": { "$ref": "#/$defs/sectionSelector" }, "max": { "$ref": "#/$defs/capacityBound" },
                          "min": { "$ref": "#/$defs/capacityBound" }, "rows": { "$ref": "#/$defs/rowSelector" } }
        }
        """##

    package static func decode<Reader: RuleArgumentReader>(_ argument: Reader.Node, _ reader: inout Reader) -> Self? {
        guard let entries = reader.entries(argument, in: "'capacity'", known: ["section", "max", "min", "rows"]) else { return nil }
        guard let sectionEntry = entries.entry("section") else {
            reader.report(.missingKey, "'capacity' needs 'section': the sections it limits", at: argument, help: nil)
            return nil
        }
        let section = reader.sectionSelector(sectionEntry.value, "'section'")
        let maxEntry = entries.entry("max"), minEntry = entries.entry("min")
        guard maxEntry != nil || minEntry != nil else {
            reader.report(.missingKey, "'capacity' needs 'max', 'min' or both", at: argument, help: nil)
            return nil
        }
        var ok = true
        var max: CapacityBound? = nil, min: CapacityBound? = nil
        if let maxEntry {
            max = reader.capacityBound(maxEntry.value, "'max'")
            ok = ok && max != nil
        }
        if let minEntry {
            min = reader.capacityBound(minEntry.value, "'min'")
            ok = ok && min != nil
        }
        var rows: RowSelector? = nil
        if let entry = entries.entry("rows") {
            rows = reader.rowSelector(entry.value, for: "'rows'")
            ok = ok && rows != nil
        }
        guard let section, ok else { return nil }
        return Self(section: section, max: max, min: min, rows: rows)
    }

    package var argumentYAML: String {
        var entries = [("section", section.flowYAML)]
        if let max { entries.append(("max", max.description)) }
        if let min { entries.append(("min", min.description)) }
        if let rows { entries.append(("rows", rows.flowYAML)) }
        return FlowYAML.mapping(entries)
    }

    package var mentions: RuleMentions {
        let attributes = [max, min].compactMap { bound -> String? in
            if case .attribute(let name)? = bound { return name }
            return nil
        }
        return RuleMentions(sections: [section], rows: rows.map { [$0] } ?? [], attributes: attributes)
    }

    package func compile() throws(PolicyError) -> any CompiledRowRuleKind {
        guard max != nil || min != nil else { throw PolicyError("capacity needs max or min") }
        for bound in [max, min] {
            switch bound {
            case .value(let n)?: if n < 0 { throw PolicyError("capacity max and min must be >= 0") }
            case .attribute(let name)?: if name.isEmpty { throw PolicyError("a capacity attribute needs a name") }
            case nil: break
            }
        }
        try rows?.validate()
        return Compiled(rule: self, rows: rows.map(CompiledRowSelector.init))
    }

    struct Compiled: CompiledRowRuleKind {
        let rule: CapacityRule
        let rows: CompiledRowSelector?

        func bind(_ binder: inout RuleBinder) -> RuleEffects {
            let covered = binder.sections(rule.section)
            // Per section, once at bind: a number is copied; an attribute bound reads that
            // section's own value (only then is the section looked at).
            func resolve(_ bound: CapacityBound?) -> [Int?] {
                switch bound {
                case nil: return [Int?](repeating: nil, count: covered.count)
                case .value(let n)?: return covered.map { $0 ? n : nil }
                case .attribute(let name)?:
                    return binder.table.sections.indices.map { covered[$0] ? binder.table.sections[$0].attributes[name] : nil }
                }
            }
            let q = rows.map { binder.query($0) }
            return RuleEffects(limits: SectionLimits(
                max: resolve(rule.max), min: resolve(rule.min), rows: q, counted: q.map { binder.selectedCounts($0) }))
        }

        /// What was counted: `4 rows`, or with `rows` `4 rows of kind card` (SPEC §12).
        func counted(_ n: Int) -> Reason {
            guard let rows = rule.rows else { return Reason.plural(n, "row") }
            return "\(Reason.plural(n, "row")) \(Self.phrase(rows))"
        }

        /// `of kind card`, `tagged urgent`, `with id A or B`, else `matching { ... }`.
        static func phrase(_ r: RowSelector) -> String {
            switch r.oneWordList {
            case ("kind", let words)?: return "of kind " + words.joined(separator: " or ")
            case ("tag", let words)?: return "tagged " + words.joined(separator: " or ")
            case ("id", let words)?: return "with id " + words.joined(separator: " or ")
            default: return r == .all ? "of any kind" : "matching \(r.flowYAML)"
            }
        }


        /// ` (its attribute 'wip')` for an attribute bound, else nothing.
        func attributeNote(_ bound: CapacityBound?) -> String {
            if case .attribute(let name)? = bound { return " (its attribute '\(name)')" }
            return ""
        }

        @_specialize(where W == WordedReason) @_specialize(where W == JSONWordedReason)
        func word<W: ReasonText>(_ c: RowCheck, into reason: inout W) -> RuleScope {
            guard let limits = c.effects.limits else {
                reason = "limits no section"
                return .notApplicable
            }
            let s = c.s, t = c.t
            if t == s {
                reason = "moves within one section are never limited"
                return .notApplicable
            }
            let max = limits.max[t], min = limits.min[s]
            guard max != nil || min != nil else {
                reason = "limits neither \(c.sectionName(s)) nor \(c.sectionName(t))"
                return .notApplicable
            }
            if let q = limits.rows, let selector = rule.rows, !c.selects(q, c.from) {
                reason = "counts only rows \(Self.phrase(selector)); \(c.row) is not one"
                return .notApplicable
            }
            let what = rule.rows.map { " rows " + Self.phrase($0) } ?? ""
            var problems: [Reason] = [], fine: [Reason] = []
            if let max {
                let after = limits.count(t, rows: c.count(t)) + 1
                if after > max {
                    problems.append("moving \(c.row) to \(c.to) would put \(counted(after)) in \(c.sectionName(t)), more than its max of \(max)\(attributeNote(rule.max))")
                } else {
                    fine.append("\(c.sectionName(t)) would hold \(after) of at most \(max)\(what)\(attributeNote(rule.max))")
                }
            }
            if let min {
                let after = limits.count(s, rows: c.count(s)) - 1
                if after < min {
                    problems.append("moving \(c.row) to \(c.to) would leave \(counted(after)) in \(c.sectionName(s)), fewer than its min of \(min)\(attributeNote(rule.min))")
                } else {
                    fine.append("\(c.sectionName(s)) would keep \(after) of at least \(min)\(what)\(attributeNote(rule.min))")
                }
            }
            reason = W(Reason.joined(problems.isEmpty ? fine : problems))
            return .applies
        }

        func word(_ c: BlockCheck) -> Reason {
            guard let limits = c.effects.limits else { return "" }
            // With `rows`, only the block's rows that it selects count (LANGUAGE.md, "Choices").
            let m = c.bound.countedRows(limits, c.move)
            let inT = limits.count(c.t, rows: c.count(c.t)), inS = limits.count(c.s, rows: c.count(c.s))
            if let max = limits.max[c.t], inT + m > max {
                return "moving \(c.label) to \(c.landing) would put \(counted(inT + m)) in \(c.sectionName(c.t)), more than its max of \(max)\(attributeNote(rule.max))"
            }
            if let min = limits.min[c.s] {
                return "moving \(c.label) out of \(c.sectionName(c.s)) would leave \(counted(inS - m)), fewer than its min of \(min)\(attributeNote(rule.min))"
            }
            return ""
        }
    }
}
