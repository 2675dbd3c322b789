"""Real-client tests of `reorder-policy lsp` (LSP 3.17 over stdio), driven by pytest-lsp.

pytest-lsp checks every message the server sends against lsprotocol's types. Diagnostics are
compared with what `reorder-policy lint --format json` says of the same text, so the editor
and CI can never disagree. The raw-protocol tests at the end start the server themselves
and send bytes that no well-behaved client would.

    REORDER_POLICY_BIN=.build/debug/reorder-policy python3 -m pytest Tests/LSPTests -v

(from the package root; Tests/LSPTests/pytest.ini sets asyncio_mode = auto).
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import re
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

_bin = os.environ.get("REORDER_POLICY_BIN", "")
BIN = str(Path(_bin).resolve()) if _bin else ""
ROOT = Path(os.environ.get("REORDER_POLICY_ROOT") or Path(__file__).resolve().parents[2]).resolve()
POLICIES = sorted((ROOT / "policies").glob("*.yaml"))

TIMEOUT = 10.0  # seconds for any one answer or diagnostics to arrive
SEVERITY = {"error": 1, "warning": 2, "info": 3, "information": 3, "note": 3, "hint": 4}
ROW_RULE_KINDS = [
    "lock", "pin", "reserve", "keep-in-section", "accept", "capacity", "keep-order", "keep-among",
]


# --------------------------------------------------------------------------------------------
# The client: pytest-lsp's, plus a record of every publishDiagnostics (with its version).


def _record_publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    client.publishes.setdefault(params.uri, []).append(params)  # type: ignore[attr-defined]


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _record_publish
    register_lsp_features(client, features)
    client.publishes = {}  # type: ignore[attr-defined]
    return client


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[BIN, "lsp"], client_factory=make_client),
)
async def client(lsp_client: LanguageClient):
    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=ROOT.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=ROOT.as_uri(), name=ROOT.name)],
        client_info=types.ClientInfo(name="pytest-lsp", version="1.0.1"),
    )
    lsp_client.init_result = await asyncio.wait_for(  # type: ignore[attr-defined]
        lsp_client.initialize_session(params), TIMEOUT
    )
    yield
    await asyncio.wait_for(lsp_client.shutdown_session(), TIMEOUT)


# --------------------------------------------------------------------------------------------
# Text positions: lint counts 1-based lines and Unicode scalars; LSP 0-based lines and UTF-16.

_BREAK = re.compile(r"\r\n|\r|\n")


def utf16_len(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def line_spans(text: str) -> list[tuple[int, int]]:
    """(start, end-of-content) offsets of every line, as LSP splits lines."""
    spans, start = [], 0
    for m in _BREAK.finditer(text):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(text)))
    return spans


def lint_to_lsp(text: str, line: int, column: int) -> tuple[int, int]:
    """lint's 1-based line/column (scalars) → LSP's 0-based line/UTF-16 character."""
    lines = [text[a:b] for a, b in line_spans(text)]
    l0, k = line - 1, column - 1
    if 0 <= l0 < len(lines):
        s = lines[l0]
        return l0, utf16_len(s[:k]) + max(0, k - len(s))
    return l0, k


def offset_at(text: str, pos: types.Position) -> int:
    """The string offset of an LSP position (UTF-16 character, clamped to its line)."""
    spans = line_spans(text)
    if pos.line >= len(spans):
        return len(text)
    start, end = spans[pos.line]
    units, i = 0, start
    while i < end and units < pos.character:
        units += utf16_len(text[i])
        i += 1
    return i


def position_of(text: str, offset: int) -> types.Position:
    for n, (start, end) in enumerate(line_spans(text)):
        if offset <= end:
            return types.Position(line=n, character=utf16_len(text[start:offset]))
    raise ValueError(offset)


def find(text: str, needle: str, nth: int = 0, shift: int = 0) -> types.Position:
    """The LSP position of the nth occurrence of needle (plus shift scalars)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    return position_of(text, at + shift)


def apply_edits(text: str, edits) -> str:
    spans = sorted(
        ((offset_at(text, e.range.start), offset_at(text, e.range.end), e.new_text) for e in edits),
        key=lambda t: (t[0], t[1]),
        reverse=True,
    )
    for a, b, new in spans:
        text = text[:a] + new + text[b:]
    return text


# --------------------------------------------------------------------------------------------
# What lint says, in LSP terms.


@dataclass(frozen=True, order=True)
class Finding:
    code: str
    line: int
    character: int
    end_line: int
    end_character: int
    severity: int
    message: str  # the first line of the LSP message: lint's `message`

    def __str__(self) -> str:
        return (
            f"{self.code} {self.line}:{self.character}-{self.end_line}:{self.end_character} "
            f"sev={self.severity} {self.message!r}"
        )


def run_lint(path: Path, cwd: Path, *extra: str) -> list[dict]:
    proc = subprocess.run(
        [BIN, "lint", "--format", "json", "--color", "never", *extra, str(path)],
        cwd=cwd, capture_output=True, timeout=60,
    )
    assert proc.returncode in (0, 1), (
        f"lint {path} exited {proc.returncode}: {proc.stderr.decode(errors='replace')}"
    )
    return json.loads(proc.stdout)["diagnostics"]


def lint_findings(text: str, items: list[dict]) -> list[Finding]:
    return sorted(
        Finding(
            d["code"], *lint_to_lsp(text, d["line"], d["column"]),
            *lint_to_lsp(text, d["end-line"], d["end-column"]),
            SEVERITY[d["severity"]], d["message"],
        )
        for d in items
    )


def lsp_findings(diagnostics) -> list[Finding]:
    return sorted(
        Finding(
            str(d.code), d.range.start.line, d.range.start.character, d.range.end.line,
            d.range.end.character, int(d.severity) if d.severity is not None else 0,
            d.message.split("\n")[0],
        )
        for d in diagnostics or []
    )


def lint_text(text: str, directory: Path, name: str = "_as-sent.yaml", *extra: str) -> tuple[list[Finding], list[dict]]:
    """Lint `text` as a file of `directory` (so that the same .reorder-policy.yml applies)."""
    path = directory / name
    path.write_text(text, encoding="utf-8", newline="")
    try:
        items = run_lint(path, directory, *extra)
    finally:
        path.unlink()
    return lint_findings(text, items), items


