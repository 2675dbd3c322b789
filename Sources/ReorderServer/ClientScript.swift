#if Server  // the server is built with the `Server` trait only (Package.swift)
/// `GET /client.js`: the dependency-free browser client (docs/SERVER.md, "The browser client").
/// Served always, with or without `--playground`: a production page that uses the decision
/// server needs it, and it is static text.
enum ClientScript {
    static let source = #"""
// reorder-policy client: the server's decisions inside a web page's drag.
// At drag start it asks the server once for the row's valid destinations; while the row is
// dragged, canDrop(section, row) answers synchronously from them; on drop it posts the move and
// applies the decision to its table. No dependencies. Served by reorder-policy-server at /client.js.
(function (global) {
  "use strict";

  function post(url, body) {
    return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (response) {
        return response.json().then(function (json) {
          if (!response.ok) {
            var error = new Error((json.error && json.error.message) || ("HTTP " + response.status));
            error.code = json.error && json.error.code;
            throw error;
          }
          return json;
        });
      });
  }

  /// Talks to a served policy: POST /v1/policies/{name}/destinations and .../check.
  function serverTransport(server, policy) {
    var base = (server || "").replace(/\/$/, "") + "/v1/policies/" + encodeURIComponent(policy);
    return {
      destinations: function (table, from) { return post(base + "/destinations", { table: table, from: from }); },
      decide: function (table, move) {
        return post(base + "/check", { table: table, moves: [move] }).then(function (answer) { return answer.results[0]; });
      }
    };
  }

  function ReorderClient(options) {
    if (!(this instanceof ReorderClient)) return new ReorderClient(options);
    this.table = options.table;
    this.transport = options.transport || serverTransport(options.server, options.policy);
    this.from = null;
    this.valid = null;
    this.canMove = false;
    this.pending = null;
  }

  /// Starts a drag of the row at [section, row]: one request for its valid destinations.
  /// Resolves to { canMove, valid } (the `valid` ranges `explain` computes).
  ReorderClient.prototype.start = function (section, row) {
    var self = this;
    var from = [section, row];
    self.from = from;
    self.valid = null;
    self.error = null;
    self.canMove = false;
    self.pending = self.transport.destinations(self.table, from).then(function (answer) {
      if (self.from !== from) return answer;  // a later drag started meanwhile
      self.valid = answer.valid || [];
      self.canMove = answer["can-move"] !== false && self.valid.length > 0;
      return { canMove: self.canMove, valid: self.valid };
    }, function (error) {
      // No destinations (an error answer, or no server): the drag refuses every slot, and its
      // drop reports this error instead of posting a move.
      if (self.from === from) { self.from = null; self.valid = null; self.error = error; }
      throw error;
    });
    return self.pending;
  };

  /// Whether the row being dragged may be dropped so that it lands at [section, row] (row
  /// counted after the dragged row is removed, as in a moves file). Synchronous: no request.
  /// False until start()'s answer has arrived.
  ReorderClient.prototype.canDrop = function (section, row) {
    if (!this.valid) return false;
    for (var k = 0; k < this.valid.length; k++) {
      var v = this.valid[k];
      if (v.section !== section) continue;
      for (var m = 0; m < v.rows.length; m++) {
        if (row >= v.rows[m][0] && row <= v.rows[m][1]) return true;
      }
    }
    return false;
  };

  /// Whether a drag is under way and its destinations are known.
  ReorderClient.prototype.ready = function () { return this.valid !== null; };

  /// Drops the dragged row at [section, row]: posts the move, applies the decision to
  /// `this.table` (the row goes to the decision's target) and resolves to the decision
  /// ({ move, decision, target, violations, ... }).
  ReorderClient.prototype.drop = function (section, row) {
    var self = this;
    var from = self.from;
    if (!from) return Promise.reject(self.error || new Error("no drag under way"));
    var move = { from: from, to: [section, row] };
    self.from = null;
    self.valid = null;
    return self.transport.decide(self.table, move).then(function (result) {
      ReorderClient.apply(self.table, result);
      return result;
    });
  };

  /// Ends a drag without a drop.
  ReorderClient.prototype.cancel = function () {
    this.from = null;
    this.valid = null;
  };

  /// Applies a decision (a result of check or explain) to a table: allowed and retargeted
  /// moves put the row (or section) at the target; other decisions change nothing.
  ReorderClient.apply = function (table, result) {
    if (result.decision !== "allowed" && result.decision !== "retargeted") return table;
    if (result.move["section-from"] !== undefined) {
      var section = table.sections.splice(result.move["section-from"], 1)[0];
      table.sections.splice(result.target, 0, section);
      return table;
    }
    var from = result.move.from, to = result.target;
    var row = table.sections[from[0]].rows.splice(from[1], 1)[0];
    table.sections[to[0]].rows.splice(to[1], 0, row);
    return table;
  };

  /// The index a drop lands at when it is made before the gap `gap` (0...n) of a section as it
  /// is drawn with the dragged row still in place: the row index after the removal.
  ReorderClient.indexForGap = function (from, section, gap) {
    return (from && from[0] === section && gap > from[1]) ? gap - 1 : gap;
  };

  ReorderClient.serverTransport = serverTransport;

  /// The rows of a list as SortableJS counts them: the list's children that match its
  /// `draggable` selector (a leading ">" means "a direct child", as in SortableJS), leaving out
  /// `skip` (the dragged row, so that the count is the index after its removal), SortableJS's
  /// floating copy and anything hidden. Headers, footers and other children are not rows.
  function itemsOf(list, selector, skip) {
    var own = selector.charAt(0) === ">" ? selector.slice(1) : selector;
    var sortable = global.Sortable;
    var items = [];
    for (var c = list.firstElementChild; c; c = c.nextElementSibling) {
      if (c === skip || (sortable && c === sortable.ghost) || c.style.display === "none") continue;
      if (c.classList && c.classList.contains("sortable-fallback")) continue;
      if (own === "*" || (c.matches && c.matches(own))) items.push(c);
    }
    return items;
  }

  /// Reports an error answer (a destinations or check request that failed) to `render`, so the
  /// page can say it; a drag whose destinations could not be had refuses every slot.
  function failed(client, options) {
    return function (error) {
      if (options.render) options.render(client.table, null, error);
      else if (global.console) global.console.error("reorder-policy:", error && error.message);
      return null;
    };
  }

  /// SortableJS adapter. Spread the result into each list's Sortable options:
  ///   new Sortable(listElement, Object.assign({ group: "board", draggable: ".item" }, ReorderClient.sortable(client, { render })))
  /// Only the list's draggable items are rows: a header or a footer inside the list is not
  /// counted (SortableJS's oldDraggableIndex/newDraggableIndex, and the same count in onMove).
  /// `sectionOf(listElement)` gives a list's section index (default: its data-section
  /// attribute); `draggable` is the rows' selector (default: the list's Sortable `draggable`
  /// option); `render(table, result, error)` redraws after a drop (Sortable has moved the
  /// element already; the decision may put it elsewhere or back) and is told of error answers.
  ReorderClient.sortable = function (client, options) {
    options = options || {};
    var sectionOf = options.sectionOf || function (list) { return Number(list.dataset.section); };
    var selectorOf = function (list) {
      if (options.draggable) return options.draggable;
      var sortable = global.Sortable && global.Sortable.get && global.Sortable.get(list);
      return (sortable && sortable.options && sortable.options.draggable) || ">*";
    };
    // The row's index among the list's rows, for SortableJS versions without *DraggableIndex.
    var rowIndex = function (list, element) { return itemsOf(list, selectorOf(list), null).indexOf(element); };
    return {
      onStart: function (event) {
        var row = typeof event.oldDraggableIndex === "number" ? event.oldDraggableIndex : rowIndex(event.from, event.item);
        client.start(sectionOf(event.from), row).catch(failed(client, options));
      },
      onMove: function (event) {
        // Synchronous: SortableJS needs the answer now. false refuses the slot. The slot is
        // counted among the target list's rows without the dragged one (the index after the
        // removal): before `related`, or after it when SortableJS inserts after it; `related`
        // is the list itself when it holds no other row.
        var rows = itemsOf(event.to, selectorOf(event.to), event.dragged);
        var index = event.related === event.to ? rows.length : rows.indexOf(event.related);
        if (index < 0) return false;
        if (event.related !== event.to && event.willInsertAfter) index += 1;
        return client.canDrop(sectionOf(event.to), index);
      },
      onEnd: function (event) {
        var row = typeof event.newDraggableIndex === "number" ? event.newDraggableIndex : rowIndex(event.to, event.item);
        var dropped = client.drop(sectionOf(event.to), row);
        dropped.then(function (result) { if (options.render) options.render(client.table, result); }, failed(client, options));
        return dropped;
      }
    };
  };

  /// Plain HTML5 drag and drop adapter. Rows are elements matching `rowSelector` (default
  /// "[data-row]") inside sections matching `sectionSelector` (default "[data-section]"),
  /// in table order. A drop is allowed by the browser (dragover's preventDefault) only on the
  /// slots canDrop accepts; `render(table, result)` redraws after the decision.
  /// Returns a function that removes the listeners.
  ReorderClient.html5 = function (client, root, options) {
    options = options || {};
    var rowSelector = options.rowSelector || "[data-row]";
    var sectionSelector = options.sectionSelector || "[data-section]";
    var sections = function () { return Array.prototype.slice.call(root.querySelectorAll(sectionSelector)); };
    var dragged = null;

    function slotAt(event) {
      var sectionElement = event.target.closest && event.target.closest(sectionSelector);
      if (!sectionElement) return null;
      var section = sections().indexOf(sectionElement);
      var rows = Array.prototype.slice.call(sectionElement.querySelectorAll(rowSelector));
      var gap = rows.length;
      for (var k = 0; k < rows.length; k++) {
        var box = rows[k].getBoundingClientRect();
        if (event.clientY < box.top + box.height / 2) { gap = k; break; }
      }
      return [section, ReorderClient.indexForGap(client.from, section, gap)];
    }

    function mark(slot) {
      root.querySelectorAll("[data-drop]").forEach(function (e) { e.removeAttribute("data-drop"); });
      if (!slot) return;
      var target = sections()[slot[0]];
      if (target) target.setAttribute("data-drop", client.canDrop(slot[0], slot[1]) ? "ok" : "refused");
    }

    function onDragStart(event) {
      var rowElement = event.target.closest && event.target.closest(rowSelector);
      if (!rowElement) return;
      var sectionElement = rowElement.closest(sectionSelector);
      var section = sections().indexOf(sectionElement);
      var row = Array.prototype.slice.call(sectionElement.querySelectorAll(rowSelector)).indexOf(rowElement);
      dragged = rowElement;
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", rowElement.textContent);
      client.start(section, row).catch(failed(client, options));
    }
    function onDragOver(event) {
      if (!dragged) return;
      var slot = slotAt(event);
      mark(slot);
      if (slot && client.canDrop(slot[0], slot[1])) {
        event.preventDefault();  // this slot takes the row
        event.dataTransfer.dropEffect = "move";
      }
    }
    function onDrop(event) {
      if (!dragged) return;
      event.preventDefault();
      var slot = slotAt(event);
      dragged = null;
      mark(null);
      if (!slot) return client.cancel();
      client.drop(slot[0], slot[1]).then(function (result) { if (options.render) options.render(client.table, result); },
                                          failed(client, options));
    }
    function onDragEnd() {
      if (dragged) client.cancel();
      dragged = null;
      mark(null);
    }
    root.addEventListener("dragstart", onDragStart);
    root.addEventListener("dragover", onDragOver);
    root.addEventListener("drop", onDrop);
    root.addEventListener("dragend", onDragEnd);
    return function () {
      root.removeEventListener("dragstart", onDragStart);
      root.removeEventListener("dragover", onDragOver);
      root.removeEventListener("drop", onDrop);
      root.removeEventListener("dragend", onDragEnd);
    };
  };

  global.ReorderClient = ReorderClient;
})(typeof window !== "undefined" ? window : this);
"""#
}
#endif
