/// One-line (flow) YAML for rule arguments and selectors: what ``RowRuleKind/argumentYAML``
/// returns, reading back to an equal value (the round-trip tests check it).
package enum FlowYAML {
    /// A string as a plain scalar when that reads back as the same text, else double-quoted.
    package static func scalar(_ s: String) -> String {
        let plain = !s.isEmpty
            && s.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == " " || $0 == "." }
            && !s.hasPrefix(" ") && !s.hasSuffix(" ") && !s.hasPrefix("-") && !s.hasPrefix(".")
            && !s.contains(where: { $0.isNewline })
            && !isIntegerShaped(s) && !reserved.contains(s.lowercased())
        guard !plain else { return s }
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Words YAML (or this language) reads as something other than a string.
    private static let reserved: Set<String> = ["all", "true", "false", "null", "yes", "no", "on", "off", "~", "nan", "inf"]

    /// `-?[0-9]+`.
    package static func isIntegerShaped(_ text: String) -> Bool {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    /// A list of strings: `[a, "b c"]`; one string alone is written as a scalar (it reads
    /// back as a one-item list).
    package static func list(_ items: [String]) -> String {
        items.count == 1 ? scalar(items[0]) : "[" + items.map(scalar).joined(separator: ", ") + "]"
    }

    /// A list of integers: `[0, -1]`, or one alone.
    package static func integers(_ items: [Int]) -> String {
        items.count == 1 ? String(items[0]) : "[" + items.map(String.init).joined(separator: ", ") + "]"
    }

    /// A mapping from already-written values: `{ a: 1, b: x }`, or `{}`.
    package static func mapping(_ entries: [(String, String)]) -> String {
        entries.isEmpty ? "{}" : "{ " + entries.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + " }"
    }
}

extension SectionSelector {
    /// The selector as flow YAML (`all`, `[0, Inbox]`, `{ kind: bucket }`). A list holding the
    /// id `all` is written as the keyword `all`, which is what the language reads it as (SPEC §7).
    package var flowYAML: String {
        switch self {
        case .all: return "all"
        case .some(let refs):
            // A list holding the keyword selects every section (SPEC §7).
            if refs.contains(.id("all")) { return "all" }
            if refs.count == 1, case .matching(let filter) = refs[0] { return filter.flowYAML }
            return "[" + refs.map { ref in
                switch ref {
                case .index(let i): String(i)
                case .id(let id): FlowYAML.scalar(id)
                case .matching(let filter): filter.flowYAML
                }
            }.joined(separator: ", ") + "]"
        }
    }
}

extension SectionFilter {
    /// The mapping form as flow YAML, keys in registry order (SPEC §8.2's).
    package var flowYAML: String {
        FlowYAML.mapping(keys.map { (type(of: $0).keyword, $0.valueYAML) })
    }
}

extension RowSelector {
    /// The selector's keys as flow YAML entries, in registry order (SPEC §2.1's, `not` last).
    package var flowEntries: [(String, String)] {
        keys.map { (type(of: $0).keyword, $0.valueYAML) }
    }

    /// The selector as flow YAML: a list (`[{ kind: a }, all]`), `all` when it has no keys,
    /// else a mapping.
    package var flowYAML: String {
        if let alternatives { return "[" + alternatives.map(\.flowYAML).joined(separator: ", ") + "]" }
        let entries = flowEntries
        return entries.isEmpty ? "all" : FlowYAML.mapping(entries)
    }

    /// Checks what a selector built in code may get wrong (the loader reports the same with locations).
    func validate() throws(PolicyError) {
        switch form {
        case .list(let items): for item in items { try item.validate() }
        case .mapping(let keys): for key in keys { try key.validate() }
        }
    }
}