def check_message_shape(diagnostics, items: list[dict]) -> None:
    """source, and message = lint's message, then `help: …` (when lint has help) and notes."""
    by_first_line = {}
    for d in diagnostics:
        assert d.source == "reorder-policy", f"source of {d.message!r} is {d.source!r}"
        by_first_line.setdefault(d.message.split("\n")[0], []).append(d)
    for item in items:
        for d in by_first_line.get(item["message"], []):
            rest = d.message.split("\n")[1:]
            for extra in rest:
                assert extra.startswith(("help: ", "note: ")), f"unexpected line {extra!r} in {d.message!r}"
            if item.get("help"):
                assert "help: " + item["help"] in rest, f"help {item['help']!r} missing from {d.message!r}"
            else:
                assert not any(r.startswith("help: ") for r in rest), d.message


# --------------------------------------------------------------------------------------------
# Documents and waiting.


async def eventually(predicate: Callable[[], bool], timeout: float = TIMEOUT) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(0.05)


def publishes(client: LanguageClient, uri: str) -> list[types.PublishDiagnosticsParams]:
    return client.publishes.get(uri, [])  # type: ignore[attr-defined]


def history(client: LanguageClient, uri: str) -> str:
    rows = [
        f"  #{n + 1} version={p.version}: " + "; ".join(map(str, lsp_findings(p.diagnostics)))
        for n, p in enumerate(publishes(client, uri))
    ]
    return "\n".join(rows) or "  (nothing published)"


async def wait_for_diagnostics(
    client: LanguageClient, uri: str, expected: list[Finding], version: int | None = None,
    timeout: float = TIMEOUT,
):
    """Wait until the last publish for uri equals `expected` (and has `version`)."""

    def done() -> bool:
        ps = publishes(client, uri)
        return bool(ps) and (version is None or ps[-1].version == version) and (
            lsp_findings(ps[-1].diagnostics) == expected
        )

    if not await eventually(done, timeout):
        want = "\n".join(f"  {f}" for f in expected) or "  (none)"
        pytest.fail(
            f"diagnostics for {uri} (version {version}) never matched lint within {timeout} s.\n"
            f"expected (from lint):\n{want}\npublished:\n{history(client, uri)}",
            pytrace=False,
        )
    return publishes(client, uri)[-1].diagnostics


def did_open(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=version, text=text)
        )
    )


def did_change(client: LanguageClient, uri: str, version: int, *changes) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=list(changes),
        )
    )


def partial(start: types.Position, end: types.Position, text: str):
    return types.TextDocumentContentChangePartial(range=types.Range(start=start, end=end), text=text)


def whole(text: str):
    return types.TextDocumentContentChangeWholeDocument(text=text)


def apply_change(text: str, change) -> str:
    if isinstance(change, types.TextDocumentContentChangePartial):
        return apply_edits(text, [types.TextEdit(range=change.range, new_text=change.text)])
    return change.text


async def open_and_settle(client: LanguageClient, path: Path, text: str | None = None) -> tuple[str, str, list]:
    """Open path (its text from disk unless given), wait for lint's diagnostics; uri, text, diags."""
    if text is None:
        text = path.read_text(encoding="utf-8")
    uri = path.as_uri()
    did_open(client, uri, text)
    expected, items = lint_text(text, path.parent)
    diagnostics = await wait_for_diagnostics(client, uri, expected, version=1)
    check_message_shape(diagnostics, items)
    return uri, text, diagnostics


async def request(awaitable, what: str):
    try:
        return await asyncio.wait_for(awaitable, TIMEOUT)
    except asyncio.TimeoutError:
        pytest.fail(f"no answer to {what} within {TIMEOUT} s", pytrace=False)


# --------------------------------------------------------------------------------------------
# initialize


async def test_initialize_capabilities(client: LanguageClient):
    result: types.InitializeResult = client.init_result  # type: ignore[attr-defined]
    caps = result.capabilities
    assert result.server_info is not None and result.server_info.name == "reorder-policy"
    assert caps.position_encoding in (None, types.PositionEncodingKind.Utf16, "utf-16")

    sync = caps.text_document_sync
    assert isinstance(sync, types.TextDocumentSyncOptions), f"textDocumentSync is {sync!r}"
    assert sync.open_close is True
    assert sync.change == types.TextDocumentSyncKind.Incremental
    assert isinstance(sync.save, types.SaveOptions), f"save is {sync.save!r}"
    assert sync.save.include_text is False

    assert caps.hover_provider is True
    assert caps.completion_provider is not None
    assert sorted(caps.completion_provider.trigger_characters or []) == sorted([" ", ":", "-"])
    assert caps.document_formatting_provider is True
    assert caps.document_symbol_provider is True
    assert caps.definition_provider is True
    assert caps.code_action_provider is True


# --------------------------------------------------------------------------------------------
# Diagnostics = lint


@pytest.mark.parametrize("policy", POLICIES, ids=[p.name for p in POLICIES])
async def test_bundled_policy_diagnostics_match_lint(client: LanguageClient, policy: Path):
    text = policy.read_text(encoding="utf-8")
    uri = policy.as_uri()
    did_open(client, uri, text)
    items = run_lint(policy, ROOT)
    expected = lint_findings(text, items)
    # A file that loads gets two publishes (load, then analysis); wait for the second so that
    # an empty first publish cannot pass for the analysis' verdict.
    load_errors = [d for d in run_lint(policy, ROOT, "--no-analysis") if d["severity"] == "error"]
    want = 1 if load_errors else 2
    if not await eventually(lambda: len(publishes(client, uri)) >= want):
        pytest.fail(f"{policy.name}: expected {want} publishes, got:\n{history(client, uri)}", pytrace=False)
    diagnostics = await wait_for_diagnostics(client, uri, expected, version=1)
    check_message_shape(diagnostics, items)


