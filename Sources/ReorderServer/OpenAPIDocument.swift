#if Server  // the server is built with the `Server` trait only (Package.swift)
import ReorderPolicy

/// The OpenAPI 3.1 description of the server, served at `/openapi.json`. Checked against the
/// running server by ServerTests and validated with openapi-spec-validator in CI.
///
/// Tables, moves and positions are not described here: `components/schemas` starts with the
/// definitions of the policy, table and moves file schemas (`PolicySchema`, `reorder-policy
/// schema`), so a request's table is the schema a table file has, written once.
enum OpenAPIDocument {
    static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "reorder-policy-server",
    "version": "1",
    "summary": "Decides drag-and-drop reorder moves against reorder policies.",
    "description": "Answers are the JSON that `reorder-policy check --format json` and `explain --format json` print for the same policy, table and moves. Policies are addressed by their `name` and reloaded when their files change.",
    "license": { "name": "Apache-2.0", "identifier": "Apache-2.0" }
  },
  "servers": [ { "url": "http://127.0.0.1:8181" } ],
  "paths": {
    "/health": {
      "get": {
        "operationId": "health",
        "summary": "Whether every policy file loads.",
        "responses": {
          "200": { "description": "`ok`, or `degraded` while a changed file fails to load (the previous version stays served).",
                   "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Health" } } } }
        }
      }
    },
    "/v1/policies": {
      "get": {
        "operationId": "listPolicies",
        "summary": "The served policies.",
        "responses": {
          "200": { "description": "Policies sorted by name.",
                   "content": { "application/json": { "schema": { "$ref": "#/components/schemas/PolicyList" } } } }
        }
      }
    },
    "/v1/policies/{name}/check": {
      "post": {
        "operationId": "check",
        "summary": "Decide moves on a table.",
        "parameters": [ { "$ref": "#/components/parameters/PolicyName" } ],
        "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/CheckRequest" } } } },
        "responses": {
          "200": { "description": "The JSON of `check --format json`. A move that does not fit the table is an `invalid` result, not an HTTP error.",
                   "content": { "application/json": { "schema": { "$ref": "#/components/schemas/check-result" } } } },
          "400": { "$ref": "#/components/responses/Error" },
          "404": { "$ref": "#/components/responses/Error" },
          "405": { "$ref": "#/components/responses/Error" },
          "413": { "$ref": "#/components/responses/Error" }
        }
      }
    },
    "/v1/policies/{name}/explain": {
      "post": {
        "operationId": "explain",
        "summary": "Decide one move with every rule's verdict and the valid destinations.",
        "parameters": [ { "$ref": "#/components/parameters/PolicyName" } ],
        "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/ExplainRequest" } } } },
        "responses": {
          "200": { "description": "The JSON of `explain --format json`.",
                   "content": { "application/json": { "schema": { "$ref": "#/components/schemas/check-result" } } } },
          "400": { "$ref": "#/components/responses/Error" },
          "404": { "$ref": "#/components/responses/Error" },
          "405": { "$ref": "#/components/responses/Error" },
          "413": { "$ref": "#/components/responses/Error" }
        }
      }
    },
    "/v1/policies/{name}/destinations": {
      "post": {
        "operationId": "destinations",
        "summary": "Where a row (or section) may be dropped: what a page asks once at drag start, to decide every hover without a request.",
        "parameters": [ { "$ref": "#/components/parameters/PolicyName" } ],
        "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/DestinationsRequest" } } } },
        "responses": {
          "200": { "description": "`valid` is exactly the `valid` of `explain --format json` for a move from the source to itself; empty, with `can-move` false, when the row or section cannot be picked up.",
                   "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Destinations" } } } },
          "400": { "$ref": "#/components/responses/Error" },
          "404": { "$ref": "#/components/responses/Error" },
          "405": { "$ref": "#/components/responses/Error" },
          "413": { "$ref": "#/components/responses/Error" }
        }
      }
    },
    "/v1/tables/{sha256}": {
      "put": {
        "operationId": "storeTable",
        "summary": "Store a table once; later requests name it with `table-ref` instead of sending it (docs/SERVER.md, \"Stored tables\").",
        "description": "The body is a table (SPEC §3, as JSON) and the path its SHA-256, as lowercase hex, of exactly the bytes sent. Memory is bounded by `--table-memory`; the least recently used tables are evicted first, and a request naming an evicted table gets 404 `unknown-table`.",
        "parameters": [ { "$ref": "#/components/parameters/TableReference" } ],
        "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/table" } } } },
        "responses": {
          "200": { "description": "Already stored.", "headers": { "ETag": { "$ref": "#/components/headers/TableETag" } },
                   "content": { "application/json": { "schema": { "$ref": "#/components/schemas/StoredTable" } } } },
          "201": { "description": "Stored.", "headers": { "ETag": { "$ref": "#/components/headers/TableETag" } },
                   "content": { "application/json": { "schema": { "$ref": "#/components/schemas/StoredTable" } } } },
          "400": { "$ref": "#/components/responses/Error" },
          "404": { "$ref": "#/components/responses/Error" },
          "405": { "$ref": "#/components/responses/Error" },
          "413": { "$ref": "#/components/responses/Error" }
        }
      },
      "get": {
        "operationId": "storedTable",
        "summary": "Whether a table is still stored.",
        "parameters": [ { "$ref": "#/components/parameters/TableReference" } ],
        "responses": {
          "200": { "description": "Stored.", "headers": { "ETag": { "$ref": "#/components/headers/TableETag" } },
                   "content": { "application/json": { "schema": { "$ref": "#/components/schemas/StoredTable" } } } },
          "404": { "$ref": "#/components/responses/Error" },
          "405": { "$ref": "#/components/responses/Error" }
        }
      }
    },
    "/client.js": {
      "get": {
        "operationId": "client",
        "summary": "The dependency-free browser client (ReorderClient) with its SortableJS and HTML5 drag-and-drop adapters.",
        "responses": { "200": { "description": "JavaScript.", "content": { "text/javascript": { "schema": { "type": "string" } } } } }
      }
    },
    "/metrics": {
      "get": {
        "operationId": "metrics",
        "summary": "Prometheus text: requests by route and status, latency histograms, decisions by word, reloads and failures.",
        "responses": { "200": { "description": "Prometheus text exposition format 0.0.4.", "content": { "text/plain": { "schema": { "type": "string" } } } } }
      }
    },
    "/openapi.json": {
      "get": {
        "operationId": "openapi",
        "summary": "This document.",
        "responses": { "200": { "description": "OpenAPI 3.1.", "content": { "application/json": { "schema": { "type": "object" } } } } }
      }
    }
  },
  "components": {
    "parameters": {
      "PolicyName": { "name": "name", "in": "path", "required": true, "description": "The policy's `name` (percent-encoded).", "schema": { "type": "string" } },
      "TableReference": { "name": "sha256", "in": "path", "required": true, "description": "The SHA-256 of the table's bytes, as 64 lowercase hex digits.",
                          "schema": { "$ref": "#/components/schemas/TableReference" } }
    },
    "headers": {
      "TableETag": { "description": "The table's reference, quoted.", "schema": { "type": "string" } }
    },
    "responses": {
      "Error": {
        "description": "`bad-request` (400), `unknown-policy`, `unknown-table` or `not-found` (404), `method-not-allowed` (405), `too-large` (413).",
        "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
      }
    },
    "schemas": {
\#(PolicySchema.definitions(at: "#/components/schemas/")),
      "Error": {
        "type": "object", "required": ["error"], "additionalProperties": false,
        "properties": {
          "error": {
            "type": "object", "required": ["code", "message"], "additionalProperties": false,
            "properties": {
              "code": { "enum": ["bad-request", "unknown-policy", "unknown-table", "not-found", "method-not-allowed", "too-large"] },
              "message": { "type": "string" }
            }
          }
        }
      },
      "Health": {
        "type": "object", "required": ["status", "policies"], "additionalProperties": false,
        "properties": {
          "status": { "enum": ["ok", "degraded"] },
          "policies": { "type": "integer", "minimum": 0 },
          "errors": { "type": "array", "items": { "$ref": "#/components/schemas/diagnostic" } }
        }
      },
      "PolicyList": {
        "type": "object", "required": ["policies"], "additionalProperties": false,
        "properties": {
          "policies": {
            "type": "array",
            "items": {
              "type": "object", "required": ["name", "file", "hash"], "additionalProperties": false,
              "properties": { "name": { "type": "string" }, "file": { "type": "string" }, "hash": { "type": "string", "pattern": "^fnv1a64:[0-9a-f]{16}$" } }
            }
          }
        }
      },
      "TableReference": { "type": "string", "pattern": "^[0-9a-f]{64}$", "description": "A stored table's SHA-256 (PUT /v1/tables/{sha256})." },
      "StoredTable": {
        "type": "object", "required": ["table-ref", "sections", "rows"], "additionalProperties": false,
        "properties": { "table-ref": { "$ref": "#/components/schemas/TableReference" },
                        "sections": { "type": "integer", "minimum": 0 }, "rows": { "type": "integer", "minimum": 0 } }
      },
      "CheckRequest": {
        "type": "object", "required": ["moves"], "additionalProperties": false,
        "description": "The table is sent as `table`, or named as `table-ref` once stored.",
        "properties": {
          "table": { "$ref": "#/components/schemas/table" },
          "table-ref": { "$ref": "#/components/schemas/TableReference" },
          "moves": { "type": "array", "description": "Moves items; a malformed item is answered as an `invalid` result.", "items": {} }
        },
        "oneOf": [ { "required": ["table"] }, { "required": ["table-ref"] } ]
      },
      "ExplainRequest": {
        "type": "object", "required": ["move"], "additionalProperties": false,
        "properties": { "table": { "$ref": "#/components/schemas/table" }, "table-ref": { "$ref": "#/components/schemas/TableReference" },
                        "move": { "$ref": "#/components/schemas/move" } },
        "oneOf": [ { "required": ["table"] }, { "required": ["table-ref"] } ]
      },
      "DestinationsRequest": {
        "type": "object", "additionalProperties": false,
        "properties": { "table": { "$ref": "#/components/schemas/table" },
                        "table-ref": { "$ref": "#/components/schemas/TableReference" },
                        "from": { "$ref": "#/components/schemas/position" },
                        "section-from": { "type": "integer" } },
        "allOf": [ { "oneOf": [ { "required": ["table"] }, { "required": ["table-ref"] } ] },
                   { "oneOf": [ { "required": ["from"] }, { "required": ["section-from"] } ] } ]
      },
      "Destinations": {
        "type": "object", "required": ["policy", "can-move", "valid"], "additionalProperties": false,
        "properties": {
          "policy": { "type": "string" },
          "from": { "$ref": "#/components/schemas/position" },
          "section-from": { "type": "integer" },
          "can-move": { "type": "boolean" },
          "valid": { "type": "array", "description": "Row sources: [{section, rows: [[j0, j1], ...]}] (inclusive ranges, rows counted after the removal); section sources: [[b0, b1], ...]." }
        }
      },
\#(OutputSchemas.definitions(at: "#/components/schemas/"))
    }
  }
}
"""#
}
#endif
