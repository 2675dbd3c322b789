/// `capacity: { section, max, min }` (SPEC §2.2, §7, §8.3): a move from another section into a
/// selected section `t` needs `n_t + 1 <= max`; a move out of a selected section `s` into
/// another needs `n_s - 1 >= min`. Counts are taken before the move; moves within one
/// section are never limited. A bound is a number or a section attribute (`{ attribute: wip }`).
public struct CapacityRule: Hashable, Sendable {
    /// The limited sections.
    public var section: SectionSelector
    /// The most rows a section may hold after a row comes in, if limited.
    public var max: CapacityBound?
    /// The fewest rows a section may keep after a row leaves, if limited.
    public var min: CapacityBound?

    /// Creates the rule.
    public init(section: SectionSelector, max: CapacityBound? = nil, min: CapacityBound? = nil) {
        self.section = section
        self.max = max
        self.min = min
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
    public static func capacity(section: SectionSelector, max: CapacityBound?, min: CapacityBound?) -> Self {
        Self(CapacityRule(section: section, max: max, min: min))
    }
}

extension CapacityRule: RowRuleKind {
    package static let keyword = "capacity"
    package static let summary = "a move from another section into a selected section needs room below 'max'; a move out of one needs 'min' rows left"
    package static let argumentSchema = ##"""
        {
          "type": "object", "additionalProperties": false, "required": ["section"],
          "anyOf": [ { "required": ["max"] }, { "required": ["min"] } ],
          "properties": { "section": { "$ref": "#/$defs/sectionSelector" }, "max": { "$ref": "#/$defs/capacityBound" },
                          "min": { "$ref": "#/$defs/capacityBound" } }
        }
        """##

    package static func decode<Reader: RuleArgumentReader>(_ argument: Reader.Node, _ reader: inout Reader) -> Self? {
        guard let entries = reader.entries(argument, in: "'capacity'", known: ["section", "max", "min"]) else { return nil }
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
        guard let section, ok else { return nil }
        return Self(section: section, max: max, min: min)
    }

    package var argumentYAML: String {
        var entries = [("section", section.flowYAML)]
        if let max { entries.append(("max", max.description)) }
        if let min { entries.append(("min", min.description)) }
        return FlowYAML.mapping(entries)
    }

    package var mentions: RuleMentions {
        let attributes = [max, min].compactMap { bound -> String? in
            if case .attribute(let name)? = bound { return name }
            return nil
        }
        return RuleMentions(sections: [section], attributes: attributes)
    }

    package func compile() throws(PolicyError) -> any CompiledRowRuleKind {
        guard max != nil || min != nil else { throw PolicyError("capacity needs max or min") }
        for bound in [max, min] {
            switch bound {
            case .value(let n)? where n < 0: throw PolicyError("capacity max and min must be >= 0")
            case .attribute(let name)? where name.isEmpty: throw PolicyError("a capacity attribute needs a name")
            default: break
            }
        }
        return Compiled(rule: self)
    }

    struct Compiled: CompiledRowRuleKind {
        let rule: CapacityRule

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
            return RuleEffects(limits: SectionLimits(max: resolve(rule.max), min: resolve(rule.min)))
        }


        /// ` (its attribute 'wip')` for an attribute bound, else nothing.
        func attributeNote(_ bound: CapacityBound?) -> String {
            if case .attribute(let name)? = bound { return " (its attribute '\(name)')" }
            return ""
        }

        func word(_ c: RowCheck) -> RuleWording {
            guard let limits = c.effects.limits else { return .notApplicable("limits no section") }
            let s = c.s, t = c.t
            if t == s { return .notApplicable("moves within one section are never limited") }
            let max = limits.max[t], min = limits.min[s]
            guard max != nil || min != nil else { return .notApplicable("limits neither \(c.sectionName(s)) nor \(c.sectionName(t))") }
            var problems: [Reason] = [], fine: [Reason] = []
            if let max {
                let after = c.count(t) + 1
                if after > max {
                    problems.append("moving \(c.row) to \(c.to) would put \(Reason.plural(after, "row")) in \(c.sectionName(t)), more than its max of \(max)\(attributeNote(rule.max))")
                } else {
                    fine.append("\(c.sectionName(t)) would hold \(after) of at most \(max)\(attributeNote(rule.max))")
                }
            }
            if let min {
                let after = c.count(s) - 1
                if after < min {
                    problems.append("moving \(c.row) to \(c.to) would leave \(Reason.plural(after, "row")) in \(c.sectionName(s)), fewer than its min of \(min)\(attributeNote(rule.min))")
                } else {
                    fine.append("\(c.sectionName(s)) would keep \(after) of at least \(min)\(attributeNote(rule.min))")
                }
            }
            return .applies(Reason.joined(problems.isEmpty ? fine : problems))
        }

        func word(_ c: BlockCheck) -> Reason {
            guard let limits = c.effects.limits else { return "" }
            if let max = limits.max[c.t], c.count(c.t) + c.m > max {
                return "moving \(c.label) to \(c.to) would put \(Reason.plural(c.count(c.t) + c.m, "row")) in \(c.sectionName(c.t)), more than its max of \(max)\(attributeNote(rule.max))"
            }
            if let min = limits.min[c.s] {
                return "moving \(c.label) out of \(c.sectionName(c.s)) would leave \(Reason.plural(c.count(c.s) - c.m, "row")), fewer than its min of \(min)\(attributeNote(rule.min))"
            }
            return ""
        }
    }
}