CORPUS: dict[str, bytes] = {
    "typo-pinn.yaml": b"reorder-policy: 1\nname: typo\nrules:\n  - pinn: { first: 1 }\n",
    "dead-rule.yaml": b"reorder-policy: 1\nname: dead\nrules:\n  - lock: { index: 2 }\n  - lock: { index: 2 }\n",
    "conflicting-anchors.yaml": b"reorder-policy: 1\nname: anchors\nrules:\n  - pin: { first: 1 }\n  - reserve: { last: 1 }\n",
    "broken-yaml.yaml": b"reorder-policy: 1\nname: broken\nrules:\n  - lock: [ { first: 1 }\n",
    "control-char.yaml": b"reorder-policy: 1\nname: a\x01b\nrules:\n  - pin: { first: 1 }\n",
    # Not UTF-8: no LSP client can send this byte (JSON strings are Unicode), so the client
    # decodes with U+FFFD as editors do, and lint is run on what was sent.
    "latin1.yaml": b"reorder-policy: 1\nname: caf\xe9\nrules:\n  - pin: { first: 1 }\n",
    "tabs.yaml": b"reorder-policy: 1\nname: tabs\nrules:\n\t- lock: { first: 1 }\n",
    "unicode-typo.yaml": "reorder-policy: 1\nname: unicode\nrules:\n  - { message: \"Ünïcödé 😀\", pinn: { first: 1 } }\n".encode(),
    "crlf.yaml": b"reorder-policy: 1\r\nname: crlf\r\nrules:\r\n  - pinn: { first: 1 }\r\n",
    "bad-retarget.yaml": b"reorder-policy: 1\nname: retarget\nretarget: nearst\nrules:\n  - pin: { tag: [] }\n",
    "never-selects.yaml": b"reorder-policy: 1\nname: never\nrules:\n  - pin: { tag: [] }\n  - keep-in-section: all\n",
    "missing-version.yaml": b"name: no-version\nrules:\n  - pin: { first: 1 }\n",
    "duplicate-key.yaml": b"reorder-policy: 1\nname: a\nname: b\nrules: []\n",
    "empty.yaml": b"",
    "missing-table.yaml": (
        b"reorder-policy: 1\nname: t\nrules:\n  - pin: { first: 1 }\ntests:\n  - name: t\n"
        b"    table: tables/nope.yaml\n    move: { from: [0, 0], to: [0, 1] }\n    expect: denied\n"
    ),
    # In a folder whose name needs %-escaping in the URI: the table is found only if the
    # server turns the URI back into the right path.
    "with space/table-found.yaml": (
        b"reorder-policy: 1\nname: t\nrules:\n  - pin: { first: 1 }\ntests:\n  - name: t\n"
        b"    table: tables/t.yaml\n    move: { from: [0, 0], to: [0, 1] }\n    expect: denied\n"
    ),
    "with space/tables/t.yaml": b"sections:\n  - rows: [A, B, C]\n",
}
CORPUS_POLICIES = [name for name in CORPUS if "/tables/" not in name]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    for name, data in CORPUS.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return tmp_path


@pytest.mark.parametrize("name", CORPUS_POLICIES)
async def test_corpus_diagnostics_match_lint(client: LanguageClient, corpus: Path, name: str):
    path = corpus / name
    raw = path.read_bytes()
    text = raw.decode("utf-8", errors="replace")
    uri = path.as_uri()
    did_open(client, uri, text)
    if text.encode("utf-8") == raw:
        items = run_lint(path, path.parent)
        expected = lint_findings(text, items)
    else:
        expected, items = lint_text(text, path.parent)
    diagnostics = await wait_for_diagnostics(client, uri, expected, version=1)
    check_message_shape(diagnostics, items)


async def test_unicode_columns_are_utf16(client: LanguageClient, corpus: Path):
    """`pinn` follows "Ünïcödé 😀": scalar column 28, UTF-16 character 29 (😀 is 2 units)."""
    path = corpus / "unicode-typo.yaml"
    _, text, diagnostics = await open_and_settle(client, path)
    (d,) = [d for d in diagnostics if d.code == "unknown-key"]
    assert (d.range.start.line, d.range.start.character) == (3, 29)
    assert (d.range.end.line, d.range.end.character) == (3, 33)


async def test_publish_sequence(client: LanguageClient, corpus: Path):
    """Load errors: one publish, no analysis. A file that loads: load publish, then analysis."""
    typo = corpus / "typo-pinn.yaml"
    dead = corpus / "dead-rule.yaml"
    typo_uri, dead_uri = typo.as_uri(), dead.as_uri()
    did_open(client, typo_uri, typo.read_text())
    did_open(client, dead_uri, dead.read_text())

    dead_text = dead.read_text()
    dead_load = lint_findings(dead_text, run_lint(dead, corpus, "--no-analysis"))
    dead_final = lint_findings(dead_text, run_lint(dead, corpus))
    assert dead_final != dead_load, "the corpus file should have analysis findings"
    if not await eventually(lambda: len(publishes(client, dead_uri)) >= 2):
        pytest.fail(f"expected a load publish and an analysis publish:\n{history(client, dead_uri)}", pytrace=False)
    first, second = publishes(client, dead_uri)[:2]
    assert (first.version, second.version) == (1, 1)
    assert lsp_findings(first.diagnostics) == dead_load, history(client, dead_uri)
    assert lsp_findings(second.diagnostics) == dead_final, history(client, dead_uri)

    typo_text = typo.read_text()
    await wait_for_diagnostics(client, typo_uri, lint_findings(typo_text, run_lint(typo, corpus)), version=1)
    await asyncio.sleep(1.0)  # a second publish would come from an analysis that must not run
    assert len(publishes(client, typo_uri)) == 1, history(client, typo_uri)


async def test_project_config_applies(client: LanguageClient, tmp_path: Path):
    """The .reorder-policy.yml nearest the file sets severities, as for `lint` run there."""
    project = tmp_path / "project"
    (project / "policies").mkdir(parents=True)
    (project / ".reorder-policy.yml").write_text("severity: { dead-rule: error, lock-displaced: off }\n")
    path = project / "policies" / "dead.yaml"
    path.write_bytes(CORPUS["dead-rule.yaml"])
    items = run_lint(path, path.parent)
    assert [(d["code"], d["severity"]) for d in items] == [("dead-rule", "error")], items
    uri, _, diagnostics = await open_and_settle(client, path)
    assert [(d.code, d.severity) for d in diagnostics] == [("dead-rule", types.DiagnosticSeverity.Error)]


async def test_other_yaml_gets_no_diagnostics(client: LanguageClient, tmp_path: Path):
    """Editors attach the server to every YAML file: a CI workflow (top-level keys, none of them
    a policy's) is not linted, while a file with `rules:` but no version is, as `lint` would."""
    workflow = tmp_path / "ci.yaml"
    workflow.write_text("name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n")
    uri = workflow.as_uri()
    did_open(client, uri, workflow.read_text())
    assert await eventually(lambda: bool(publishes(client, uri))), history(client, uri)
    await asyncio.sleep(0.3)
    assert all(not p.diagnostics for p in publishes(client, uri)), history(client, uri)
    unversioned = tmp_path / "unversioned.yaml"
    unversioned.write_text("name: p\nrules:\n  - pin: { first: 1 }\n")
    _, _, diagnostics = await open_and_settle(client, unversioned)
    assert diagnostics, "a policy without its version key is still linted"


