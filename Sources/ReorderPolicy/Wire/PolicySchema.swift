/// The JSON Schema (2020-12) of policy files, for editors (`reorder-policy schema`).
///
/// It describes the shape only; the loader's diagnostics remain the authority on meaning
/// (ids unique across lists, `first`/`last`/`index` exclusive, and so on).
public enum PolicySchema {
    /// The row-rule item: `id`, `message` and exactly one rule kind, each kind's argument
    /// schema taken from the registry of rule kinds.
    static var rowRule: String {
        ruleItem(RuleRegistry.rowKinds.map { ($0.keyword, $0.argumentSchema) })
    }

    /// The section-rule item, the same way from the registry of section-rule kinds.
    static var sectionRule: String {
        ruleItem(SectionRuleRegistry.kinds.map { ($0.keyword, $0.argumentSchema) })
    }

    /// A rule item: `id`, `message` and exactly one of `kinds`, each with its argument's schema.
    private static func ruleItem(_ kinds: [(keyword: String, schema: String)]) -> String {
        let oneOf = kinds.map { #"{ "required": ["\#($0.keyword)"] }"# }.joined(separator: ", ")
        let properties = kinds.map { kind in
            let schema = kind.schema.split(separator: "\n").map { $0.drop(while: { $0 == " " }) }.joined(separator: " ")
            return #"        "\#(kind.keyword)": \#(schema)"#
        }.joined(separator: ",\n")
        return #"""
        {
              "type": "object",
              "minProperties": 1,
              "oneOf": [ \#(oneOf) ],
              "additionalProperties": false,
              "properties": {
                "id": { "$ref": "#/$defs/value", "minLength": 1 },
                "message": { "$ref": "#/$defs/text" },
        \#(properties)
              }
            }
        """#
    }

    /// A table section's fields besides its rows, from the registry of section fields.
    static var sectionFields: String {
        SectionFields.all.map { #""\#($0.key)": \#($0.schema)"# }.joined(separator: ",\n                          ")
    }

    /// The keys of a row selector's mapping, each with its value's schema, from the registry of selector keys.
    static var selectorKeys: String {
        RowSelectorRegistry.keys.map { #""\#($0.keyword)": \#($0.valueSchema)"# }.joined(separator: ", ")
    }

    /// The keys of a section selector's mapping, each with its value's schema, from the registry of section keys.
    static var sectionFilterKeys: String {
        SectionFilterRegistry.keys.map { #""\#($0.keyword)": \#($0.valueSchema)"# }.joined(separator: ", ")
    }

    /// Keys of one exclusive group (`first`, `last`, `index`) never together: no pair of them is present.
    static var exclusiveKeys: String {
        let keys = RowSelectorRegistry.keys
        var pairs: [String] = []
        for (i, a) in keys.enumerated() {
            guard let group = a.exclusiveGroup else { continue }
            for b in keys[(i + 1)...] where b.exclusiveGroup == group {
                pairs.append(#"{ "required": ["\#(a.keyword)", "\#(b.keyword)"] }"#)
            }
        }
        return #"{ "not": { "anyOf": [ \#(pairs.joined(separator: ", ")) ] } }"#
    }

    /// The definitions every document shares (policy, table and moves files).
    static var definitions: String {
        #"""
    "count": { "type": "integer", "minimum": 1 },
    "nonNegative": { "type": "integer", "minimum": 0 },
    "anchor": { "enum": ["start", "end"] },
    "sectionRef": { "oneOf": [ { "$ref": "#/$defs/value" }, { "$ref": "#/$defs/sectionFilter" } ] },
    "sectionFilter": {
      "description": "Sections matching every key present; {} matches every section.",
      "type": "object", "additionalProperties": false,
      "properties": { \#(sectionFilterKeys) }
    },
    "sectionSelector": {
      "description": "A section index (negative from the end), a section id, 'all', a mapping (index, id, kind, tag, not), or a list of them.",
      "oneOf": [
        { "$ref": "#/$defs/sectionRef" },
        { "type": "array", "items": { "$ref": "#/$defs/sectionRef" } }
      ]
    },
    "capacityBound": {
      "description": "A count, or the name of each section's own attribute.",
      "oneOf": [
        { "$ref": "#/$defs/nonNegative" },
        { "type": "object", "additionalProperties": false, "required": ["attribute"],
          "properties": { "attribute": { "$ref": "#/$defs/text", "minLength": 1 } } }
      ]
    },
    "text": { "type": ["string", "number", "boolean", "null"],
      "description": "Any scalar: the loader reads it as written (2 is the text '2'). An empty value is refused, which a schema cannot tell from null." },
    "value": { "type": ["string", "number", "boolean"],
      "description": "Any scalar but an empty one: the loader reads it as written (2 is the text '2') and refuses an empty value, which YAML readers give as null (so the word null, text to the loader, is refused here too)." },
    "strings": { "oneOf": [ { "$ref": "#/$defs/value" }, { "type": "array", "items": { "$ref": "#/$defs/value" } } ] },
    "positional": \#(exclusiveKeys),
    "rowSelector": {
      "description": "'all', a mapping whose keys must all match (and whose 'not' must not), or a list of selectors (their union).",
      "oneOf": [
        { "const": "all" },
        { "type": "object", "additionalProperties": false, "allOf": [ { "$ref": "#/$defs/positional" } ],
          "properties": { \#(selectorKeys) } },
        { "type": "array", "items": { "$ref": "#/$defs/rowSelector" } }
      ]
    },
    "pinSelector": {
      "oneOf": [
        { "const": "all" },
        { "type": "object", "additionalProperties": false, "allOf": [ { "$ref": "#/$defs/positional" } ],
          "properties": { \#(selectorKeys), "anchor": { "$ref": "#/$defs/anchor" } } },
        { "type": "array", "items": { "$ref": "#/$defs/rowSelector" } }
      ]
    },
    "rowRule": \#(rowRule),
    "sectionRule": \#(sectionRule),
    "position": { "type": "array", "prefixItems": [ { "type": "integer" }, { "type": "integer" } ], "minItems": 2, "maxItems": 2 },
    "row": {
      "oneOf": [
        { "$ref": "#/$defs/text" },
        { "type": "object", "additionalProperties": false, "required": ["id"],
          "properties": { "id": { "$ref": "#/$defs/text" }, "kind": { "$ref": "#/$defs/text" },
                          "tags": { "type": "array", "items": { "$ref": "#/$defs/text" } } } }
      ]
    },
    "table": {
      "type": "object", "additionalProperties": false, "required": ["sections"],
      "properties": {
        "sections": { "type": "array", "items": {
          "type": "object", "additionalProperties": false, "required": ["rows"],
          "properties": { \#(sectionFields),
                          "rows": { "type": "array", "items": { "$ref": "#/$defs/row" } } }
        } }
      }
    },
    "decision": { "enum": ["allowed", "retargeted", "rejected", "denied", "invalid"] },
    "test": {
      "type": "object", "additionalProperties": false, "required": ["name", "table", "expect"],
      "oneOf": [
        { "required": ["move"], "properties": { "expect": { "$ref": "#/$defs/expectation", "properties": { "target": { "$ref": "#/$defs/position" } } } } },
        { "required": ["section-move"], "properties": { "expect": { "$ref": "#/$defs/expectation", "properties": { "target": { "type": "integer" } } } } }
      ],
      "properties": {
        "name": { "$ref": "#/$defs/text" },
        "table": { "oneOf": [ { "type": "string", "description": "A path relative to the policy file." }, { "$ref": "#/$defs/table" } ] },
        "move": { "type": "object", "additionalProperties": false, "required": ["from", "to"],
                  "properties": { "from": { "$ref": "#/$defs/position" }, "to": { "$ref": "#/$defs/position" } } },
        "section-move": { "type": "object", "additionalProperties": false, "required": ["from", "to"],
                          "properties": { "from": { "type": "integer" }, "to": { "type": "integer" } } },
        "expect": { "description": "A decision, or a mapping with the decision, the target ([section, row] for a move, an index for a section move) and the rules." }
      }
    },
    "expectation": {
      "oneOf": [
        { "$ref": "#/$defs/decision" },
        { "type": "object", "additionalProperties": false, "required": ["decision"],
          "properties": { "decision": { "$ref": "#/$defs/decision" }, "target": true,
                          "rules": { "type": "array", "items": { "$ref": "#/$defs/text" } } } }
      ]
    },
    "move": {
      "description": "One move: a row move, a section move, or SwiftUI's offsets form.",
      "oneOf": [
        { "type": "object", "additionalProperties": false, "required": ["from", "to"],
          "properties": { "from": { "$ref": "#/$defs/position" }, "to": { "$ref": "#/$defs/position" } } },
        { "type": "object", "additionalProperties": false, "required": ["section-from", "section-to"],
          "properties": { "section-from": { "type": "integer" }, "section-to": { "type": "integer" } } },
        { "type": "object", "additionalProperties": false, "required": ["from-offsets", "to-offset", "section"],
          "properties": { "from-offsets": { "type": "array", "minItems": 1, "items": { "type": "integer" } },
                          "to-offset": { "type": "integer" }, "section": { "type": "integer" } } }
      ]
    }
"""#
    }

    /// The shared definitions with their references rooted at `prefix` instead of
    /// `#/$defs/`: the server's OpenAPI document puts them under `#/components/schemas/`, so a
    /// table, a move and a position are described once, for files and requests alike.
    package static func definitions(at prefix: String) -> String {
        definitions.replacing("\"#/$defs/", with: "\"" + prefix)
    }

    /// A whole schema document: `root` (the top-level keywords) and the shared definitions.
    static func document(id: String, title: String, description: String, root: String) -> String {
        #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://reorder-policy.invalid/schema/\#(id)-v1.json",
  "title": "\#(title)",
  "description": "\#(description)",
\#(root),
  "$defs": {
\#(definitions)
  }
}
"""#
    }

    /// The schema of policy files, as pretty-printed JSON.
    public static let json = document(
        id: "policy", title: "reorder-policy v1 policy file", description: "Declarative drag-and-drop reordering rules for sectioned lists.",
        root: #"""
  "type": "object",
  "required": ["reorder-policy", "name", "rules"],
  "additionalProperties": false,
  "properties": {
    "reorder-policy": { "const": 1, "description": "The language version; always 1." },
    "name": { "$ref": "#/$defs/value", "minLength": 1, "description": "The policy's name." },
    "description": { "$ref": "#/$defs/value" },
    "retarget": { "enum": ["nearest", "cancel", "source-section"], "default": "nearest",
      "description": "What happens to an invalid proposal: the nearest valid slot, back to the source, or the nearest valid row of the source section to the proposed row." },
    "rules": { "type": "array", "items": { "$ref": "#/$defs/rowRule" } },
    "section-rules": { "type": "array", "items": { "$ref": "#/$defs/sectionRule" } },
    "tests": { "type": "array", "items": { "$ref": "#/$defs/test" } }
  }
"""#)

    /// The schema of table files (SPEC §3, §8.2).
    public static let table = document(
        id: "table", title: "reorder-policy v1 table file", description: "A sectioned list: sections with their rows (and kinds, tags, attributes).",
        root: ##"  "$ref": "#/$defs/table""##)

    /// The schema of moves files (`check --moves`): a list of moves.
    public static let moves = document(
        id: "moves", title: "reorder-policy v1 moves file",
        description: "Moves to decide. An item of another shape is reported as an invalid result, not a file error.",
        root: ##"  "type": "array", "items": { "$ref": "#/$defs/move" }"##)
}
