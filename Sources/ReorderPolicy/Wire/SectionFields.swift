import SpannedYAML

/// A section's fields besides its rows, each described once for everything that reads or
/// writes tables: the table decoder (table files and request bodies), the one-line YAML and
/// the JSON writers (`TableText`), and the JSON Schema (`PolicySchema`, which the OpenAPI
/// document reads). Adding a field to the wire is its property on ``Section`` and one type
/// here, listed in ``SectionFields/all`` (ARCHITECTURE.md, "How to add").
protocol SectionField: Sendable {
    /// The key in a section's mapping.
    static var key: String { get }
    /// The JSON Schema (2020-12) of the value; `#/$defs/...` may name `PolicySchema`'s definitions.
    static var schema: String { get }
    /// Reads the value into `section`, reporting problems through `d`.
    static func decode<Node: DocumentNode>(_ node: Node, _ d: inout NodeDecoder, into section: inout Section)
    /// Whether `section` has a value to write (an absent or empty one is left out).
    static func isPresent(_ section: Section) -> Bool
    /// The value as flow YAML.
    static func flowYAML(_ section: Section) -> String
    /// The value as JSON.
    static func json(_ section: Section, into w: inout JSONWriter)
}

/// The registry of section fields, in the order they are written.
enum SectionFields {
    static let all: [any SectionField.Type] = [
        SectionIDField.self,
        SectionKindField.self,
        SectionTagsField.self,
        SectionAttributesField.self,
    ]

    /// Every key a section's mapping may hold: the fields, then `rows`.
    static let keys = all.map { $0.key } + ["rows"]

    /// `null`, `~` or an empty plain value: a field that counts as absent (SPEC §8.5).
    static func isNull(_ node: some DocumentNode) -> Bool {
        guard node.scalarStyle == .plain, let text = node.scalar else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// A list of strings (`tags`), reported as `what` when it is not one.
    static func strings(_ node: some DocumentNode, _ d: inout NodeDecoder, _ what: String) -> [String] {
        guard let items = node.sequence else {
            d.mismatch(node, expected: "a list of strings for '\(what)'")
            return []
        }
        return items.compactMap { d.text($0, expected: "a string in '\(what)'") }
    }

    /// `[a, b]` as flow YAML.
    static func flowList(_ items: [String]) -> String { "[\(items.map(FlowYAML.scalar).joined(separator: ", "))]" }

    /// `["a", "b"]` as JSON.
    static func json(_ items: [String], into w: inout JSONWriter) {
        w.raw("[")
        for (n, s) in items.enumerated() {
            if n > 0 { w.raw(", ") }
            w.string(s)
        }
        w.raw("]")
    }
}

/// `id`: a string; sections sharing one (or having none) are told apart by position.
enum SectionIDField: SectionField {
    static let key = "id"
    static let schema = ##"{ "$ref": "#/$defs/text" }"##

    static func decode<Node: DocumentNode>(_ node: Node, _ d: inout NodeDecoder, into section: inout Section) {
        section.id = d.text(node, expected: "a string for the section's 'id'")
    }

    static func isPresent(_ section: Section) -> Bool { section.id != nil }
    static func flowYAML(_ section: Section) -> String { section.id.map(FlowYAML.scalar) ?? "" }
    static func json(_ section: Section, into w: inout JSONWriter) { w.string(section.id ?? "") }
}

/// `kind`: a string, or `null` for none (SPEC §8.2, §8.5).
enum SectionKindField: SectionField {
    static let key = "kind"
    static let schema = ##"{ "$ref": "#/$defs/text" }"##

    static func decode<Node: DocumentNode>(_ node: Node, _ d: inout NodeDecoder, into section: inout Section) {
        guard !SectionFields.isNull(node) else { return }
        section.kind = d.text(node, expected: "a string for the section's 'kind'")
    }

    static func isPresent(_ section: Section) -> Bool { section.kind != nil }
    static func flowYAML(_ section: Section) -> String { section.kind.map(FlowYAML.scalar) ?? "" }
    static func json(_ section: Section, into w: inout JSONWriter) { w.string(section.kind ?? "") }
}

/// `tags`: a list of strings, or `null` for none (SPEC §8.2, §8.5).
enum SectionTagsField: SectionField {
    static let key = "tags"
    static let schema = ##"{ "oneOf": [ { "type": "null" }, { "type": "array", "items": { "$ref": "#/$defs/text" } } ] }"##

    static func decode<Node: DocumentNode>(_ node: Node, _ d: inout NodeDecoder, into section: inout Section) {
        guard !SectionFields.isNull(node) else { return }
        section.tags = SectionFields.strings(node, &d, "tags")
    }

    static func isPresent(_ section: Section) -> Bool { !section.tags.isEmpty }
    static func flowYAML(_ section: Section) -> String { SectionFields.flowList(section.tags) }
    static func json(_ section: Section, into w: inout JSONWriter) { SectionFields.json(section.tags, into: &w) }
}

/// `attributes`: names to plain integers >= 0 (SPEC §8.2).
enum SectionAttributesField: SectionField {
    static let key = "attributes"
    static let schema = ##"{ "type": "object", "additionalProperties": { "type": "integer", "minimum": 0 } }"##

    static func decode<Node: DocumentNode>(_ node: Node, _ d: inout NodeDecoder, into section: inout Section) {
        guard let items = node.entries else {
            d.mismatch(node, expected: "a mapping from attribute names to integers for 'attributes'")
            return
        }
        for item in items {
            if let value = attribute(item.value, item.name, &d) { section.attributes[item.name] = value }
        }
    }

    /// A plain integer >= 0; anything else (a quoted number, a negative one, `null`, a word)
    /// is a type mismatch (SPEC §8.2, §8.5).
    private static func attribute(_ node: some DocumentNode, _ name: String, _ d: inout NodeDecoder) -> Int? {
        if let value = node.plainInteger, value >= 0 { return value }
        let found: String
        if let text = node.scalar, let style = node.scalarStyle {
            found = style.isPlain ? (text.isEmpty ? "an empty value" : "'\(text)'") : "the quoted string '\(text)'"
        } else {
            found = node.typeName
        }
        guard !node.isInvalid else { return nil }
        d.error(.typeMismatch, "expected a plain integer >= 0 for the attribute '\(name)', found \(found)", node,
                help: "attributes are counts such as 'wip: 3'; write the number without quotes or sign")
        return nil
    }

    static func isPresent(_ section: Section) -> Bool { !section.attributes.isEmpty }

    static func flowYAML(_ section: Section) -> String {
        "{ " + section.attributes.sorted { $0.key < $1.key }.map { "\(FlowYAML.scalar($0.key)): \($0.value)" }.joined(separator: ", ") + " }"
    }

    static func json(_ section: Section, into w: inout JSONWriter) {
        w.raw("{")
        for (n, (name, value)) in section.attributes.sorted(by: { $0.key < $1.key }).enumerated() {
            if n > 0 { w.raw(", ") }
            w.string(name)
            w.raw(": ")
            w.int(value)
        }
        w.raw("}")
    }
}