async def test_close_publishes_empty(client: LanguageClient, corpus: Path):
    path = corpus / "typo-pinn.yaml"
    uri, _, diagnostics = await open_and_settle(client, path)
    assert diagnostics
    before = len(publishes(client, uri))
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    ok = await eventually(lambda: len(publishes(client, uri)) > before and len(publishes(client, uri)[-1].diagnostics) == 0)
    assert ok, f"no empty publish after didClose:\n{history(client, uri)}"


# --------------------------------------------------------------------------------------------
# didChange: incremental ranges in UTF-16 code units


async def test_incremental_changes(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "incremental.yaml"
    text = "reorder-policy: 1\nname: incremental\nrules:\n  - pin: { first: 1 }\n    id: top\n"
    path.write_text(text)
    uri, text, _ = await open_and_settle(client, path)
    version = 1

    async def change(*changes) -> list:
        nonlocal text, version
        version += 1
        for c in changes:
            text = apply_change(text, c)
        did_change(client, uri, version, *changes)
        expected, items = lint_text(text, tmp_path)
        diagnostics = await wait_for_diagnostics(client, uri, expected, version=version)
        check_message_shape(diagnostics, items)
        return diagnostics

    def unknown_key(diagnostics) -> types.Range:
        found = [d for d in diagnostics if d.code == "unknown-key"]
        assert len(found) == 1, [d.message for d in diagnostics]
        return found[0].range

    # 1. `pin` → `pinn`, by a range over the word.
    r = unknown_key(await change(partial(find(text, "pin"), find(text, "pin", shift=3), "pinn")))
    assert (r.start.line, r.start.character, r.end.line, r.end.character) == (3, 4, 3, 8)
    assert text.splitlines()[3] == "  - pinn: { first: 1 }"

    # 2. A comment with non-ASCII text on a line above: lines shift, columns do not.
    r = unknown_key(await change(partial(types.Position(line=2, character=0), types.Position(line=2, character=0), "# café ✓ — 😀\n")))
    assert (r.start.line, r.start.character, r.end.character) == (4, 4, 8)

    # 3. The rule rewritten on one line, with "Ünïcödé 😀" before the typo: UTF-16 columns.
    start, end = types.Position(line=4, character=0), find(text, "id: top", shift=7)
    new_rule = '  - { message: "Ünïcödé 😀", pinn: { first: 1 }, id: top }'
    r = unknown_key(await change(partial(start, end, new_rule)))
    assert text.splitlines()[4] == new_rule
    assert (r.start.line, r.start.character, r.end.line, r.end.character) == (4, 29, 4, 33)

    # 4. A range after the emoji, in UTF-16 units: `pinn` → `pinx`.
    diagnostics = await change(partial(types.Position(line=4, character=29), types.Position(line=4, character=33), "pinx"))
    assert text.splitlines()[4] == '  - { message: "Ünïcödé 😀", pinx: { first: 1 }, id: top }'
    r = unknown_key(diagnostics)
    assert (r.start.line, r.start.character, r.end.character) == (4, 29, 33)
    assert "'pinx'" in [d for d in diagnostics if d.code == "unknown-key"][0].message

    # 5. Two changes in one notification (applied in order), fixing the typo and adding a rule.
    diagnostics = await change(
        partial(types.Position(line=4, character=29), types.Position(line=4, character=33), "pin"),
        partial(types.Position(line=5, character=0), types.Position(line=5, character=0), "  - lock: { index: 2 }\n  - lock: { index: 2 }\n"),
    )
    assert "dead-rule" in [d.code for d in diagnostics]

    # 6. A full-text change, then didSave (no text): diagnostics stay those of the text.
    diagnostics = await change(whole(text.replace("pin: { first: 1 }", "pinn: { first: 1 }")))
    unknown_key(diagnostics)
    path.write_text(text)
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await asyncio.sleep(0.5)
    expected, _ = lint_text(text, tmp_path)
    await wait_for_diagnostics(client, uri, expected, version=version)


async def test_rapid_changes_end_on_the_last_version(client: LanguageClient, tmp_path: Path):
    """20 didChange in a row: the last publish is for version 21 and matches its text."""
    path = tmp_path / "rapid.yaml"
    text = "reorder-policy: 1\nname: rapid\nrules:\n  - pin: { first: 1 }\n"
    path.write_text(text)
    uri = path.as_uri()
    did_open(client, uri, text)
    for version in range(2, 22):
        if version == 21:  # ends on a file that loads, so that the analysis must run on it
            c = whole("reorder-policy: 1\nname: rapid\nrules:\n  - lock: { index: 2 }\n  - lock: { index: 2 }\n")
        elif version % 3 == 0:
            c = whole(text.replace("pin:", "pinn:", 1) if version % 2 else text + f"  - lock: {{ index: {version} }}\n")
        else:
            end = position_of(text, len(text))
            c = partial(end, end, f"  - keep-in-section: {{ index: {version} }}\n" if version % 2 else "  - pinn: { last: 1 }\n")
        text = apply_change(text, c)
        did_change(client, uri, version, c)
    expected, _ = lint_text(text, tmp_path)
    assert any(f.code == "dead-rule" for f in expected)
    await wait_for_diagnostics(client, uri, expected, version=21)
    await asyncio.sleep(1.0)  # nothing stale may arrive after the last version's result
    ps = publishes(client, uri)
    assert ps[-1].version == 21 and lsp_findings(ps[-1].diagnostics) == expected, history(client, uri)
    versions = [p.version for p in ps]
    assert versions == sorted(versions), f"publishes went back to an older version: {versions}"


# --------------------------------------------------------------------------------------------
# Hover, completion, formatting, symbols, definition, code actions


HOVER_TEXT = (
    "reorder-policy: 1\nname: hover\nrules:\n  - pin: { first: 1 }\n"
    "  - lock: { index: 2 }\n  - lock: { index: 2 }\n"
)


async def test_hover(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "hover.yaml"
    path.write_text(HOVER_TEXT)
    uri, text, diagnostics = await open_and_settle(client, path)
    assert "dead-rule" in [d.code for d in diagnostics]

    async def hover(pos: types.Position) -> types.Hover:
        result = await request(
            client.text_document_hover_async(
                types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos)
            ),
            f"hover at {pos}",
        )
        assert result is not None, f"no hover at {pos}"
        assert isinstance(result.contents, types.MarkupContent), f"contents is {result.contents!r}"
        assert result.contents.kind == types.MarkupKind.Markdown
        return result

    pin = await hover(find(text, "pin", shift=1))
    assert "**pin**" in pin.contents.value, pin.contents.value

    second_lock = await hover(find(text, "lock", nth=1, shift=1))
    assert "dead-rule" in second_lock.contents.value, second_lock.contents.value


async def completion_labels(client: LanguageClient, uri: str, pos: types.Position) -> list[str]:
    result = await request(
        client.text_document_completion_async(
            types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=uri), position=pos,
                context=types.CompletionContext(trigger_kind=types.CompletionTriggerKind.Invoked),
            )
        ),
        f"completion at {pos}",
    )
    assert result is not None, f"no completion at {pos}"
    items = result.items if isinstance(result, types.CompletionList) else result
    return [i.label for i in items]


