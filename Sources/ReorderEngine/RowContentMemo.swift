/// Remembers which rows each selector's id/kind/tag keys match, for binding one policy to
/// many orderings of the same rows (``DiffReport`` binds once per inferred move).
///
/// Rows with equal id, kind and tags fall in one *class*, numbered once per table. A bind
/// that is given the memo asks each id/kind/tag test once per class instead of once per
/// row, and reads a byte per row after that: a string hash per row per bind was the cost
/// of `diff` on big tables (BENCHMARKS.md). Moves applied to the table must be applied to
/// the memo too (``apply(_:)``), so that its classes follow the rows.
///
/// The per-row storage is raw memory: read once per row per bind, an array property of a
/// class costs an exclusivity check and a retain each time, more than the hash it saves.
/// Not `Sendable`: it is filled while binding, on one thread. A ``BoundPolicy`` never keeps it.
package final class RowContentMemo {
    /// The classes of all rows, section after section.
    private let classes: UnsafeMutablePointer<Int32>
    /// Where each section's rows start in `classes`, and the row count after the last.
    private let starts: UnsafeMutablePointer<Int>
    private let rowCount: Int
    private let sectionCount: Int
    /// One row per class.
    private let representatives: [Row]
    /// The keys asked at each test site, in the order a bind reaches them, with per class
    /// 0 (not yet asked), 1 (no) or 2 (yes).
    private var sites: [(keys: SiteKeys, answers: UnsafeMutablePointer<UInt8>)] = []

    /// What a test site asks of a row: a selector's id/kind/tag keys, or a whole selector that
    /// reads the row's content only (a list or a `not`, ``CompiledRowSelector/isContentOnly``).
    enum SiteKeys: Equatable {
        case attributes(CompiledRowSelector.AttributeKeys)
        case content(CompiledRowSelector)
    }
    /// Per site, its answer for every row in table order, once a bind has asked for all of
    /// them; moved with the rows by ``apply(_:)`` (the standard library's memmove, no test
    /// per row), so later binds take the array as it is.
    private var rowFlags: [Int: [Bool]] = [:]

    /// Numbers the rows of `table` by content.
    package init(_ table: Table) {
        var number: [Row: Int32] = [:]
        var representatives: [Row] = []
        rowCount = table.sections.reduce(0) { $0 + $1.rows.count }
        sectionCount = table.sections.count
        classes = .allocate(capacity: Swift.max(rowCount, 1))
        starts = .allocate(capacity: sectionCount + 1)
        var k = 0
        for (u, section) in table.sections.enumerated() {
            starts[u] = k
            for row in section.rows {
                let n: Int32
                if let known = number[row] {
                    n = known
                } else {
                    n = Int32(representatives.count)
                    number[row] = n
                    representatives.append(row)
                }
                classes[k] = n
                k += 1
            }
        }
        starts[sectionCount] = k
        self.representatives = representatives
    }

    deinit {
        classes.deallocate()
        starts.deallocate()
        for site in sites { site.answers.deallocate() }
    }

    /// Follows a move that was applied to the table (it must fit it).
    package func apply(_ move: Move) {
        switch move {
        case .row(let from, let to):
            let a = starts[from.section] + from.row
            let c = classes[a]
            let moved = rowFlags.mapValues { $0[a] }
            // Remove at `a`, then insert where row `to.row` of section `to.section` will be.
            (classes + a).update(from: classes + a + 1, count: rowCount - a - 1)
            if from.section < to.section {
                for u in (from.section + 1)...to.section { starts[u] -= 1 }
            } else if to.section < from.section {
                for u in (to.section + 1)...from.section { starts[u] += 1 }
            }
            let b = starts[to.section] + to.row
            (classes + b + 1).update(from: classes + b, count: rowCount - b - 1)
            classes[b] = c
            for (site, flag) in moved {
                // `moved` was read from `rowFlags`' own entries above: every site is a key.
                rowFlags[site]!.remove(at: a)
                rowFlags[site]!.insert(flag, at: b)
            }
        case .section(let from, let to):
            guard from != to else { return }
            rowFlags = [:]  // rare: recomputed by the next bind
            var blocks = (0..<sectionCount).map { u in Array(UnsafeBufferPointer(start: classes + starts[u], count: starts[u + 1] - starts[u])) }
            blocks.insert(blocks.remove(at: from), at: to)
            var k = 0
            for (u, block) in blocks.enumerated() {
                starts[u] = k
                for c in block {
                    classes[k] = c
                    k += 1
                }
            }
        }
    }

    /// The row the memo has at row `k` of section `u`: equal to the table's when the memo
    /// followed every move (tests check this).
    package func row(_ u: Int, _ k: Int) -> Row {
        representatives[Int(classes[starts[u] + k])]
    }

    /// A test site for `keys`: the site with number `site`, reused when a bind asks the same
    /// keys there again, cleared when they differ (a bind reaches its sites in rule order).
    func site(_ site: Int, _ keys: SiteKeys) -> Site {
        let classCount = Swift.max(representatives.count, 1)
        if site < sites.count {
            if sites[site].keys != keys {
                sites[site].keys = keys
                sites[site].answers.update(repeating: 0, count: classCount)
                rowFlags[site] = nil
            }
        } else {
            let answers = UnsafeMutablePointer<UInt8>.allocate(capacity: classCount)
            answers.initialize(repeating: 0, count: classCount)
            sites.append((keys, answers))
        }
        let whole = if case .content = keys { true } else { false }
        return Site(memo: self, number: site, classes: classes, starts: starts, answers: sites[site].answers, wholeContent: whole)
    }

    /// The answers of `site` for every row in table order: cached after the first bind.
    func flags(_ site: Site, _ selector: CompiledRowSelector) -> [Bool] {
        if let cached = rowFlags[site.number] { return cached }
        var flags = [Bool]()
        flags.reserveCapacity(rowCount)
        for u in 0..<sectionCount {
            for k in 0..<(starts[u + 1] - starts[u]) { flags.append(site.matches(u, k, selector)) }
        }
        rowFlags[site.number] = flags
        return flags
    }

    /// Where section `u`'s rows start in table order, and where they end.
    func rows(of u: Int) -> Range<Int> { starts[u]..<starts[u + 1] }

    /// One id/kind/tag test over the rows, as one bind reads it.
    struct Site {
        /// Keeps the memory below alive.
        let memo: RowContentMemo
        /// The site's number (its place in the order a bind reaches the sites).
        let number: Int
        let classes: UnsafePointer<Int32>
        let starts: UnsafePointer<Int>
        let answers: UnsafeMutablePointer<UInt8>
        /// Whether the site asks the whole selector (``SiteKeys/content(_:)``), not its keys.
        let wholeContent: Bool

        /// Whether `selector`'s keys match row `k` of section `u` (asked once per class).
        @inline(__always)
        func matches(_ u: Int, _ k: Int, _ selector: CompiledRowSelector) -> Bool {
            let c = Int(classes[starts[u] + k])
            let answer = answers[c]
            if answer != 0 { return answer == 2 }
            let row = memo.representatives[c]
            let yes = wholeContent ? selector.matchesContent(row) : selector.matchesAttributes(row)
            answers[c] = yes ? 2 : 1
            return yes
        }
    }
}
