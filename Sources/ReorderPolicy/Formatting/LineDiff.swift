/// Unified diffs of two texts line by line (`fmt --check` and `fmt --diff`), from Myers'
/// O((N+M)·D) algorithm. Past `maxEdits` differences the whole file is one hunk, so a file
/// rewritten from end to end costs linear time, not quadratic.
public enum LineDiff {
    /// The diff in unified format with three lines of context, or "" when the texts are equal.
    public static func unified(_ old: String, _ new: String, oldName: String, newName: String, maxEdits: Int = 4_000) -> String {
        if old == new { return "" }
        let a = lines(old), b = lines(new)
        let script = edits(a, b, maxEdits: maxEdits) ?? (Array(repeating: Edit.delete, count: a.count) + Array(repeating: Edit.insert, count: b.count))
        return render(script, a, b, oldName: oldName, newName: newName)
    }

    enum Edit { case keep, delete, insert }

    static func lines(_ text: String) -> [Substring] {
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false)
        if parts.last == "" { parts.removeLast() }
        return parts
    }

    /// The shortest edit script, or nil past `maxEdits`.
    static func edits(_ a: [Substring], _ b: [Substring], maxEdits: Int) -> [Edit]? {
        let n = a.count, m = b.count, offset = n + m + 1
        var v = [Int](repeating: 0, count: 2 * offset + 1)
        var trace: [[Int]] = []
        var found = false
        outer: for d in 0...Swift.min(n + m, maxEdits) {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n && y < m && a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n && y >= m {
                    found = true
                    break outer
                }
            }
        }
        guard found else { return nil }
        // Walk the trace back from (n, m).
        var script: [Edit] = []
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d], k = x - y
            let prevK = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? k + 1 : k - 1
            let prevX = v[offset + prevK], prevY = prevX - prevK
            while x > prevX && y > prevY {
                script.append(.keep)
                x -= 1
                y -= 1
            }
            if d > 0 { script.append(x == prevX ? .insert : .delete) }
            x = prevX
            y = prevY
        }
        return script.reversed()
    }

    static func render(_ script: [Edit], _ a: [Substring], _ b: [Substring], oldName: String, newName: String) -> String {
        var out = "--- \(oldName)\n+++ \(newName)\n"
        // Positions of each edit in a and b.
        var rows: [(edit: Edit, i: Int, j: Int)] = []
        var i = 0, j = 0
        for e in script {
            rows.append((e, i, j))
            switch e {
            case .keep: i += 1; j += 1
            case .delete: i += 1
            case .insert: j += 1
            }
        }
        let context = 3
        var k = 0
        while k < rows.count {
            guard rows[k].edit != .keep else { k += 1; continue }
            // A hunk: from `context` keeps before the change to `context` after the last change
            // that is closer than 2 × context to the next.
            let start = Swift.max(0, k - context)
            var end = k
            var last = k
            while end < rows.count {
                if rows[end].edit != .keep { last = end }
                if end - last > 2 * context { break }
                end += 1
            }
            end = Swift.min(rows.count, last + context + 1)
            let hunk = rows[start..<end]
            let oldCount = hunk.filter { $0.edit != .insert }.count, newCount = hunk.filter { $0.edit != .delete }.count
            // A hunk holds at least the change at `k`.
            let oldStart = hunk.first!.i + (oldCount == 0 ? 0 : 1), newStart = hunk.first!.j + (newCount == 0 ? 0 : 1)
            out += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n"
            for row in hunk {
                switch row.edit {
                case .keep: out += " \(a[row.i])\n"
                case .delete: out += "-\(a[row.i])\n"
                case .insert: out += "+\(b[row.j])\n"
                }
            }
            k = end
        }
        return out
    }
}