async def test_completion_rule_kinds(client: LanguageClient, tmp_path: Path):
    text = "reorder-policy: 1\nname: complete\nrules:\n  - pin: { first: 1 }\n  - \n"
    uri = (tmp_path / "complete.yaml").as_uri()
    did_open(client, uri, text)
    labels = await completion_labels(client, uri, types.Position(line=4, character=4))
    missing = [k for k in ROW_RULE_KINDS if k not in labels]
    assert not missing, f"missing {missing} in {labels}"


async def test_completion_keys_and_words(client: LanguageClient, tmp_path: Path):
    """Keys where a mapping is being written (a rule kind's argument, from its schema; a
    section filter), and the words of the policy's own test tables where a value goes."""
    lines = [
        "reorder-policy: 1", "name: words", "rules:",
        "  - pin: { ", "  - capacity: { ", "  - capacity: { section: { ", "  - lock: { kind: ", "  - accept: { section: [",
        "tests:",
        "  - name: t",
        "    table: { sections: [ { id: Inbox, kind: bucket, rows: [ { id: a, kind: header, tags: [hot] }, b ] }, { id: Done, rows: [] } ] }",
        "    move: { from: [0, 1], to: [0, 0] }",
        "    expect: allowed",
    ]
    text = "\n".join(lines) + "\n"
    path = tmp_path / "words.yaml"
    # First as it was before the typing began (it loads, with its test), then as typed.
    valid_rules = ["  - pin: { first: 1 }", "  - capacity: { section: Inbox, max: 3 }", "  - capacity: { section: { kind: bucket }, max: 3 }",
                   "  - lock: { kind: header }", "  - accept: { section: [Done], from: [Inbox] }"]
    path.write_text("\n".join(lines[:3] + valid_rules + lines[8:]) + "\n")
    uri, _, _ = await open_and_settle(client, path)
    did_change(client, uri, 2, whole(text))
    def at(n: int) -> types.Position:
        return types.Position(line=n, character=utf16_len(lines[n]))
    pin = await completion_labels(client, uri, at(3))
    assert {"first", "last", "index", "id", "kind", "tag", "not", "section", "anchor"} <= set(pin), pin
    capacity = await completion_labels(client, uri, at(4))
    assert {"section", "max", "min", "rows"} <= set(capacity), capacity
    section = await completion_labels(client, uri, at(5))
    assert {"index", "id", "kind", "tag", "not"} <= set(section), section
    kinds = await completion_labels(client, uri, at(6))
    assert {"header", "bucket"} <= set(kinds), kinds
    ids = await completion_labels(client, uri, at(7))
    assert {"Inbox", "Done"} <= set(ids), ids


async def test_completion_retarget_modes(client: LanguageClient, tmp_path: Path):
    text = "reorder-policy: 1\nname: complete\nretarget: \nrules:\n  - pin: { first: 1 }\n"
    uri = (tmp_path / "retarget.yaml").as_uri()
    did_open(client, uri, text)
    labels = await completion_labels(client, uri, types.Position(line=2, character=10))
    missing = [k for k in ["nearest", "cancel", "source-section"] if k not in labels]
    assert not missing, f"missing {missing} in {labels}"


async def formatting(client: LanguageClient, uri: str):
    return await request(
        client.text_document_formatting_async(
            types.DocumentFormattingParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                options=types.FormattingOptions(tab_size=2, insert_spaces=True),
            )
        ),
        f"formatting {uri}",
    )


async def test_formatting_formatted_policies_is_a_no_op(client: LanguageClient):
    for policy in POLICIES:
        uri = policy.as_uri()
        did_open(client, uri, policy.read_text(encoding="utf-8"))
        edits = await formatting(client, uri)
        assert not edits, f"{policy.name}: {edits}"


MESSY = """\
# a policy written by hand
reorder-policy:   1
name:    messy     # its name
rules:
    -   pin: {first: 1}
        id: top   # the top row
    - lock:   [ {last: 1} ]
    - keep-in-section:   all
tests:
    -   name: "the top row stays — ✓"
        table: { sections: [ { rows: [Top, A, B] } ] }
        move: {from: [0, 0], to: [0, 1]}
        expect: denied
"""


