import SpannedYAML
/// The JSON Schemas (2020-12) of what the CLI and the server write: `check` and `explain`
/// results, `lint` and `test` reports, and diagnostics. Described once, here:
/// docs/schemas/*.json are these documents (`reorder-policy schema --output NAME`;
/// `OutputSchemaFilesTests` keeps the files equal), and the server's OpenAPI document takes its
/// result and diagnostic components from `definitions(at:)`.
public enum OutputSchemas {
    /// The documents, by the name `schema --output` takes and docs/schemas/NAME.json has.
    public enum Document: String, CaseIterable, Sendable {
        case check, diagnostic, lint, test

        /// The document's text (pretty-printed JSON, a line break at the end).
        public var json: String {
            switch self {
            case .check:
                OutputSchemas.document(id: "check", title: "check --format json and explain --format json (format 1)", root: "check-result")
            case .diagnostic:
                OutputSchemas.document(id: "diagnostic", title: "A diagnostic (lint --format json, and the errors of check, explain and test)", root: "diagnostic")
            case .lint:
                OutputSchemas.document(id: "lint", title: "lint --format json (format 1)", root: "lint-report")
            case .test:
                OutputSchemas.document(id: "test", title: "test --format json (format 1)", root: "test-report")
            }
        }
    }

    /// A document: its root is one of the definitions, and it carries every definition the
    /// root reaches (its own and the policy schema's, for `position`, say), so it stands alone
    /// and changes only when something it describes does (a new table field leaves it alone).
    static func document(id: String, title: String, root: String) -> String {
        #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://reorder-policy.invalid/schema/output/\#(id)-v1.json",
  "title": "\#(title)",
  "$ref": "#/$defs/\#(root)",
  "$defs": {
\#(reachable(from: root, in: [definitions, PolicySchema.definitions]))
  }
}

"""#
    }

    /// The entries of `texts` (JSON object members, `"name": value`, separated by commas) that
    /// `root` reaches through `"#/$defs/NAME"` references, in their order, joined by commas.
    static func reachable(from root: String, in texts: [String]) -> String {
        let entries = texts.flatMap(members)
        var wanted: Set<String> = [root], queue = [root]
        while let name = queue.popLast() {
            for entry in entries where entry.name == name {
                for reference in entry.references where wanted.insert(reference).inserted { queue.append(reference) }
            }
        }
        return entries.filter { wanted.contains($0.name) }.map(\.text).joined(separator: ",\n")
    }

    /// The top-level members of a JSON object's inside, with the definitions they name.
    private static func members(_ text: String) -> [(name: String, text: String, references: [String])] {
        var pieces: [Substring] = [], depth = 0, inString = false, escaped = false
        var start = text.startIndex
        for i in text.indices {
            let c = text[i]
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                continue
            }
            switch c {
            case "\"": inString = true
            case "{", "[": depth += 1
            case "}", "]": depth -= 1
            case "," where depth == 0:
                pieces.append(text[start..<i])
                start = text.index(after: i)
            default: break
            }
        }
        pieces.append(text[start...])
        return pieces.compactMap { piece in
            let trimmed = piece.drop { $0 == "\n" }.reversed().drop { $0.isWhitespace }.reversed()
            let body = String(trimmed)
            guard let open = body.firstIndex(of: "\""), let close = body[body.index(after: open)...].firstIndex(of: "\"") else { return nil }
            let name = String(body[body.index(after: open)..<close])
            let references = body.ranges(of: "\"#/$defs/").map { r in String(body[r.upperBound...].prefix { $0 != "\"" }) }
            return (name, body, references)
        }
    }

    /// The definitions with their references rooted at `prefix` instead of `#/$defs/` (the
    /// OpenAPI document's `#/components/schemas/`).
    package static func definitions(at prefix: String) -> String {
        definitions.replacing("\"#/$defs/", with: "\"" + prefix)
    }

    /// Every output shape, keyed for `#/$defs/`.
    static let definitions = #"""
    "check-result": {
      "type": "object", "additionalProperties": false,
      "required": ["policy", "results", "summary", "format"],
      "properties": {
        "policy": { "type": ["string", "null"] },
        "results": { "type": "array", "items": { "$ref": "#/$defs/result" } },
        "errors": { "type": "array", "items": { "$ref": "#/$defs/diagnostic" } },
        "summary": {
          "type": "object", "additionalProperties": false,
          "required": ["allowed", "retargeted", "rejected", "denied", "invalid"],
          "properties": { "allowed": { "$ref": "#/$defs/tally" }, "retargeted": { "$ref": "#/$defs/tally" },
                          "rejected": { "$ref": "#/$defs/tally" }, "denied": { "$ref": "#/$defs/tally" },
                          "invalid": { "$ref": "#/$defs/tally" } }
        },
        "format": { "const": 1, "description": "The version of the document's shape (docs/OUTPUT.md)." }
      }
    },
    "tally": { "type": "integer", "minimum": 0 },
    "location": {
      "oneOf": [ { "type": "null" },
                 { "type": "object", "additionalProperties": false, "required": ["file", "line", "column"],
                   "properties": { "file": { "type": "string" }, "line": { "type": "integer" }, "column": { "type": "integer" } } } ]
    },
    "violation": {
      "type": "object", "additionalProperties": false, "required": ["rule", "kind", "message", "location", "reason"],
      "properties": { "rule": { "type": "string" }, "kind": { "type": "string" }, "message": { "type": ["string", "null"] },
                      "location": { "$ref": "#/$defs/location" }, "reason": { "type": "string" } }
    },
    "result": {
      "type": "object", "additionalProperties": false, "required": ["move", "decision"],
      "properties": {
        "move": { "description": "The move as given (also a malformed one)." },
        "decision": { "enum": ["allowed", "retargeted", "rejected", "denied", "invalid"] },
        "target": { "oneOf": [ { "$ref": "#/$defs/position" }, { "type": "integer" } ] },
        "violations": { "type": "array", "items": { "$ref": "#/$defs/violation" } },
        "error": { "type": "string" },
        "valid": {
          "type": "array",
          "items": { "oneOf": [
            { "type": "object", "additionalProperties": false, "required": ["section", "rows"],
              "properties": { "section": { "type": "integer" },
                              "rows": { "type": "array", "items": { "$ref": "#/$defs/position" } } } },
            { "$ref": "#/$defs/position" } ] }
        },
        "trace": {
          "type": "array",
          "items": { "type": "object", "additionalProperties": false, "required": ["rule", "kind", "applies", "verdict"],
                     "properties": { "rule": { "type": "string" }, "kind": { "type": "string" }, "applies": { "type": "boolean" },
                                     "verdict": { "enum": ["pass", "violated", "not-applicable"] },
                                     "reason": { "type": "string" }, "location": { "$ref": "#/$defs/location" } } }
        }
      },
      "if": { "properties": { "decision": { "const": "invalid" } } },
      "then": { "required": ["error"], "not": { "anyOf": [ { "required": ["target"] }, { "required": ["violations"] } ] } },
      "else": { "required": ["target", "violations"] }
    },
    "diagnostic": {
      "type": "object", "additionalProperties": false,
      "required": ["file", "line", "column", "end-line", "end-column", "severity", "code", "message"],
      "properties": {
        "file": { "type": "string" },
        "line": { "type": "integer", "minimum": 1 }, "column": { "type": "integer", "minimum": 1 },
        "end-line": { "type": "integer", "minimum": 1 }, "end-column": { "type": "integer", "minimum": 1 },
        "severity": { "enum": ["error", "warning"] },
        "code": { "enum": [\#(DiagnosticCode.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))] },
        "message": { "type": "string" },
        "help": { "type": "string" },
        "counterexample": {
          "description": "lint's analysis (SPEC §10): a table (as a table file), a move (as a moves-file item), the decision check gives for it, and the ids of the rules the finding is about that are among that decision's violations",
          "type": "object", "additionalProperties": false, "required": ["table", "move", "decision", "rules"],
          "properties": {
            "table": { "type": "object", "required": ["sections"] },
            "move": { "type": "object" },
            "decision": { "enum": ["allowed", "retargeted", "rejected", "denied"] },
            "rules": { "type": "array", "items": { "type": "string" } }
          }
        },
        "claim": {
          "description": "what an analysis finding states (SPEC §10.1): the property, whether it speaks of every table, the ids of the rules it is about; a frozen claim adds its sections, places and minimum section size",
          "type": "object", "additionalProperties": false, "required": ["property", "every-table", "rules"],
          "properties": {
            "property": { "enum": ["selects-nothing", "dead", "admits-nothing", "frozen", "contradictory", "conflicting-anchors", "lock-displaced"] },
            "every-table": { "type": "boolean" },
            "rules": { "type": "array", "items": { "type": "string" } },
            "sections": { "type": ["string", "null"] },
            "section-selector": { "type": ["string", "null"] },
            "from-start": { "type": "array", "items": { "type": "integer", "minimum": 0 } },
            "from-end": { "type": "array", "items": { "type": "integer", "minimum": 0 } },
            "middle": { "type": ["integer", "null"], "minimum": 0 },
            "min-rows": { "type": "integer", "minimum": 1 }
          }
        }
      }
    },
    "lint-report": {
      "type": "object", "additionalProperties": false,
      "required": ["diagnostics", "summary", "format"],
      "properties": {
        "diagnostics": { "type": "array", "items": { "$ref": "#/$defs/diagnostic" } },
        "suppressed": {
          "description": "Analysis warnings acknowledged by waiver comments (present only when there are some); not counted in summary",
          "type": "array",
          "items": {
            "type": "object", "additionalProperties": false, "required": ["justification", "diagnostic"],
            "properties": { "justification": { "type": "string" }, "diagnostic": { "$ref": "#/$defs/diagnostic" } }
          }
        },
        "summary": {
          "type": "object", "additionalProperties": false, "required": ["files", "errors", "warnings"],
          "properties": { "files": { "type": "integer", "minimum": 0 }, "errors": { "type": "integer", "minimum": 0 },
                          "warnings": { "type": "integer", "minimum": 0 } }
        },
        "format": { "const": 1 }
      }
    },
    "test-report": {
      "type": "object", "additionalProperties": false,
      "required": ["files", "diagnostics", "summary", "format"],
      "properties": {
        "files": {
          "type": "array",
          "items": {
            "type": "object", "additionalProperties": false, "required": ["file", "policy", "errors", "tests"],
            "properties": {
              "file": { "type": "string" },
              "policy": { "type": ["string", "null"] },
              "errors": { "type": "array", "items": { "$ref": "#/$defs/diagnostic" } },
              "tests": {
                "type": "array",
                "items": {
                  "type": "object", "additionalProperties": false,
                  "required": ["name", "location", "status", "expected", "actual", "mismatches", "errors"],
                  "properties": {
                    "name": { "type": "string" },
                    "location": { "type": "object", "required": ["file", "line", "column"] },
                    "status": { "enum": ["pass", "fail", "error"] },
                    "expected": { "type": "object", "required": ["decision"] },
                    "actual": { "oneOf": [ { "type": "null" }, { "$ref": "#/$defs/result" } ] },
                    "mismatches": { "type": "array", "items": { "type": "string" } },
                    "errors": { "type": "array", "items": { "$ref": "#/$defs/diagnostic" } }
                  }
                }
              }
            }
          }
        },
        "diagnostics": { "description": "Paths that could not be read (exit status 2).", "type": "array", "items": { "$ref": "#/$defs/diagnostic" } },
        "summary": {
          "type": "object", "additionalProperties": false, "required": ["files", "tests", "passed", "failed"],
          "properties": { "files": { "type": "integer", "minimum": 0 }, "tests": { "type": "integer", "minimum": 0 },
                          "passed": { "type": "integer", "minimum": 0 }, "failed": { "type": "integer", "minimum": 0 } }
        },
        "format": { "const": 1 }
      }
    }
"""#
}
