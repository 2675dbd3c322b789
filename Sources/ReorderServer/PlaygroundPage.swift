#if Server  // the server is built with the `Server` trait only (Package.swift)
/// `GET /playground` (`--playground` only): one self-contained page — no CDN, no fonts, no
/// request anywhere but this server. It loads `/client.js` and decides every drop with
/// `POST /v1/playground` (lint + explain of the policy text in the editor). docs/PLAYGROUND.md.
enum PlaygroundPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>reorder-policy playground</title>
<style>
  :root { --bg: #f6f7f9; --panel: #fff; --ink: #1d2330; --muted: #667085; --line: #e3e6eb;
          --ok: #1f9d55; --ok-bg: #e7f6ee; --no: #d92d20; --no-bg: #fdecea; --warn: #b54708; --warn-bg: #fef4e6;
          --accent: #3b5bdb; --hit: #fff3bf; --mono: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--ink); background: var(--bg); }
  header { display: flex; gap: 12px; align-items: center; padding: 10px 16px; background: var(--panel); border-bottom: 1px solid var(--line); flex-wrap: wrap; }
  header h1 { font-size: 16px; margin: 0 12px 0 0; }
  header label { color: var(--muted); font-size: 13px; }
  select, button, input { font: inherit; }
  select, input[type=text] { padding: 4px 6px; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
  button { padding: 4px 10px; border: 1px solid var(--line); border-radius: 6px; background: #fff; cursor: pointer; }
  button:hover { border-color: var(--accent); }
  #share-link { width: 260px; color: var(--muted); }
  #editor-help { margin: 4px 0 0; }
  .notice { margin: 10px 16px 0; padding: 8px 12px; border: 1px solid #f5c58a; border-radius: 8px; background: var(--warn-bg); color: var(--warn); }
  main { display: grid; grid-template-columns: minmax(360px, 5fr) 7fr; gap: 14px; padding: 14px 16px; }
  .panel { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 12px; min-width: 0; }
  .panel h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 0 0 8px; }
  /* The editor: a textarea over a layer that paints line highlights, beside a gutter. */
  .editor { position: relative; display: flex; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; height: 430px; background: #fff; }
  .gutter { flex: none; width: 44px; overflow: hidden; background: #f1f3f5; color: var(--muted); text-align: right; user-select: none; }
  .gutter div, .layer div, textarea { font: 13px/20px var(--mono); }
  .gutter div { height: 20px; padding-right: 8px; position: relative; }
  .gutter div.error { color: #fff; background: var(--no); }
  .gutter div.warning { color: #fff; background: var(--warn); }
  .gutter div.hit { background: #ffd43b; color: var(--ink); font-weight: 700; }
  .code { position: relative; flex: 1; min-width: 0; }
  .layer { position: absolute; inset: 0; overflow: hidden; pointer-events: none; padding: 0; }
  .layer div { height: 20px; white-space: pre; color: transparent; }
  .layer div.error { background: var(--no-bg); text-decoration: wavy underline var(--no); }
  .layer div.warning { background: var(--warn-bg); }
  .layer div.hit { background: var(--hit); box-shadow: inset 3px 0 #fab005; }
  textarea { position: absolute; inset: 0; width: 100%; height: 100%; border: 0; outline: none; resize: none; padding: 0 0 0 8px; margin: 0;
             background: transparent; color: var(--ink); white-space: pre; overflow: auto; tab-size: 2; }
  .layer div { padding-left: 8px; }
  #diagnostics { list-style: none; margin: 8px 0 0; padding: 0; max-height: 150px; overflow: auto; }
  #diagnostics li { padding: 4px 6px; border-radius: 6px; cursor: pointer; font-size: 13px; }
  #diagnostics li:hover { background: #f1f3f5; }
  #diagnostics .sev { font-weight: 700; margin-right: 6px; }
  #diagnostics .error .sev { color: var(--no); } #diagnostics .warning .sev { color: var(--warn); }
  #diagnostics .clean { color: var(--ok); cursor: default; }
  /* The table: sections side by side, rows stacked. */
  #board { display: flex; gap: 10px; flex-wrap: wrap; align-items: flex-start; min-height: 120px; }
  .section { flex: 1 1 150px; max-width: 240px; background: #f1f3f5; border: 2px solid transparent; border-radius: 10px; padding: 6px; }
  .section-head { font-weight: 600; padding: 4px 6px 6px; display: flex; justify-content: space-between; cursor: grab; border-radius: 6px; }
  .section-head small { color: var(--muted); font-weight: 400; }
  .section-head:focus-visible, .row:focus-visible { outline: 3px solid var(--accent); outline-offset: 1px; }
  .rows { display: flex; flex-direction: column; }
  .row { background: #fff; border: 1px solid var(--line); border-radius: 7px; padding: 7px 9px; margin: 2px 0; cursor: grab; user-select: none; touch-action: none;
         box-shadow: 0 1px 1px rgba(0,0,0,.04); display: flex; justify-content: space-between; gap: 6px; }
  .row .meta { color: var(--muted); font-size: 11px; }
  /* Ids as they are: isolated from the text around them (a U+202E in an id reorders nothing
     else), whitespace kept, long ids wrapped inside their row; tabs, other control characters
     and leading or trailing spaces drawn as markers, so that distinct ids look distinct. */
  .id { unicode-bidi: isolate; white-space: pre-wrap; overflow-wrap: anywhere; min-width: 0; }
  .id .ws { color: var(--muted); }
  .row .meta, .section-head small { overflow-wrap: anywhere; min-width: 0; }
  .row.locked { background: repeating-linear-gradient(135deg, #fff, #fff 6px, #f5f5f5 6px, #f5f5f5 12px); cursor: not-allowed; }
  .row.lifted, .section.lifted { opacity: .45; outline: 2px dashed var(--accent); }
  .slot { height: 6px; margin: 1px 2px; border-radius: 4px; border: 1px solid transparent; transition: transform .08s; }
  .dragging .slot.ok { background: var(--ok-bg); border: 1px dashed var(--ok); }
  .dragging .slot.no { background: var(--no-bg); border: 1px dashed #f3b0aa; }
  /* A hovered slot grows without moving the rows (a transform, not a height): on a 2,000-row
     board a height change laid the whole column out again on every slot the pointer passed. */
  .dragging .slot.hover { transform: scaleY(3); position: relative; z-index: 1; }
  .dragging .slot.hover.ok { background: #c7ecd6; border: 2px solid var(--ok); }
  .dragging .slot.hover.no { background: #f9d3cf; border: 2px solid var(--no); }
  .sslot { width: 6px; align-self: stretch; border-radius: 4px; }
  .dragging-section .sslot.ok { background: var(--ok-bg); border: 1px dashed var(--ok); }
  .dragging-section .sslot.no { background: var(--no-bg); border: 1px dashed #f3b0aa; }
  .dragging-section .sslot.hover { width: 22px; }
  .row.snapped { animation: snap .9s ease-out; }
  .row.snapped-no { animation: snapno .9s ease-out; }
  @keyframes snap { from { background: #c7ecd6; border-color: var(--ok); } to { background: #fff; } }
  @keyframes snapno { from { background: #f9d3cf; border-color: var(--no); } to { background: #fff; } }
  .legend { color: var(--muted); font-size: 12px; margin: 6px 0 0; }
  .legend span { display: inline-block; width: 18px; height: 8px; border-radius: 3px; vertical-align: middle; margin: 0 4px 0 10px; }
  /* The decision. */
  #decision { margin-top: 12px; }
  .word { display: inline-block; font-weight: 700; font-size: 15px; padding: 3px 10px; border-radius: 999px; margin-right: 8px; }
  .word.allowed { background: var(--ok-bg); color: var(--ok); }
  .word.retargeted { background: #e7ecff; color: var(--accent); }
  .word.rejected, .word.denied, .word.invalid { background: var(--no-bg); color: var(--no); }
  #violations { list-style: none; padding: 0; margin: 8px 0 0; }
  #violations li { border-left: 4px solid #fab005; background: #fffbeb; padding: 6px 10px; margin: 6px 0; border-radius: 0 6px 6px 0; cursor: pointer; }
  #violations .rule { font-family: var(--mono); font-size: 12px; color: var(--muted); }
  #violations .reason { color: var(--muted); }
  details { margin-top: 10px; }
  details textarea { position: static; width: 100%; height: 160px; border: 1px solid var(--line); border-radius: 6px; padding: 6px; white-space: pre; }
  .hint { color: var(--muted); font-size: 12px; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  @media (max-width: 900px) { main { grid-template-columns: 1fr; } }
</style>
</head>
<body>
<header>
  <h1>reorder-policy playground</h1>
  <label>Policy <select id="policy-example" aria-label="Example policy"><option value="">(loading…)</option></select></label>
  <label>Table <select id="table-example" aria-label="Example table"></select></label>
  <button id="reset-table" type="button" title="Draw the chosen table again">Reset table</button>
  <button id="share" type="button">Share link</button>
  <input id="share-link" type="text" readonly aria-label="Share link" placeholder="a link with this policy and table">
</header>
<div id="notice" class="notice" role="alert" hidden></div>
<main>
  <section class="panel" aria-labelledby="policy-title">
    <h2 id="policy-title">Policy</h2>
    <div class="editor">
      <div class="gutter" id="gutter" aria-hidden="true"></div>
      <div class="code">
        <div class="layer" id="layer" aria-hidden="true"></div>
        <textarea id="policy" spellcheck="false" autocomplete="off" aria-label="Policy YAML" aria-describedby="editor-help diagnostics"></textarea>
      </div>
    </div>
    <p class="hint" id="editor-help">Tab indents. To leave the editor with the keyboard, press Escape, then Tab.</p>
    <ul id="diagnostics" aria-label="Diagnostics"></ul>
  </section>
  <section class="panel" aria-labelledby="table-title">
    <h2 id="table-title">Table</h2>
    <div id="board" role="application" aria-roledescription="reorderable table" aria-describedby="keyboard-help"></div>
    <p class="legend">While dragging: <span style="background:#e7f6ee;border:1px dashed #1f9d55"></span>the row may land here
      <span style="background:#fdecea;border:1px dashed #f3b0aa"></span>refused (a drop there is retargeted or rejected)</p>
    <p class="hint" id="keyboard-help">Drag a row or a section's title. Keyboard: focus a row or title, Space or Enter picks it up, the arrow keys move it, Space or Enter drops it, Escape cancels.</p>
    <div id="decision" aria-labelledby="decision-title">
      <h2 id="decision-title">Decision</h2>
      <div id="decision-body"><span class="hint">Drop a row to see the policy decide.</span></div>
      <ul id="violations"></ul>
    </div>
    <details>
      <summary>Table as JSON</summary>
      <textarea id="table-json" spellcheck="false" aria-label="Table JSON"></textarea>
      <div class="hint" id="table-json-status"></div>
    </details>
  </section>
</main>
<div id="live" class="sr-only" role="status" aria-live="assertive" aria-atomic="true"></div>
<script src="/client.js"></script>
<script>
"use strict";
var $ = function (id) { return document.getElementById(id); };
var state = { policies: [], tables: [], tableFile: null, table: { sections: [] }, lintTimer: null, lint: null,
              drag: null, lastResult: null, lintSeq: 0, lintAbort: null, painted: { lines: [], classes: [] } };

// ---- Talking to the server: every answer comes from POST /v1/playground -------------------
// With a move, lint's analysis is skipped (it costs CPU time a drag would feel); edits run it.
// `signal` aborts the request (a lint that newer text makes stale).
function playground(move, signal) {
  var body = { policy: $("policy").value, table: state.table };
  if (move) { body.move = move; body.analysis = false; }
  return fetch("/v1/playground", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal: signal })
    .then(function (r) { return r.json().then(function (j) {
      if (!r.ok) throw new Error(j.error ? j.error.code + ": " + j.error.message : "HTTP " + r.status);
      return j;
    }); });
}
// A policy with errors decides nothing: picking up or dropping then fails with this error.
function policyErrors() { return new Error("the policy has errors: fix them (see the diagnostics) to see decisions"); }
// The client of /client.js, with the playground's policy text as its transport.
var client = new ReorderClient({
  table: state.table,
  transport: {
    destinations: function (table, from) {
      return playground({ from: from, to: from }).then(function (answer) {
        if (!answer.explain) { showLint(answer.lint); throw policyErrors(); }
        var result = answer.explain.results[0];
        return { "can-move": result.decision !== "denied", valid: result.valid || [], result: result };
      });
    },
    decide: function (table, move) {
      return playground(move).then(function (answer) {
        if (!answer.explain) { showLint(answer.lint); throw policyErrors(); }
        return answer.explain.results[0];
      });
    }
  }
});
function setTable(table) { state.table = table; client.table = table; $("table-json").value = JSON.stringify(table, null, 2); draw(); }

// ---- The editor ----------------------------------------------------------------------------
function paintEditor() {
  var lines = $("policy").value.split("\n");
  var marks = {};
  (state.lint ? state.lint.diagnostics : []).forEach(function (d) {
    if (marks[d.line] !== "error") marks[d.line] = d.severity;
  });
  var hits = {};
  (state.lastResult && state.lastResult.violations || []).forEach(function (v) { if (v.location) hits[v.location.line] = true; });
  // Only what changed is repainted (issue #60, item 8: every line was, 6.1 s a key at 18,053
  // lines): the lines between the unchanged start and end of the text are replaced, line
  // numbers move only when the count changed, and a line's mark only when it differs.
  var gutter = $("gutter"), layer = $("layer");
  var old = state.painted.lines, oldClasses = state.painted.classes;
  if (layer.childElementCount !== old.length || gutter.childElementCount !== old.length) {
    old = []; oldClasses = []; gutter.textContent = ""; layer.textContent = "";
  }
  var start = 0, shared = Math.min(old.length, lines.length);
  while (start < shared && old[start] === lines[start]) start++;
  var endOld = old.length, endNew = lines.length;
  while (endOld > start && endNew > start && old[endOld - 1] === lines[endNew - 1]) { endOld--; endNew--; }
  var after = layer.children[endOld] || null;
  for (var i = endOld - 1; i >= start; i--) layer.removeChild(layer.children[i]);
  var made = document.createDocumentFragment();
  for (var k = start; k < endNew; k++) { var d = document.createElement("div"); d.textContent = lines[k] + " "; made.appendChild(d); }
  layer.insertBefore(made, after);
  var numbers = document.createDocumentFragment();
  for (k = gutter.childElementCount; k < lines.length; k++) {
    var g = document.createElement("div"); g.textContent = String(k + 1); g.dataset.line = String(k + 1); numbers.appendChild(g);
  }
  gutter.appendChild(numbers);
  while (gutter.childElementCount > lines.length) gutter.removeChild(gutter.lastChild);
  var renumberTo = lines.length !== old.length ? lines.length : endNew;
  for (k = start; k < renumberTo; k++) layer.children[k].dataset.line = String(k + 1);
  var classes = new Array(lines.length);
  for (k = 0; k < lines.length; k++) {
    var cls = hits[k + 1] ? "hit" : (marks[k + 1] || "");
    classes[k] = cls;
    // A layer line keeps its node (and mark) when unchanged, shifted after the change; a
    // gutter line is a place, never shifted.
    var was = k < start ? oldClasses[k] : k >= endNew ? oldClasses[k - endNew + endOld] : null;
    if (was !== cls) { layer.children[k].className = cls; }
    if (k >= old.length || oldClasses[k] !== cls) { gutter.children[k].className = cls; }
  }
  state.painted = { lines: lines, classes: classes };
  syncScroll();
}
// The textarea's scrollbars take room from its text: the layer gets the same room (inset by
// them) and the gutter scrolls as far (padded by the horizontal one), or both stop short of the
// text at the end of a long policy.
function syncScroll() {
  var t = $("policy"), gutter = $("gutter"), layer = $("layer");
  var below = t.offsetHeight - t.clientHeight, beside = t.offsetWidth - t.clientWidth;
  layer.style.bottom = below + "px"; layer.style.right = beside + "px"; gutter.style.paddingBottom = below + "px";
  gutter.scrollTop = t.scrollTop; layer.scrollTop = t.scrollTop; layer.scrollLeft = t.scrollLeft;
}
window.addEventListener("resize", syncScroll);
function escapeHTML(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }
function goToLine(line) {
  var t = $("policy"), lines = t.value.split("\n"), offset = 0;
  for (var k = 0; k < line - 1 && k < lines.length; k++) offset += lines[k].length + 1;
  t.focus(); t.setSelectionRange(offset, offset);
  t.scrollTop = Math.max(0, (line - 5) * 20); syncScroll();
}
function showLint(lint) {
  state.lint = lint;
  var list = $("diagnostics");
  list.innerHTML = "";
  if (!lint.diagnostics.length) {
    list.innerHTML = '<li class="clean">✓ no errors or warnings</li>';
  }
  lint.diagnostics.forEach(function (d) {
    var li = document.createElement("li");
    li.className = d.severity;
    li.dataset.line = d.line;
    li.innerHTML = '<span class="sev">' + d.severity + "</span>" + d.line + ":" + d.column + " " + escapeHTML(d.message) +
      ' <span class="hint">[' + escapeHTML(d.code) + "]</span>" + (d.help ? '<div class="hint">' + escapeHTML(d.help) + "</div>" : "");
    li.addEventListener("click", function () { goToLine(d.line); });
    list.appendChild(li);
  });
  paintEditor();
}
// A lint still in flight when newer text arrives is aborted: its answer could only be stale,
// and the browser stops waiting for it (the server's lint is bounded by the analysis budget).
function relint() {
  clearTimeout(state.lintTimer);
  state.lintTimer = setTimeout(function () {
    if (state.lintAbort) state.lintAbort.abort();
    var abort = new AbortController();
    state.lintAbort = abort;
    var seq = ++state.lintSeq;
    playground(null, abort.signal).then(function (answer) {
      if (seq === state.lintSeq) { state.lintAbort = null; showLint(answer.lint); }
    }, function (error) { if (error.name !== "AbortError") showError(error); });
  }, 300);
}
$("policy").addEventListener("input", function () { state.lastResult = null; paintEditor(); relint(); });
$("policy").addEventListener("scroll", syncScroll);
// Tab indents (two spaces); Escape then Tab leaves the editor, as in other code editors on the
// web, so that keyboard users are not trapped in it (Shift+Tab always leaves).
$("policy").addEventListener("keydown", function (e) {
  if (e.key === "Escape") { state.editorEscaped = true; return; }
  if (e.key === "Shift" || e.key === "Control" || e.key === "Alt" || e.key === "Meta") return;
  var escaped = state.editorEscaped;
  state.editorEscaped = false;
  if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey && !escaped) {
    e.preventDefault(); document.execCommand("insertText", false, "  ");
  }
});
$("policy").addEventListener("blur", function () { state.editorEscaped = false; });

// ---- Drawing the table ---------------------------------------------------------------------
function rowId(row) { return typeof row === "object" && row !== null ? String(row.id) : String(row); }
function rowMeta(row) {
  if (typeof row !== "object" || row === null) return "";
  return [row.kind, (row.tags || []).map(function (t) { return "#" + t; }).join(" ")].filter(Boolean).join(" ");
}
function sectionName(u) { var s = state.table.sections[u]; return s && s.id !== undefined ? String(s.id) : "section " + u; }
// An id as an element: text only (textContent, never markup), isolated (<bdi>, .id), with tabs,
// other control characters and leading or trailing spaces drawn as markers.
var MARKS = { "\t": "\u21e5", "\n": "\u21b5", "\u007f": "\u2421" };
function idElement(id) {
  var el = document.createElement("bdi");
  el.className = "id";
  var edges = /^( *)([\s\S]*?)( *)$/.exec(id);
  function mark(c) {
    var m = document.createElement("span");
    m.className = "ws";
    m.textContent = c === " " ? "\u2423" : MARKS[c] || String.fromCharCode(0x2400 + c.charCodeAt(0));
    m.title = "U+" + ("000" + c.charCodeAt(0).toString(16).toUpperCase()).slice(-4);
    el.appendChild(m);
  }
  edges[1].split("").forEach(mark);
  edges[2].split(/([\u0000-\u001f\u007f])/).forEach(function (part, k) {
    if (k % 2) mark(part); else if (part) el.appendChild(document.createTextNode(part));
  });
  edges[3].split("").forEach(mark);
  return el;
}
function textElement(tag, className, text) {
  var el = document.createElement(tag);
  if (className) el.className = className;
  el.textContent = text;
  return el;
}
// What a section's head and a row say of themselves (`draw`, and `renumber` after a drop).
function sectionLabel(u) { return "Section " + sectionName(u) + ", " + state.table.sections[u].rows.length + " rows"; }
function sectionMeta(u) {
  var section = state.table.sections[u];
  return [section.kind, (section.tags || []).map(function (t) { return "#" + t; }).join(" ")].filter(Boolean).join(" ") + " " + section.rows.length;
}
function rowLabel(u, k) {
  var rows = state.table.sections[u].rows;
  return rowId(rows[k]) + ", row " + (k + 1) + " of " + rows.length + " in " + sectionName(u);
}
function draw() {
  var board = $("board"), drag = state.drag;
  state.drawToken = (state.drawToken || 0) + 1;
  board.innerHTML = "";
  // The slots drawn, by gap, so that a new hover changes two classes instead of the board.
  state.slotEls = {};
  board.className = drag ? (drag.kind === "row" ? "dragging" : "dragging-section") : "";
  var sections = state.table.sections;
  sections.forEach(function (section, u) {
    if (drag && drag.kind === "section") board.appendChild(sectionSlot(u));
    var box = document.createElement("div");
    box.className = "section" + (drag && drag.kind === "section" && drag.from === u ? " lifted" : "");
    box.dataset.section = u;
    var head = document.createElement("div");
    head.className = "section-head";
    head.tabIndex = 0;
    head.dataset.sectionHead = u;
    head.setAttribute("aria-label", sectionLabel(u));
    head.appendChild(idElement(sectionName(u)));
    head.appendChild(textElement("small", "", sectionMeta(u)));
    box.appendChild(head);
    var rows = document.createElement("div");
    rows.className = "rows";
    section.rows.forEach(function (row, k) {
      if (drag && drag.kind === "row") rows.appendChild(rowSlot(u, k));
      var el = document.createElement("div");
      el.className = "row";
      el.tabIndex = 0;
      el.dataset.section = u;
      el.dataset.row = k;
      el.dataset.id = rowId(row);
      el.setAttribute("aria-label", rowLabel(u, k));
      if (drag && drag.kind === "row" && drag.from[0] === u && drag.from[1] === k) el.className += " lifted";
      el.appendChild(idElement(rowId(row)));
      el.appendChild(textElement("span", "meta", rowMeta(row)));
      rows.appendChild(el);
    });
    if (drag && drag.kind === "row") rows.appendChild(rowSlot(u, section.rows.length));
    box.appendChild(rows);
    board.appendChild(box);
  });
  if (drag && drag.kind === "section") board.appendChild(sectionSlot(sections.length));
}
// A row picked up: the rows drawn stay, and the slots go in between them a few hundred at a
// time (one task each), so a 2,000-row board is never drawn again in one long task; the rows
// stay where they are on screen meanwhile. A slot made once the destinations have come, or
// once the cursor is on it, is made coloured and hovered (`rowSlot`).
function beginRowDrag(drag) {
  var board = $("board");
  if (!board.querySelector(".section")) { draw(); return; }
  board.className = "dragging";
  state.slotEls = {};
  var token = state.drawToken = (state.drawToken || 0) + 1;
  var lifted = board.querySelector('.row[data-section="' + drag.from[0] + '"][data-row="' + drag.from[1] + '"]');
  if (lifted) lifted.classList.add("lifted");
  var jobs = Array.from(board.querySelectorAll(".section")).map(function (box) {
    var list = box.querySelector(".rows");
    return { u: Number(box.dataset.section), list: list, rows: Array.from(list.children), k: 0 };
  });
  function step() {
    if (state.drawToken !== token || state.drag !== drag) return;
    var budget = 120;
    while (budget > 0 && jobs.length) {
      var job = jobs[0];
      for (; budget > 0 && job.k < job.rows.length; job.k++, budget--) job.list.insertBefore(rowSlot(job.u, job.k), job.rows[job.k]);
      if (job.k === job.rows.length) { job.list.appendChild(rowSlot(job.u, job.rows.length)); jobs.shift(); }
    }
    if (jobs.length) setTimeout(step, 0);
  }
  step();
}
// The destinations have come: each slot drawn is coloured where it stands (no new board; the
// slots' size does not change, so nothing is laid out again).
function paintSlots() {
  var drag = state.drag;
  if (!state.slotEls || drag.kind !== "row") { draw(); return; }
  Object.keys(state.slotEls).forEach(function (key) {
    var el = state.slotEls[key], u = Number(el.dataset.slotSection), j = ReorderClient.indexForGap(drag.from, u, Number(el.dataset.gap));
    el.classList.add(client.canDrop(u, j) ? "ok" : "no");
  });
}
// A gap between rows: `gap` counts rows as drawn (the dragged row still in place).
function rowSlot(u, gap) {
  var drag = state.drag, el = document.createElement("div");
  var j = ReorderClient.indexForGap(drag.from, u, gap);
  var ok = drag.ready && client.canDrop(u, j);
  el.className = "slot " + (drag.ready ? (ok ? "ok" : "no") : "") + (drag.hover && drag.hover[0] === u && drag.hover[1] === gap ? " hover" : "");
  el.dataset.slotSection = u; el.dataset.gap = gap; el.dataset.to = u + "." + j;
  state.slotEls[u + "." + gap] = el;
  return el;
}
function sectionSlot(gap) {
  var drag = state.drag, el = document.createElement("div");
  var b = gap > drag.from ? gap - 1 : gap;
  var ok = drag.ready && sectionAllowed(b);
  el.className = "sslot " + (drag.ready ? (ok ? "ok" : "no") : "") + (drag.hover === gap ? " hover" : "");
  el.dataset.sectionGap = gap; el.dataset.to = b;
  state.slotEls[String(gap)] = el;
  return el;
}
function sectionAllowed(b) {
  return (state.drag.valid || []).some(function (r) { return b >= r[0] && b <= r[1]; });
}

// ---- Dragging: one code path for pointer and keyboard -------------------------------------
function startDrag(kind, from, pointer) {
  state.lastResult = null;
  var drag = { kind: kind, from: from, ready: false, hover: null, pointer: pointer };
  state.drag = drag;
  if (kind === "row") beginRowDrag(drag); else draw();
  var name = kind === "row" ? rowId(state.table.sections[from[0]].rows[from[1]]) : sectionName(from);
  var request;
  if (kind === "row") {
    request = client.start(from[0], from[1]).then(function (a) { return a.canMove; });
  } else {
    request = playground({ "section-from": from, "section-to": from }).then(function (answer) {
      if (!answer.explain) { showLint(answer.lint); throw policyErrors(); }
      var result = answer.explain.results[0];
      drag.valid = result.valid || [];
      return result.decision !== "denied";
    });
  }
  return request.then(function (canMove) {
    if (state.drag !== drag) return;
    drag.ready = true; drag.canMove = canMove;
    paintSlots();
    announce("Picked up " + name + (canMove ? ". Green slots take it." : ". The policy does not let it move."));
  }, function (error) {
    // Nothing was decided (a policy with errors, or no answer): the drag ends, and says why.
    if (state.drag === drag) { state.drag = null; client.cancel(); draw(); focusLifted(drag); }
    showError(error, name + " was not picked up: ");
  });
}
function cancelDrag() {
  var drag = state.drag;
  if (!drag) return;
  state.drag = null; client.cancel();
  if (drag.kind === "row") endRowDrag(); else draw();
  announce("Move cancelled.");
}
// The board after a row drop, without drawing it again: the slots go, the row that moved goes
// to its target, and the rows of the sections it left and entered are numbered again (their
// attributes only: nothing is laid out but the row). False when the board is not the drag's.
function settleRowDrop(result) {
  if (!state.slotEls) return false;
  endRowDrag();
  if (result.decision !== "allowed" && result.decision !== "retargeted") return true;
  var from = result.move && result.move.from, to = result.target;
  var boxes = $("board").querySelectorAll(".section");
  if (!from || !boxes[from[0]] || !boxes[to[0]]) return false;
  var src = boxes[from[0]].querySelector(".rows"), dst = boxes[to[0]].querySelector(".rows"), el = src.children[from[1]];
  if (!el) return false;
  src.removeChild(el);
  dst.insertBefore(el, dst.children[to[1]] || null);
  renumber(from[0]);
  if (to[0] !== from[0]) renumber(to[0]);
  return true;
}
// Section `u`'s rows and head say where they stand now (as `draw` writes them).
function renumber(u) {
  var box = $("board").querySelectorAll(".section")[u];
  Array.prototype.forEach.call(box.querySelector(".rows").children, function (el, k) {
    el.dataset.section = u; el.dataset.row = k;
    el.setAttribute("aria-label", rowLabel(u, k));
  });
  var head = box.querySelector(".section-head");
  head.setAttribute("aria-label", sectionLabel(u));
  head.querySelector("small").textContent = sectionMeta(u);
}
// A row drag that moved nothing ends by taking its slots out: the rows drawn are as they were.
function endRowDrag() {
  var board = $("board");
  state.drawToken = (state.drawToken || 0) + 1;
  board.querySelectorAll(".slot").forEach(function (el) { el.remove(); });
  board.querySelectorAll(".row.lifted, .row.snapped, .row.snapped-no").forEach(function (el) { el.classList.remove("lifted", "snapped", "snapped-no"); });
  board.className = "";
  state.slotEls = {};
}
function finishDrag() {
  var drag = state.drag;
  if (!drag) return;
  if (drag.hover === null) return cancelDrag();
  var decided;
  if (drag.kind === "row") {
    var gap = drag.hover, j = ReorderClient.indexForGap(drag.from, gap[0], gap[1]);
    if (!drag.ready) { state.drag = null; client.cancel(); draw(); return; }
    decided = client.drop(gap[0], j);
  } else {
    var b = drag.hover > drag.from ? drag.hover - 1 : drag.hover;
    decided = playground({ "section-from": drag.from, "section-to": b }).then(function (answer) {
      if (!answer.explain) showLint(answer.lint);
      if (!answer.explain) throw new Error("the policy has errors; fix them to see decisions");
      var result = answer.explain.results[0];
      ReorderClient.apply(state.table, result);
      return result;
    });
  }
  state.drag = null;
  decided.then(function (result) { showDecision(result, drag.kind); }, function (e) { draw(); showError(e); });
}
function slotUnderAll(x, y) {
  var best = null, bestDistance = Infinity;
  var selector = state.drag.kind === "row" ? ".slot" : ".sslot";
  document.querySelectorAll(selector).forEach(function (el) {
    var r = el.getBoundingClientRect();
    var dx = x < r.left ? r.left - x : (x > r.right ? x - r.right : 0);
    var dy = y < r.top ? r.top - y : (y > r.bottom ? y - r.bottom : 0);
    var d = dx * 4 + dy;  // the column under the pointer first
    if (d < bestDistance) { bestDistance = d; best = el; }
  });
  if (!best) return null;
  return state.drag.kind === "row" ? [Number(best.dataset.slotSection), Number(best.dataset.gap)] : Number(best.dataset.sectionGap);
}
function sameHover(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
function slotKey(h) { return h === null || h === undefined ? null : (Array.isArray(h) ? h[0] + "." + h[1] : String(h)); }
// A new hovered slot: only the two slots' classes change (a board of 2,000 rows is not drawn
// again for each slot the pointer passes).
function setHover(hover) {
  var drag = state.drag, old = state.slotEls && state.slotEls[slotKey(drag.hover)];
  drag.hover = hover;
  var now = state.slotEls && state.slotEls[slotKey(hover)];
  if (old) old.classList.remove("hover");
  if (now) now.classList.add("hover");
}
// The slot nearest the pointer: the column under it first (its box's distance, across before
// down), then by binary search over that column's slots, which lie top to bottom: a few
// rectangles read, not one per row.
function slotUnder(x, y) {
  var drag = state.drag;
  if (drag.kind !== "row") return slotUnderAll(x, y);
  var best = null, bestDistance = Infinity;
  document.querySelectorAll("#board .section").forEach(function (box) {
    var r = box.getBoundingClientRect();
    var dx = x < r.left ? r.left - x : (x > r.right ? x - r.right : 0);
    var dy = y < r.top ? r.top - y : (y > r.bottom ? y - r.bottom : 0);
    var d = dx * 4 + dy;
    if (d < bestDistance) { bestDistance = d; best = box; }
  });
  if (!best) return null;
  var slots = best.querySelectorAll(".slot");
  if (!slots.length) return null;
  var lo = 0, hi = slots.length - 1;
  while (lo < hi) {
    var mid = (lo + hi) >> 1, r = slots[mid].getBoundingClientRect();
    if (r.bottom < y) lo = mid + 1; else hi = mid;
  }
  // The slot found or the one above it, whichever is nearer.
  var pick = slots[lo];
  if (lo > 0) {
    var a = slots[lo - 1].getBoundingClientRect(), b = slots[lo].getBoundingClientRect();
    var da = y > a.bottom ? y - a.bottom : (y < a.top ? a.top - y : 0), db = y < b.top ? b.top - y : (y > b.bottom ? y - b.bottom : 0);
    if (da < db) pick = slots[lo - 1];
  }
  return [Number(pick.dataset.slotSection), Number(pick.dataset.gap)];
}
$("board").addEventListener("pointerdown", function (e) {
  if (e.button !== 0 || state.drag) return;
  var row = e.target.closest(".row"), head = e.target.closest(".section-head");
  if (!row && !head) return;
  e.preventDefault();
  var target = row || head;
  target.focus();
  var from = row ? [Number(row.dataset.section), Number(row.dataset.row)] : Number(head.dataset.sectionHead);
  state.press = { x: e.clientX, y: e.clientY, kind: row ? "row" : "section", from: from, id: e.pointerId };
});
document.addEventListener("pointermove", function (e) {
  if (state.press && !state.drag) {
    if (Math.abs(e.clientX - state.press.x) + Math.abs(e.clientY - state.press.y) < 4) return;
    startDrag(state.press.kind, state.press.from, true);
  }
  if (!state.drag || !state.drag.pointer) return;
  state.pointerX = e.clientX; state.pointerY = e.clientY;
  autoScroll();
  var hover = slotUnder(e.clientX, e.clientY);
  if (!sameHover(hover, state.drag.hover)) setHover(hover);
});
// Near the window's top or bottom edge during a pointer drag, the page scrolls (faster nearer
// the edge), and the slot under the pointer follows.
function autoScroll() {
  if (state.scrolling) return;
  function step() {
    var drag = state.drag, y = state.pointerY, edge = 48, h = window.innerHeight;
    if (!drag || !drag.pointer || y === undefined) { state.scrolling = false; return; }
    var dy = y < edge ? -(edge - y) : (y > h - edge ? y - (h - edge) : 0);
    if (!dy) { state.scrolling = false; return; }
    window.scrollBy(0, Math.round(dy / 2));
    var hover = slotUnder(state.pointerX, y);
    if (!sameHover(hover, drag.hover)) setHover(hover);
    state.scrolling = true;
    requestAnimationFrame(step);
  }
  step();
}
document.addEventListener("pointerup", function (e) {
  var press = state.press; state.press = null;
  if (!press || !state.drag || !state.drag.pointer) return;
  // The slot shown as hovered is where the row goes (the layout moved under the pointer).
  if (state.drag.hover === null) state.drag.hover = slotUnder(e.clientX, e.clientY);
  var drag = state.drag;
  if (!drag.ready) {
    // The destinations are still on their way: drop as soon as they are here.
    var wait = setInterval(function () { if (drag.ready || state.drag !== drag) { clearInterval(wait); if (state.drag === drag) finishDrag(); } }, 20);
    return;
  }
  finishDrag();
});
// Escape cancels a pointer drag (or a press not yet a drag): the row stays where it was, and
// the release afterwards does nothing.
document.addEventListener("keydown", function (e) {
  if (e.key !== "Escape") return;
  var pointerDrag = state.drag && state.drag.pointer;
  if (!pointerDrag && !state.press) return;
  state.press = null;
  if (pointerDrag) { e.preventDefault(); var drag = state.drag; cancelDrag(); focusLifted(drag); }
});

// Keyboard: the same drag, with a slot cursor moved by the arrow keys.
// Positions: where the lifted row would land, counted after its removal (a section's rows, plus
// one at the end; its own section has one fewer, the gaps above and below it being the same
// place). A position is drawn as a gap between the rows as they stand (the lifted row still in).
function positionCount(u) { var n = state.table.sections[u].rows.length; return u === state.drag.from[0] ? n : n + 1; }
function gapOf(u, j) { var from = state.drag.from; return u === from[0] && j > from[1] ? j + 1 : j; }
function describeHover() {
  var drag = state.drag, h = drag.hover;
  if (drag.kind === "row") {
    var j = ReorderClient.indexForGap(drag.from, h[0], h[1]);
    return sectionName(h[0]) + ", position " + (j + 1) + ": " + (client.canDrop(h[0], j) ? "allowed" : "refused");
  }
  var b = h > drag.from ? h - 1 : h;
  return "section position " + (b + 1) + ": " + (sectionAllowed(b) ? "allowed" : "refused");
}
$("board").addEventListener("keydown", function (e) {
  var drag = state.drag;
  if (!drag) {
    if (e.key !== " " && e.key !== "Enter") return;
    var row = e.target.closest(".row"), head = e.target.closest(".section-head");
    if (!row && !head) return;
    e.preventDefault();
    var from = row ? [Number(row.dataset.section), Number(row.dataset.row)] : Number(head.dataset.sectionHead);
    var kind = row ? "row" : "section";
    startDrag(kind, from, false).then(function () {
      if (state.drag && !state.drag.pointer) {
        if (kind === "row") setHover([from[0], from[1]]); else { state.drag.hover = from; draw(); }
        focusLifted();
      }
    });
    return;
  }
  if (drag.pointer) return;
  if (e.key === "Escape") { e.preventDefault(); cancelDrag(); focusLifted(drag); return; }
  if (e.key === " " || e.key === "Enter") { e.preventDefault(); if (drag.ready) finishDrag(); return; }
  var moves = { ArrowDown: 1, ArrowUp: -1, ArrowRight: 1, ArrowLeft: -1 };
  if (!(e.key in moves) || !drag.ready || drag.hover === null) return;
  e.preventDefault();
  var step = moves[e.key], last = state.table.sections.length - 1;
  if (drag.kind === "row") {
    var u = drag.hover[0], j = ReorderClient.indexForGap(drag.from, u, drag.hover[1]);
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      // The same position in the neighbouring section, or its last one.
      if (u + step >= 0 && u + step <= last) { u += step; j = Math.min(j, positionCount(u) - 1); }
    } else if (j + step >= 0 && j + step < positionCount(u)) {
      j += step;
    } else if (u + step >= 0 && u + step <= last) {
      // Past a section's first or last position: the last or first of the next section up or down.
      u += step; j = step > 0 ? 0 : positionCount(u) - 1;
    }
    setHover([u, gapOf(u, j)]);
  } else {
    // A section's positions, counted after its removal, drawn as gaps between the sections.
    var b = drag.hover > drag.from ? drag.hover - 1 : drag.hover;
    b = Math.max(0, Math.min(last, b + step));
    setHover(b > drag.from ? b + 1 : b);
  }
  focusLifted();
  var cursor = state.slotEls[slotKey(drag.hover)];
  if (cursor && cursor.scrollIntoView) cursor.scrollIntoView({ block: "nearest" });
  announce(describeHover());
});
function focusLifted(drag) {
  var el = document.querySelector(".row.lifted, .section.lifted .section-head");
  if (!el && drag) el = drag.kind === "row" ? document.querySelector('.row[data-section="' + drag.from[0] + '"][data-row="' + drag.from[1] + '"]') : document.querySelector('[data-section-head="' + drag.from + '"]');
  if (el) el.focus();
}

// ---- The decision --------------------------------------------------------------------------
function place(p) { return sectionName(p[0]) + ", position " + (p[1] + 1) + " (" + p[0] + "." + p[1] + ")"; }
// The decision's word, then its target: the section's name as an id element.
function decisionLine(word, rest) {
  var body = $("decision-body"), w = textElement("span", "word " + word, word);
  w.id = "decision-word";
  body.textContent = "";
  body.appendChild(w);
  rest.forEach(function (piece) { body.appendChild(typeof piece === "string" ? document.createTextNode(piece) : piece); });
}
function targetElement(value, pieces) {
  var b = document.createElement("b");
  b.id = "decision-target"; b.dataset.target = value;
  pieces.forEach(function (piece) { b.appendChild(typeof piece === "string" ? document.createTextNode(piece) : piece); });
  return b;
}
function showDecision(result, kind) {
  state.lastResult = result;
  if (!(kind === "row" && settleRowDrop(result))) draw();
  var target = result.target;
  var text;
  if (result.decision === "invalid") {
    decisionLine("invalid", [result.error || ""]);
    text = "invalid: " + (result.error || "");
  } else if (kind === "row") {
    decisionLine(result.decision, ["target ", targetElement(target.join("."),
      [idElement(sectionName(target[0])), ", position " + (target[1] + 1) + " (" + target[0] + "." + target[1] + ")"])]);
    text = result.decision + ", target " + place(target);
    var el = document.querySelector('.row[data-section="' + target[0] + '"][data-row="' + target[1] + '"]');
    if (el) { el.classList.add(result.decision === "allowed" || result.decision === "retargeted" ? "snapped" : "snapped-no"); el.focus(); }
  } else {
    decisionLine(result.decision, ["section target ", targetElement(String(target), [idElement(sectionName(target)), " (" + target + ")"])]);
    text = result.decision + ", section target " + sectionName(target);
    var head = document.querySelector('[data-section-head="' + target + '"]');
    if (head) head.focus();
  }
  var list = $("violations");
  list.innerHTML = "";
  (result.violations || []).forEach(function (v) {
    var li = document.createElement("li");
    li.dataset.rule = v.rule;
    li.dataset.line = v.location ? v.location.line : "";
    li.innerHTML = '<div><b class="message">' + escapeHTML(v.message || "") + '</b></div><div class="reason">' + escapeHTML(v.reason) +
      '</div><div class="rule">' + escapeHTML(v.rule) + " · " + escapeHTML(v.kind) + (v.location ? " · line " + v.location.line : "") + "</div>";
    li.addEventListener("click", function () { if (v.location) goToLine(v.location.line); });
    list.appendChild(li);
    text += ". " + (v.message ? v.message + " " : "") + v.reason;
  });
  var first = (result.violations || []).find(function (v) { return v.location; });
  if (first) { var t = $("policy"); t.scrollTop = Math.max(0, (first.location.line - 5) * 20); }
  $("table-json").value = JSON.stringify(state.table, null, 2);
  paintEditor();
  announce(text);
}
// An error instead of a decision (a policy with errors, a failed request); `prefix` says what
// did not happen.
function showError(error, prefix) {
  var message = (prefix || "") + String(error.message || error);
  decisionLine("error", [message]);
  $("violations").innerHTML = "";
  announce(message);
}
// No decision on screen: the hint, no violations, no highlighted rule lines.
function clearDecision() {
  state.lastResult = null;
  $("decision-body").textContent = "";
  $("decision-body").appendChild(textElement("span", "hint", "Drop a row to see the policy decide."));
  $("violations").innerHTML = "";
  paintEditor();
}
function announce(text) { var live = $("live"); live.textContent = ""; setTimeout(function () { live.textContent = text; }, 30); live.dataset.last = text; }

// ---- Examples, the table's JSON and the share link -----------------------------------------
function base64url(text) { var bytes = new TextEncoder().encode(text), s = ""; bytes.forEach(function (b) { s += String.fromCharCode(b); });
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""); }
// base64url back to text: throws on anything but base64url characters and valid UTF-8.
function unbase64url(s) {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new Error("not base64url");
  var raw = atob(s.replace(/-/g, "+").replace(/_/g, "/")), bytes = new Uint8Array(raw.length);
  for (var k = 0; k < raw.length; k++) bytes[k] = raw.charCodeAt(k);
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}
$("share").addEventListener("click", function () {
  var hash = "#policy=" + base64url($("policy").value) + "&table=" + base64url(JSON.stringify(state.table));
  history.replaceState(null, "", hash);
  $("share-link").value = location.href;
  $("share-link").select();
  if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(function () {});
});
// Why `t` cannot be drawn as a table, or null: { "sections": [{ "rows": [...] }, ...] }.
function tableProblem(t) {
  if (!t || typeof t !== "object" || !Array.isArray(t.sections)) return "expected { \"sections\": [...] }";
  var bad = t.sections.findIndex(function (s) { return !s || typeof s !== "object" || !Array.isArray(s.rows); });
  return bad < 0 ? null : "section " + bad + " has no \"rows\": [...]";
}
$("table-json").addEventListener("input", function () {
  try { var t = JSON.parse($("table-json").value), problem = tableProblem(t); if (problem) throw new Error(problem);
    state.table = t; client.table = t; draw(); relint(); $("table-json-status").textContent = "";
  } catch (e) { $("table-json-status").textContent = "not a table yet: " + e.message; }
});
function tableFor(policyText) {
  var m = /table:\s*([^\s{}]+\.ya?ml)/.exec(policyText);
  if (!m) return null;
  var found = state.tables.find(function (t) { return t.file.endsWith("/" + m[1]) || t.file === m[1]; });
  return found ? found.file : null;
}
// The Table menu's entry for a table that came with a link (state.linkTable, as JSON text).
var LINK = "#link";
function loadTable(file) {
  var t = file === LINK ? state.linkTable : state.tables.find(function (t) { return t.file === file; });
  if (!t) return;
  state.tableFile = file; $("table-example").value = file;
  clearDecision();
  setTable(JSON.parse(file === LINK ? t : JSON.stringify(t.table)));
}
function loadPolicy(name) {
  var p = state.policies.find(function (p) { return p.name === name; });
  if (!p) return;
  $("policy-example").value = name;
  $("policy").value = p.text;
  clearDecision();
  var file = tableFor(p.text);
  if (file) loadTable(file);
  paintEditor(); relint();
}
function showNotice(text) { $("notice").textContent = text; $("notice").hidden = !text; }
// Once another example is picked, the link's case is gone from the address too: a reload shows
// what is on screen, not the link.
function dropLink() {
  showNotice("");
  $("share-link").value = "";
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
}
$("policy-example").addEventListener("change", function () { if (this.value) { dropLink(); loadPolicy(this.value); } });
$("table-example").addEventListener("change", function () { if (this.value !== LINK) dropLink(); loadTable(this.value); relint(); });
$("reset-table").addEventListener("click", function () { if (state.tableFile) loadTable(state.tableFile); });
// A link's fragment (#policy=…&table=…, from Share link): its policy and table, or a message and
// the first example when it cannot be read.
function openLink() {
  var hash = new URLSearchParams(location.hash.slice(1));
  if (!hash.has("policy") && !hash.has("table")) return false;
  var policy, table, problem;
  try { policy = unbase64url(hash.get("policy") || ""); } catch (e) { problem = "its policy is not base64url-encoded UTF-8 text"; }
  if (!problem) {
    try { table = JSON.parse(unbase64url(hash.get("table") || "")); problem = tableProblem(table); }
    catch (e) { problem = "its table is not base64url-encoded table JSON"; }
  }
  if (!hash.has("policy") || !hash.has("table")) problem = "it needs both #policy=… and table=…";
  if (problem) {
    showNotice("This link could not be opened (" + problem + "); the first example is shown instead.");
    if (state.policies.length) loadPolicy(state.policies[0].name);
    return true;
  }
  showNotice("");
  state.linkTable = JSON.stringify(table);
  var menu = $("table-example"), option = menu.querySelector('option[value="' + LINK + '"]');
  if (!option) { option = textElement("option", "", "(from the link)"); option.value = LINK; menu.insertBefore(option, menu.firstChild); }
  $("policy-example").value = "";
  $("policy").value = policy;
  loadTable(LINK);
  paintEditor(); relint();
  return true;
}
window.addEventListener("hashchange", openLink);
fetch("/v1/playground/examples").then(function (r) { return r.json(); }).then(function (examples) {
  state.policies = examples.policies; state.tables = examples.tables;
  $("policy-example").innerHTML = '<option value="">(your own)</option>' + examples.policies.map(function (p) {
    return '<option value="' + escapeHTML(p.name) + '">' + escapeHTML(p.name) + "</option>"; }).join("");
  $("table-example").innerHTML = examples.tables.map(function (t) {
    return '<option value="' + escapeHTML(t.file) + '">' + escapeHTML(t.file) + "</option>"; }).join("");
  if (!openLink() && examples.policies.length) loadPolicy(examples.policies[0].name);
  document.body.dataset.ready = "true";
}, showError);
paintEditor();
</script>
</body>
</html>
"""#
}
#endif