async def test_formatting_matches_fmt(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "messy.yaml"
    path.write_text(MESSY, encoding="utf-8")
    proc = subprocess.run([BIN, "fmt", "--color", "never", str(path)], cwd=tmp_path, capture_output=True, timeout=30)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    formatted = proc.stdout.decode("utf-8")
    assert formatted != MESSY
    uri = path.as_uri()
    did_open(client, uri, MESSY)
    edits = await formatting(client, uri)
    assert edits, "no edits for a file that fmt changes"
    assert apply_edits(MESSY, edits) == formatted


SYMBOLS_TEXT = """\
reorder-policy: 1
name: symbols
rules:
  - id: no-drag-header
    lock: { first: 1 }
  - keep-in-section: all
  - reserve: { last: 1 }
tests:
  - name: the header cannot be picked up
    table: { sections: [{ rows: [Header, A, B, Add] }] }
    move: { from: [0, 0], to: [0, 1] }
    expect: { decision: denied, rules: [no-drag-header] }
  - name: nothing lands below the add row
    table: { sections: [{ rows: [Header, A, B, Add] }] }
    move: { from: [0, 1], to: [0, 3] }
    expect: { decision: retargeted, target: [0, 2], rules: [rule-3] }
"""


def flatten_symbols(symbols) -> list[tuple[str, str | None, types.Range]]:
    out = []
    for s in symbols or []:
        if isinstance(s, types.DocumentSymbol):
            out.append((s.name, s.detail, s.range))
            out.extend(flatten_symbols(s.children))
        else:
            out.append((s.name, s.container_name, s.location.range))
    return out


async def test_document_symbols(client: LanguageClient, tmp_path: Path):
    uri = (tmp_path / "symbols.yaml").as_uri()
    did_open(client, uri, SYMBOLS_TEXT)
    result = await request(
        client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
        ),
        "documentSymbol",
    )
    symbols = flatten_symbols(result)
    names = [name for name, _, _ in symbols]
    for wanted, line in [("no-drag-header", 3), ("rule-2", 5), ("rule-3", 6),
                         ("the header cannot be picked up", 8), ("nothing lands below the add row", 12)]:
        found = [r for name, _, r in symbols if wanted in name]
        assert found, f"no symbol named like {wanted!r} in {names}"
        assert any(r.start.line <= line <= r.end.line for r in found), f"{wanted!r} not around line {line}: {found}"


async def test_definition_of_rule_id_in_test_expectation(client: LanguageClient, tmp_path: Path):
    """`rules: [no-drag-header]` / `[rule-3]` in a test's expect lead to the rule.

    (Waiver comments name codes, not rule ids — docs/ANALYSIS.md "Waivers" — so the rule ids
    a policy refers to live in its tests' `expect: { rules: [...] }`.)"""
    uri = (tmp_path / "definition.yaml").as_uri()
    did_open(client, uri, SYMBOLS_TEXT)
    for needle, rule_line in [("[no-drag-header]", 3), ("[rule-3]", 6)]:
        pos = find(SYMBOLS_TEXT, needle, shift=3)
        result = await request(
            client.text_document_definition_async(
                types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos)
            ),
            f"definition at {pos}",
        )
        assert result, f"no definition for {needle} at {pos}"
        locations = list(result) if isinstance(result, (list, tuple)) else [result]
        ranges = [
            (loc.target_uri, loc.target_selection_range) if isinstance(loc, types.LocationLink) else (loc.uri, loc.range)
            for loc in locations
        ]
        assert any(u == uri and r.start.line == rule_line for u, r in ranges), f"{needle}: {ranges}"


WAIVER_TEXT = """\
reorder-policy: 1
name: waiver
rules:
  - pin: { first: 1 }
  - lock: { index: 2 }   # reorder-policy: allow lock-displaced -- the server re-places it
  # reorder-policy: allow dead-rule -- kept while old apps still send rule-2's moves
  - lock: { index: 2 }
"""


async def test_definition_of_rule_id_in_waiver_comment(client: LanguageClient, tmp_path: Path):
    """A waiver (docs/ANALYSIS.md, "Waivers": `# reorder-policy: allow CODE -- reason`) names
    codes; a rule id in its reason leads to the rule. The waivers are honoured: lint and the
    server agree (no finding left), so the file also checks waivers end to end."""
    path = tmp_path / "waiver.yaml"
    path.write_text(WAIVER_TEXT)
    uri, text, diagnostics = await open_and_settle(client, path)
    pos = find(text, "rule-2's", shift=2)
    result = await request(
        client.text_document_definition_async(
            types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos)
        ),
        f"definition at {pos}",
    )
    assert result, f"no definition for rule-2 in the waiver comment at {pos}"
    locations = list(result) if isinstance(result, (list, tuple)) else [result]
    ranges = [
        (loc.target_uri, loc.target_selection_range) if isinstance(loc, types.LocationLink) else (loc.uri, loc.range)
        for loc in locations
    ]
    assert any(u == uri and r.start.line == 4 for u, r in ranges), ranges


def workspace_edits(edit: types.WorkspaceEdit | None, uri: str) -> list:
    """The TextEdits of `edit` for `uri` (from `changes` or `documentChanges`)."""
    if edit is None:
        return []
    out = list((edit.changes or {}).get(uri, []))
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit) and change.text_document.uri == uri:
            out.extend(change.edits)
    return out


async def code_actions(client: LanguageClient, uri: str, diagnostic: types.Diagnostic) -> list:
    result = await request(
        client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=diagnostic.range,
                context=types.CodeActionContext(diagnostics=[diagnostic]),
            )
        ),
        f"codeAction for {diagnostic.code}",
    )
    assert result is None or isinstance(result, (list, tuple)), result
    return [a for a in result or [] if isinstance(a, types.CodeAction)]


async def test_code_action_quick_fixes(client: LanguageClient, corpus: Path, tmp_path: Path):
    """The server's quick fixes (not in the LSP contract, but advertised): did-you-mean for an
    unknown key; removing a dead rule. Each applied edit must leave the finding gone."""
    path = corpus / "typo-pinn.yaml"
    uri, text, diagnostics = await open_and_settle(client, path)
    (typo,) = [d for d in diagnostics if d.code == "unknown-key"]
    actions = await code_actions(client, uri, typo)
    fixed = [apply_edits(text, workspace_edits(a.edit, uri)) for a in actions if a.edit]
    assert "reorder-policy: 1\nname: typo\nrules:\n  - pin: { first: 1 }\n" in fixed, (
        f"no fix to 'pin' among {[a.title for a in actions]}"
    )

    path = tmp_path / "dead.yaml"
    path.write_text(HOVER_TEXT)
    uri, text, diagnostics = await open_and_settle(client, path)
    (dead,) = [d for d in diagnostics if d.code == "dead-rule"]
    actions = await code_actions(client, uri, dead)
    results = [apply_edits(text, workspace_edits(a.edit, uri)) for a in actions if a.edit]
    assert results, f"no edit among {[a.title for a in actions]}"
    for result in results:
        after, _ = lint_text(result, tmp_path)
        assert "dead-rule" not in [f.code for f in after], f"still dead after a fix:\n{result}"
    # rule-3 (the second lock) is the dead one: only its line goes.
    assert results == [HOVER_TEXT.replace("  - lock: { index: 2 }\n", "", 1)], (
        f"the fix for {dead.message.splitlines()[0]!r} gives {results} "
        f"({[(a.title, workspace_edits(a.edit, uri)) for a in actions]})"
    )

    (displaced,) = [d for d in diagnostics if d.code == "lock-displaced"]
    actions = await code_actions(client, uri, displaced)
    results = [apply_edits(text, workspace_edits(a.edit, uri)) for a in actions if a.edit]
    assert HOVER_TEXT.replace("  - lock: { index: 2 }\n", "  - pin: { index: 2 }\n", 1) in results, results


