#if Server  // the server is built with the `Server` trait only (Package.swift)
/// The client's runnable example pages, served with `--playground` at `/examples/html5.html`
/// and `/examples/sortable.html` (docs/SERVER.md, "The browser client"). Both decide drops
/// against the served `board` policy (policies/board.yaml) on the table of
/// policies/tables/sprint.yaml, through `/client.js`.
enum ExamplePages {
    /// Where Debian's `libjs-sortable` puts SortableJS; served at `/examples/Sortable.min.js`.
    static let sortableLibraryPath = "/usr/share/javascript/sortable/Sortable.min.js"

    private static let style = #"""
<style>
  body { font: 14px/1.4 system-ui, "DejaVu Sans", sans-serif; margin: 20px; color: #1d2330; background: #f6f7f9; }
  .board { display: flex; gap: 12px; align-items: flex-start; }
  .list { flex: 1; max-width: 220px; min-height: 60px; background: #eceff3; border-radius: 10px; padding: 8px; border: 2px solid transparent; }
  .list h2 { font-size: 14px; margin: 0 0 6px; }
  .list[data-drop="ok"] { border-color: #1f9d55; } .list[data-drop="refused"] { border-color: #d92d20; }
  .item { background: #fff; border: 1px solid #dde1e6; border-radius: 7px; padding: 7px 9px; margin: 4px 0; cursor: grab; user-select: none; }
  .list .footer { font-size: 12px; color: #5b6472; padding: 4px 2px 0; }
  .sortable-ghost { opacity: .4; }
  #status { margin-top: 14px; font-weight: 600; }
  code { background: #e9ecef; padding: 1px 4px; border-radius: 4px; }
</style>
"""#

    /// The sprint table (policies/tables/sprint.yaml) as request JSON.
    private static let table = #"""
{"sections": [
  {"id": "Backlog", "rows": ["Login page", {"id": "Payments", "tags": ["blocked"]}, "Search"]},
  {"id": "Doing", "rows": ["Signup", "Profile", "Settings"]},
  {"id": "Review", "rows": ["Onboarding"]},
  {"id": "Archive", "rows": ["Logo", "Landing page"]}]}
"""#

    private static let drawing = #"""
function rowId(row) { return typeof row === "object" ? row.id : row; }
function draw(table, listTag) {
  table.sections.forEach(function (section, u) {
    var list = document.querySelector('[data-section="' + u + '"]');
    list.querySelectorAll(".item").forEach(function (e) { e.remove(); });
    // The rows go between the list's header and its footer, which are not rows.
    var footer = list.querySelector(".footer");
    section.rows.forEach(function (row) {
      var item = document.createElement("div");
      item.className = "item"; item.dataset.row = ""; item.draggable = listTag === "html5";
      item.textContent = rowId(row);
      list.insertBefore(item, footer);
    });
  });
}
function show(table, result, error) {
  draw(table, window.listTag);
  var status = document.getElementById("status");
  if (error || !result) {
    status.textContent = error ? "error: " + error.message : "Drag a card.";
    status.dataset.decision = error ? "error" : "";
    status.dataset.target = "";
    return;
  }
  var violations = result.violations || [];
  status.textContent = result.decision + (Array.isArray(result.target) ? " → " + result.target.join(".") : "") +
    (result.error ? ": " + result.error : "") +
    (violations.length ? ": " + violations.map(function (v) { return v.reason; }).join("; ") : "");
  status.dataset.decision = result.decision;
  status.dataset.target = Array.isArray(result.target) ? result.target.join(".") : "";
}
"""#

    private static func lists(_ items: Bool) -> String {
        ["Backlog", "Doing", "Review", "Archive"].enumerated().map { u, name in
            "<div class=\"list\" data-section=\"\(u)\"><h2>\(name)</h2><div class=\"footer\">+ Add card</div></div>"
        }.joined(separator: "\n  ")
    }

    /// SortableJS: `onMove` answers from the destinations fetched at `onStart`, with no request.
    static let sortable = """
<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>reorder-policy + SortableJS</title>
\(style)</head>
<body>
<h1>SortableJS with reorder-policy</h1>
<p>Policy <code>board</code>. <code>onStart</code> asks the server once for the card's valid destinations;
<code>onMove</code> refuses every other slot synchronously; <code>onEnd</code> posts the move and draws the decision.</p>
<div class="board">
  \(lists(true))
</div>
<div id="status" role="status" aria-live="polite">Drag a card.</div>
<script src="Sortable.min.js"></script>
<script src="/client.js"></script>
<script>
window.listTag = "sortable";
\(drawing)
if (typeof Sortable !== "function") {
  // The server answers /examples/Sortable.min.js from Debian's libjs-sortable, or 404s.
  document.getElementById("status").textContent = "SortableJS is missing: the server found no " +
    "\(sortableLibraryPath) (Debian: apt-get install libjs-sortable, then restart the server).";
  document.getElementById("status").dataset.decision = "missing";
} else {
  var client = new ReorderClient({ server: "", policy: "board", table: \(table) });
  draw(client.table, "sortable");
  var hooks = ReorderClient.sortable(client, { render: show });
  document.querySelectorAll(".list").forEach(function (list) {
    // forceFallback: SortableJS drags with mouse events instead of native HTML5 drag and drop.
    // Only the cards are draggable: each list's header and footer are not rows.
    new Sortable(list, Object.assign({ group: "board", draggable: ".item", animation: 0, forceFallback: true, fallbackOnBody: true }, hooks));
  });
}
</script>
</body>
</html>
"""

    /// Plain HTML5 drag and drop: dragover allows the drop only where `canDrop` says so.
    static let html5 = """
<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>reorder-policy + HTML5 drag and drop</title>
\(style)</head>
<body>
<h1>HTML5 drag and drop with reorder-policy</h1>
<p>Policy <code>board</code>. <code>dragstart</code> asks the server once for the card's valid destinations;
<code>dragover</code> accepts the drop (<code>preventDefault</code>) only on those; <code>drop</code> posts the move.</p>
<div class="board" id="board">
  \(lists(false))
</div>
<div id="status" role="status" aria-live="polite">Drag a card.</div>
<script src="/client.js"></script>
<script>
window.listTag = "html5";
\(drawing)
var client = new ReorderClient({ server: "", policy: "board", table: \(table) });
draw(client.table, "html5");
ReorderClient.html5(client, document.getElementById("board"), { rowSelector: ".item", sectionSelector: ".list", render: show });
</script>
</body>
</html>
"""
}
#endif
