/// Draws the sections a move touches: one line per row with its index and id, marks for
/// held rows, the moving row, and the proposed and target slots. Long sections elide their
/// middle with a marked gap; every line fits in 100 columns.
public enum TableDrawing {
    static let idWidth = 40

    /// The drawing's lines for a row or section move.
    public static func draw(_ e: Explanation, bound: BoundPolicy, style: TerminalStyle) -> [String] {
        switch e.decision.move {
        case .row(let from, let to): return drawRows(from: from, to: to, decision: e.decision, bound: bound, style: style)
        case .section(let from, let to): return drawSections(from: from, to: to, decision: e.decision, bound: bound, style: style)
        }
    }

    /// One line of a drawing: a row, a slot marker or a gap.
    enum Line {
        case row(Int)
        case slot(String)
        case gap(Int)
    }

    private static func drawRows(from: Position, to: Position, decision: Decision, bound: BoundPolicy, style: TerminalStyle) -> [String] {
        var target: Position? = nil
        if case .row(let p) = decision.target, decision.kind == .retargeted { target = p }
        var sections = [from.section, to.section] + (target.map { [$0.section] } ?? [])
        sections = Array(Set(sections)).sorted()
        var out = [style.bold("table") + style.dim("  (before the move; slots are where the row would land)")]
        for u in sections {
            let rows = bound.table.sections[u].rows
            out.append("  " + style.bold(bound.sectionLabel(u)) + style.dim("  \(rows.count) row\(rows.count == 1 ? "" : "s")"))
            // Slot j (after removal) is drawn before original row k: k = j, or j + 1 past the moving row.
            func before(_ p: Position) -> Int { p.section == from.section && p.row >= from.row ? p.row + 1 : p.row }
            var slots: [Int: [String]] = [:]
            if to.section == u && to != from {
                slots[before(to), default: []].append(decision.kind == .allowed ? "drop here (\(to))" : "proposed \(to)")
            }
            if let t = target, t.section == u { slots[before(t), default: []].append("target \(t)") }
            var interesting = Set(slots.keys)
            if from.section == u { interesting.insert(from.row) }
            let visible = visibleRows(count: rows.count, around: interesting)
            var lines: [Line] = []
            var k = 0
            while k <= rows.count {
                for label in slots[k] ?? [] { lines.append(.slot(label)) }
                if k == rows.count { break }
                if visible.contains(k) {
                    lines.append(.row(k))
                    k += 1
                } else {
                    var end = k
                    while end < rows.count && !visible.contains(end) && slots[end] == nil { end += 1 }
                    lines.append(.gap(end - k))
                    k = end
                }
            }
            for line in lines {
                switch line {
                case .row(let k):
                    let p = Position(section: u, row: k)
                    let index = String(k).leftPadded(to: 4)
                    var id = rows[k].id.visible
                    if id.count > idWidth { id = String(id.prefix(idWidth - 1)) + "…" }
                    var marks = bound.holds(at: p)
                    if p == from { marks.insert("◀ moving", at: 0) }
                    let mark = marks.joined(separator: ", ")
                    let text = "  \(index)  \(id.padding(toLength: idWidth, withPad: " ", startingAt: 0))  \(mark)"
                    out.append(p == from ? style.bold(text.trimmingTrailingSpaces()) : text.trimmingTrailingSpaces())
                case .slot(let label):
                    let bar = "  " + "      ╶─── " + label + " " + String(repeating: "─", count: max(3, 30 - label.count))
                    out.append(label.hasPrefix("proposed") ? style.yellow(bar) : style.green(bar))
                case .gap(let n):
                    out.append(style.dim("     ⋮  (\(n) more row\(n == 1 ? "" : "s"))"))
                }
            }
        }
        out.append(style.dim("  legend: ◀ moving row · pinned and reserved rows never shift · locked rows cannot be picked up"))
        return out
    }

    /// Rows to show: all for short sections; otherwise the first and last 3 and 3 around each interesting index.
    static func visibleRows(count: Int, around interesting: Set<Int>) -> Set<Int> {
        guard count > ExplainText.fullSectionLimit else { return Set(0..<count) }
        var shown = Set(0..<3).union(Set((count - 3)..<count))
        for k in interesting {
            for d in -3...3 where k + d >= 0 && k + d < count { shown.insert(k + d) }
        }
        return shown
    }

    private static func drawSections(from: Int, to: Int, decision: Decision, bound: BoundPolicy, style: TerminalStyle) -> [String] {
        var target: Int? = nil
        if case .section(let t) = decision.target, decision.kind == .retargeted { target = t }
        let count = bound.table.sections.count
        func before(_ j: Int) -> Int { j >= from ? j + 1 : j }
        var slots: [Int: [String]] = [:]
        if to != from || decision.kind == .denied {
            slots[before(to), default: []].append(decision.kind == .allowed ? "drop here (\(to))" : "proposed \(to)")
        }
        if let t = target { slots[before(t), default: []].append("target \(t)") }
        var interesting: Set<Int> = [from]
        interesting.formUnion(slots.keys)
        let visible = visibleRows(count: count, around: interesting)
        var out = [style.bold("sections") + style.dim("  (before the move)")]
        var u = 0
        while u <= count {
            for label in slots[u] ?? [] {
                let bar = "        ╶─── " + label + " " + String(repeating: "─", count: max(3, 30 - label.count))
                out.append(label.hasPrefix("proposed") ? style.yellow(bar) : style.green(bar))
            }
            if u == count { break }
            if !visible.contains(u) {
                var end = u
                while end < count && !visible.contains(end) && slots[end] == nil { end += 1 }
                out.append(style.dim("     ⋮  (\(end - u) more section\(end - u == 1 ? "" : "s"))"))
                u = end
                continue
            }
            var id = bound.table.sections[u].id?.visible ?? "(no id)"
            if id.count > idWidth { id = String(id.prefix(idWidth - 1)) + "…" }
            var marks = bound.sectionHolds(u)
            if u == from { marks.insert("◀ moving", at: 0) }
            let rows = bound.table.sections[u].rows.count
            let text = "  \(String(u).leftPadded(to: 4))  \(id.padding(toLength: idWidth, withPad: " ", startingAt: 0))  \(String(rows).leftPadded(to: 4)) \(rows == 1 ? "row " : "rows")  \(marks.joined(separator: ", "))"
            out.append(u == from ? style.bold(text.trimmingTrailingSpaces()) : text.trimmingTrailingSpaces())
            u += 1
        }
        out.append(style.dim("  legend: ◀ moving section · pinned sections never shift · locked ones cannot be picked up"))
        return out
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