async def test_quick_fixes_keep_their_neighbours(client: LanguageClient, tmp_path: Path):
    """Removing a dead rule keeps the waiver comment of the rule after it, a flow list offers no
    removal (its line holds live rules too), and lock → pin edits the `lock` key, not an id."""
    text = (
        "reorder-policy: 1\nname: neighbours\nrules:\n  - lock: { index: 2 }\n  - lock: { index: 2 }\n"
        "  # reorder-policy: allow lock-displaced -- kept on purpose\n  - id: unlock-a\n    lock: { index: 5 }\n"
    )
    path = tmp_path / "neighbours.yaml"
    path.write_text(text)
    uri, text, diagnostics = await open_and_settle(client, path)
    (dead,) = [d for d in diagnostics if d.code == "dead-rule"]
    results = [apply_edits(text, workspace_edits(a.edit, uri)) for a in await code_actions(client, uri, dead) if a.edit]
    assert results == [text.replace("  - lock: { index: 2 }\n", "", 1)], results
    for displaced in [d for d in diagnostics if d.code == "lock-displaced"]:
        for a in await code_actions(client, uri, displaced):
            fixed = apply_edits(text, workspace_edits(a.edit, uri))
            assert "unlock-a" in fixed and "unpin" not in fixed, fixed

    flow = "reorder-policy: 1\nname: flow\nrules: [{ pin: { tag: a } }, { lock: { index: 2 } }, { lock: { index: 2 } }]\n"
    path = tmp_path / "flow.yaml"
    path.write_text(flow)
    uri, text, diagnostics = await open_and_settle(client, path)
    for dead in [d for d in diagnostics if d.code == "dead-rule"]:
        assert not [a for a in await code_actions(client, uri, dead) if a.title.startswith("Remove")]


async def test_loader_line_breaks_keep_lines(client: LanguageClient, tmp_path: Path):
    """libyaml ends lines at LS (U+2028) too; the protocol does not: a comment holding one must
    not move the diagnostics after it."""
    text = "reorder-policy: 1\nname: ls\nrules:\n  - { message: \"a\u2028  b\", pinn: { first: 1 } }\n"
    path = tmp_path / "ls.yaml"
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    did_open(client, uri, text)
    assert await eventually(lambda: bool(publishes(client, uri)) and bool(publishes(client, uri)[-1].diagnostics)), history(client, uri)
    (typo,) = [d for d in publishes(client, uri)[-1].diagnostics if d.code == "unknown-key"]
    line = text.split("\n")[3]
    assert (typo.range.start.line, typo.range.start.character) == (3, utf16_len(line[: line.index("pinn")])), typo.range


async def test_kubernetes_rules_are_not_a_policy(client: LanguageClient, tmp_path: Path):
    role = tmp_path / "role.yaml"
    role.write_text("apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: r\nrules:\n  - apiGroups: [\"\"]\n")
    uri = role.as_uri()
    did_open(client, uri, role.read_text())
    assert await eventually(lambda: bool(publishes(client, uri))), history(client, uri)
    await asyncio.sleep(0.3)
    assert all(not p.diagnostics for p in publishes(client, uri)), history(client, uri)


async def test_hover_shows_what_a_selector_picks(client: LanguageClient):
    """On a rule, hover lists the rows (or sections) its selector picks on the policy's own
    test tables: status-list.yaml's status-row pin on tables/inbox.yaml."""
    path = ROOT / "policies" / "status-list.yaml"
    uri, text, _ = await open_and_settle(client, path)
    line = next(i for i, l in enumerate(text.split("\n")) if l.strip().startswith("- ") and "pin" in l)
    result = await request(
        client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=len(text.split("\n")[line]) - 1))
        ),
        "hover on a pin",
    )
    assert result is not None and "selects" in result.contents.value and "0.0" in result.contents.value, result


async def test_unknown_cancel_is_ignored(client: LanguageClient, tmp_path: Path):
    """$/cancelRequest for ids never sent: no answer (pytest-lsp would reject a response to
    an unknown id), and the next request is answered as usual."""
    path = tmp_path / "cancel.yaml"
    path.write_text(HOVER_TEXT)
    uri, text, _ = await open_and_settle(client, path)
    client.cancel_request(types.CancelParams(id=987654))
    client.cancel_request(types.CancelParams(id="no-such-request"))
    result = await request(
        client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=find(text, "pin", shift=1))
        ),
        "hover after $/cancelRequest",
    )
    assert result is not None and "**pin**" in result.contents.value, result


# --------------------------------------------------------------------------------------------
# Raw protocol: bytes no client should send. The server is started here, without pytest-lsp.


