"""Checks the server's OpenAPI document with its real consumers: openapi-spec-validator on the
document, then jsonschema (Draft 2020-12, as OpenAPI 3.1 uses) on live answers of the server.

usage: validate_openapi.py OPENAPI.json http://127.0.0.1:PORT
"""
import hashlib
import json
import sys
import urllib.error
import urllib.request

from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

spec_path, base = sys.argv[1], sys.argv[2]
with open(spec_path) as f:
    spec = json.load(f)
validate(spec)


def schema(name):
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": spec["components"]})


def call(method, path, body=None):
    data = None if body is None else body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    try:
        with urllib.request.urlopen(request) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


table = {"sections": [{"id": "Backlog", "rows": ["a", {"id": "b", "tags": ["blocked"]}]},
                      {"id": "Doing", "rows": ["c"]}, {"id": "Archive", "rows": ["d"]}]}
table_bytes = json.dumps(table).encode()
reference = hashlib.sha256(table_bytes).hexdigest()
checks = [
    ("GET", "/health", None, 200, "Health"),
    ("GET", "/v1/policies", None, 200, "PolicyList"),
    ("POST", "/v1/policies/board/check", {"table": table, "moves": [
        {"from": [0, 0], "to": [1, 0]}, {"from": [0, 1], "to": [1, 0]}, {"from": [2, 0], "to": [0, 0]},
        {"from": [0, 0], "to": [9, 9]}, {"section-from": 1, "section-to": 0}, {"x": 1},
        {"from-offsets": [0, 1], "to-offset": 0, "section": 1}]}, 200, "check-result"),
    ("POST", "/v1/policies/board/explain", {"table": table, "move": {"from": [0, 1], "to": [1, 0]}}, 200, "check-result"),
    ("POST", "/v1/policies/board/explain", {"table": table, "move": {"section-from": 0, "section-to": 1}}, 200, "check-result"),
    ("POST", "/v1/policies/board/destinations", {"table": table, "from": [0, 1]}, 200, "Destinations"),
    ("POST", "/v1/policies/board/destinations", {"table": table, "section-from": 0}, 200, "Destinations"),
    ("POST", "/v1/policies/board/destinations", {"table": table}, 400, "Error"),
    ("POST", "/v1/policies/board/check", {"table": table}, 400, "Error"),
    ("POST", "/v1/policies/missing/check", {"table": table, "moves": []}, 404, "Error"),
    ("GET", "/v1/policies/board/check", None, 405, "Error"),
    ("CheckRequest", None, {"table": table, "moves": [{"from": [0, 0], "to": [1, 0]}]}, None, "CheckRequest"),
    ("CheckRequest", None, {"table-ref": reference, "moves": [{"from": [0, 0], "to": [1, 0]}]}, None, "CheckRequest"),
    ("PUT", "/v1/tables/" + reference, table_bytes, 201, "StoredTable"),
    ("PUT", "/v1/tables/" + reference, table_bytes, 200, "StoredTable"),
    ("GET", "/v1/tables/" + reference, None, 200, "StoredTable"),
    ("GET", "/v1/tables/" + "0" * 64, None, 404, "Error"),
    ("PUT", "/v1/tables/" + "0" * 64, table_bytes, 400, "Error"),
    ("POST", "/v1/policies/board/check", {"table-ref": reference, "moves": [{"from": [0, 0], "to": [1, 0]}]}, 200, "check-result"),
    ("POST", "/v1/policies/board/explain", {"table-ref": reference, "move": {"from": [0, 1], "to": [1, 0]}}, 200, "check-result"),
    ("POST", "/v1/policies/board/destinations", {"table-ref": reference, "from": [0, 1]}, 200, "Destinations"),
    ("POST", "/v1/policies/board/check", {"table-ref": "1" * 64, "moves": []}, 404, "Error"),
    ("ExplainRequest", None, {"table": table, "move": {"section-from": 0, "section-to": 1}}, None, "ExplainRequest"),
]
failures = 0
for method, path, body, status, name in checks:
    if path is None:  # a request body: the documented request schemas accept what the tests send
        errors = list(schema(name).iter_errors(body))
        answered = None
    else:
        answered, payload = call(method, path, body)
        errors = list(schema(name).iter_errors(payload))
    if (status is not None and answered != status) or errors:
        failures += 1
        print(f"FAIL {method} {path}: status {answered} (expected {status}); {[e.message for e in errors][:3]}")
    else:
        print(f"ok   {method} {path or ''} -> {name}")
sys.exit(1 if failures else 0)