class RawServer:
    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [BIN, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT
        )
        self.inbox: queue.Queue = queue.Queue()
        self.seen: list[Any] = []
        self.stderr = bytearray()
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stderr(self) -> None:
        while chunk := self.proc.stderr.read1(65536):  # type: ignore[union-attr]
            self.stderr += chunk

    def _read_stdout(self) -> None:
        out = self.proc.stdout
        try:
            while True:
                header = b""
                while not header.endswith(b"\r\n\r\n"):
                    byte = out.read(1)  # type: ignore[union-attr]
                    if not byte:
                        self.inbox.put(("eof", header))
                        return
                    header += byte
                m = re.search(rb"(?i)content-length:\s*(\d+)", header)
                if not m:
                    self.inbox.put(("bad", header))
                    return
                body = out.read(int(m.group(1)))  # type: ignore[union-attr]
                self.inbox.put(("msg", json.loads(body)))
        except Exception as e:  # noqa: BLE001 -- reported to the test
            self.inbox.put(("bad", repr(e)))

    def write(self, data: bytes) -> bool:
        try:
            self.proc.stdin.write(data)  # type: ignore[union-attr]
            self.proc.stdin.flush()  # type: ignore[union-attr]
            return True
        except (BrokenPipeError, OSError):
            return False

    def send(self, message: dict) -> bool:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        return self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def next(self, timeout: float = TIMEOUT):
        """The next message from the server; None at end of output or after timeout."""
        try:
            kind, value = self.inbox.get(timeout=timeout)
        except queue.Empty:
            return None
        if kind == "bad":
            pytest.fail(f"the server wrote something that is not a frame: {value!r}", pytrace=False)
        if kind == "eof":
            self.inbox.put((kind, value))
            return None
        self.seen.append(value)
        return value

    def response(self, timeout: float = TIMEOUT) -> dict:
        """The next response (skipping the server's notifications, such as log messages)."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            msg = self.next(left)
            if msg is None:
                break
            if "method" not in msg:
                return msg
        pytest.fail(
            f"no response within {timeout} s (exit status {self.proc.poll()}); seen {self.seen}; "
            f"stderr {bytes(self.stderr[-2000:])!r}",
            pytrace=False,
        )

    def initialize(self, id_: int = 1) -> dict:
        self.send({"id": id_, "method": "initialize", "params": {
            "processId": os.getpid(), "rootUri": ROOT.as_uri(), "capabilities": {}}})
        answer = self.response()
        assert answer.get("id") == id_ and "result" in answer, answer
        self.send({"method": "initialized", "params": {}})
        return answer

    def shutdown_and_exit(self) -> None:
        self.send({"id": 900, "method": "shutdown"})
        answer = self.response()
        assert answer == {"jsonrpc": "2.0", "id": 900, "result": None}, answer
        self.send({"method": "exit"})
        try:
            status = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pytest.fail("the server did not exit within 5 s of `exit`", pytrace=False)
        assert status == 0, f"exit status {status} after shutdown + exit"

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=5)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass


@pytest.fixture
def raw():
    server = RawServer()
    yield server
    server.close()


def assert_error(answer: dict, code: int | tuple[int, ...], id_: Any) -> None:
    codes = code if isinstance(code, tuple) else (code,)
    assert "error" in answer and "result" not in answer, answer
    assert answer["error"]["code"] in codes, answer
    assert isinstance(answer["error"].get("message"), str), answer
    assert "id" in answer and answer["id"] == id_, answer


def test_raw_request_before_initialize(raw: RawServer):
    raw.send({"id": 1, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": "file:///x.yaml"}, "position": {"line": 0, "character": 0}}})
    assert_error(raw.response(), -32002, 1)
    raw.initialize(id_=2)
    raw.shutdown_and_exit()


def test_raw_malformed_messages(raw: RawServer):
    raw.initialize()
    # (a) a body that is not JSON
    raw.write(b"Content-Length: 9\r\n\r\nnot json!")
    assert_error(raw.response(), -32700, None)
    # (b) an unknown request
    raw.send({"id": 7, "method": "foo/bar", "params": {}})
    assert_error(raw.response(), -32601, 7)
    # (d) a header block without Content-Length
    raw.write(b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n")
    assert_error(raw.response(), (-32700, -32600), None)
    # still serving
    raw.send({"id": 8, "method": "foo/baz"})
    assert_error(raw.response(), -32601, 8)
    raw.shutdown_and_exit()


def test_raw_oversized_message(raw: RawServer, record_property):
    """Content-Length over 64 MiB: an Invalid Request error, the body skipped, still serving.

    A server may instead close the connection; then it must exit by itself with a status,
    not a signal. Which of the two happened is recorded as the property `oversized`."""
    raw.initialize()
    size = 64 * 1024 * 1024 + 1
    raw.write(b"Content-Length: %d\r\n\r\n" % size)

    def fill() -> None:
        chunk = b"x" * (1024 * 1024)
        left = size
        while left > 0:
            n = min(left, len(chunk))
            if not raw.write(chunk[:n]):
                return
            left -= n
        raw.send({"id": 42, "method": "foo/after-the-big-one"})

    writer = threading.Thread(target=fill, daemon=True)
    writer.start()
    answer = raw.next(timeout=15)
    if answer is None:  # the server closed the connection
        try:
            status = raw.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pytest.fail("no answer to an oversized message, and the server still runs", pytrace=False)
        record_property("oversized", f"closed, exit status {status}")
        assert status >= 0, f"the server died of signal {-status}"
        return
    record_property("oversized", "error response, kept serving")
    while "method" in answer:  # skip notifications
        answer = raw.next(timeout=15) or pytest.fail("the server stopped answering", pytrace=False)
    assert_error(answer, -32600, None)
    writer.join(timeout=20)
    assert not writer.is_alive(), "the server stopped reading the oversized body"
    assert_error(raw.response(timeout=15), -32601, 42)
    raw.shutdown_and_exit()


def test_raw_unknown_cancel_gets_no_response(raw: RawServer):
    raw.initialize()
    raw.send({"method": "$/cancelRequest", "params": {"id": 12345}})
    raw.send({"id": 8, "method": "foo/bar"})
    assert_error(raw.response(), -32601, 8)  # the first response is the request's: none for the cancel
    raw.shutdown_and_exit()

# Neovim, the second real client, runs in CLITests.LanguageServerClientTests (Tests/LSPTests/run_nvim.sh).


def test_raw_positions_and_versions_out_of_range(raw: RawServer):
    """Positions outside the protocol's range (negative, past 2^31) are read clamped, never
    crash a request, and a version at the integer's top still takes a change without one."""
    raw.initialize()
    uri = "file:///tmp/raw-range.yaml"
    text = "reorder-policy: 1\nname: r\nrules:\n  - lock: { index: 2 }\n"
    raw.send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 2**63 - 1, "text": text}}})
    for n, (line, character) in enumerate([(-1, -5), (0, -1), (2**62, 2**62), (3, 2**40)]):
        for method in ("textDocument/hover", "textDocument/completion", "textDocument/definition"):
            raw.send({"id": 100 + n, "method": method, "params": {
                "textDocument": {"uri": uri}, "position": {"line": line, "character": character}}})
            answer = raw.response()
            assert answer.get("id") == 100 + n and "result" in answer, answer
    raw.send({"method": "textDocument/didChange", "params": {"textDocument": {"uri": uri},
        "contentChanges": [{"range": {"start": {"line": -3, "character": -3}, "end": {"line": 0, "character": 0}}, "text": "# c\n"}]}})
    raw.send({"id": 200, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": uri}}})
    answer = raw.response()
    assert [s["name"] for s in answer["result"]] == ["rule-1"], answer
    raw.shutdown_and_exit()
