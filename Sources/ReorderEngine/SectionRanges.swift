/// Sorted, disjoint inclusive index ranges for every section of a table, stored flat
/// (one array of bounds plus per-section offsets) so binding allocates little and
/// queries are a binary search within one section.
package struct SectionRanges: Sendable {
    private var offsets: [Int] = [0]
    private var lows: [Int] = []
    private var highs: [Int] = []

    package init() {}

    /// Appends the next section's ranges; `ranges` need not be sorted or disjoint.
    package mutating func appendSection(_ ranges: [(Int, Int)]) {
        // Already sorted and apart (the usual case): copy as is.
        var ordered = true
        for k in ranges.indices {
            if ranges[k].0 > ranges[k].1 || (k > 0 && ranges[k].0 <= ranges[k - 1].1 + 1) {
                ordered = false
                break
            }
        }
        if ordered {
            for r in ranges {
                lows.append(r.0)
                highs.append(r.1)
            }
        } else if ranges.count <= 1 {
            if let r = ranges.first, r.0 <= r.1 {
                lows.append(r.0)
                highs.append(r.1)
            }
        } else {
            let sorted = ranges.filter { $0.0 <= $0.1 }.sorted { $0.0 < $1.0 }
            var current: (Int, Int)?
            for r in sorted {
                if let c = current, r.0 <= c.1 + 1 {
                    current = (c.0, Swift.max(c.1, r.1))
                } else {
                    if let c = current {
                        lows.append(c.0)
                        highs.append(c.1)
                    }
                    current = r
                }
            }
            if let c = current {
                lows.append(c.0)
                highs.append(c.1)
            }
        }
        offsets.append(lows.count)
    }

    /// Replaces section `u`'s ranges (`ranges` need not be sorted or disjoint).
    mutating func replaceSection(_ u: Int, _ ranges: [(Int, Int)]) {
        var one = SectionRanges()
        one.appendSection(ranges)
        replaceSection(u, lows: one.lows, highs: one.highs)
    }

    /// Replaces section `u`'s ranges with sorted, disjoint, apart ones.
    private mutating func replaceSection(_ u: Int, lows newLows: [Int], highs newHighs: [Int]) {
        let old = offsets[u]..<offsets[u + 1]
        let delta = newLows.count - old.count
        lows.replaceSubrange(old, with: newLows)
        highs.replaceSubrange(old, with: newHighs)
        if delta != 0 {
            for v in (u + 1)..<offsets.count { offsets[v] += delta }
        }
    }

    /// Section `u`'s members after its row at `a` moves to `b` (counted after the removal, as
    /// in ``Move/row(from:to:)``), when membership goes with the row: the moved row keeps its
    /// membership, the rows between shift by one. O(ranges of the section).
    package mutating func followRow(in u: Int, from a: Int, to b: Int) {
        guard a != b, !isEmpty(u) else { return }
        let moved = contains(u, a)
        var newLows: [Int] = [], newHighs: [Int] = []
        newLows.reserveCapacity(offsets[u + 1] - offsets[u] + 2)
        newHighs.reserveCapacity(offsets[u + 1] - offsets[u] + 2)
        // Appends a range in ascending order, joining it to the last when they touch.
        func add(_ lo: Int, _ hi: Int) {
            if let last = newHighs.last, lo <= last + 1 {
                newHighs[newHighs.count - 1] = Swift.max(last, hi)
            } else {
                newLows.append(lo)
                newHighs.append(hi)
            }
        }
        var placed = !moved
        for r in offsets[u]..<offsets[u + 1] {
            var lo = lows[r], hi = highs[r]
            // Take row `a` out: the rows after it move up one.
            if lo > a {
                lo -= 1
                hi -= 1
            } else if hi >= a {
                hi -= 1
                if hi < lo { continue }
            }
            // Make room at `b`: the rows from it on move down one; the moved row goes there.
            if hi < b {
                add(lo, hi)
            } else if lo >= b {
                if !placed {
                    add(b, b)
                    placed = true
                }
                add(lo + 1, hi + 1)
            } else {
                add(lo, b - 1)
                if !placed {
                    add(b, b)
                    placed = true
                }
                add(b + 1, hi + 1)
            }
        }
        if !placed { add(b, b) }
        replaceSection(u, lows: newLows, highs: newHighs)
    }

    /// Whether section `u`'s members are only a run from the top and a run to the bottom
    /// (`0...top` and `bottom..<n`; -1 and n when absent).
    func edges(_ u: Int, _ n: Int) -> (simple: Bool, top: Int, bottom: Int) {
        var first = offsets[u], last = offsets[u + 1]
        var top = -1, bottom = n
        if first < last, lows[first] == 0 {
            top = highs[first]
            first += 1
        }
        if first < last, highs[last - 1] == n - 1 {
            bottom = lows[last - 1]
            last -= 1
        }
        return (first == last, top, Swift.max(bottom, top + 1))
    }

    /// The ranges of section `u`.
    package func ranges(_ u: Int) -> [(Int, Int)] {
        (offsets[u]..<offsets[u + 1]).map { (lows[$0], highs[$0]) }
    }

    /// Appends the ranges of section `u` to `buffer`, allocating nothing when it has room.
    func appendRanges(of u: Int, to buffer: inout [(Int, Int)]) {
        for r in offsets[u]..<offsets[u + 1] { buffer.append((lows[r], highs[r])) }
    }

    func isEmpty(_ u: Int) -> Bool { offsets[u] == offsets[u + 1] }

    /// The smallest member of section `u`.
    func first(_ u: Int) -> Int? { isEmpty(u) ? nil : lows[offsets[u]] }

    /// The largest member of section `u`.
    func last(_ u: Int) -> Int? { isEmpty(u) ? nil : highs[offsets[u + 1] - 1] }

    /// Index of the first range in section `u` whose high bound is >= `k`.
    @inline(__always)
    private func firstEndingAtOrAfter(_ u: Int, _ k: Int) -> Int {
        var lo = offsets[u], hi = offsets[u + 1]
        while lo < hi {
            let mid = (lo + hi) >> 1
            if highs[mid] < k { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    func contains(_ u: Int, _ k: Int) -> Bool {
        let r = firstEndingAtOrAfter(u, k)
        return r < offsets[u + 1] && lows[r] <= k
    }

    /// The smallest member of section `u` within `lo...hi`.
    func firstIn(_ u: Int, _ lo: Int, _ hi: Int) -> Int? {
        guard lo <= hi else { return nil }
        let r = firstEndingAtOrAfter(u, lo)
        guard r < offsets[u + 1], lows[r] <= hi else { return nil }
        return Swift.max(lows[r], lo)
    }

    /// How many members of section `u` lie within `lo...hi`.
    func count(_ u: Int, _ lo: Int, _ hi: Int) -> Int {
        guard lo <= hi else { return 0 }
        var total = 0
        var r = firstEndingAtOrAfter(u, lo)
        while r < offsets[u + 1], lows[r] <= hi {
            total += Swift.min(highs[r], hi) - Swift.max(lows[r], lo) + 1
            r += 1
        }
        return total
    }

    /// The largest member of section `u` below `k`.
    func maxBelow(_ u: Int, _ k: Int) -> Int? {
        // The last range whose low bound is < k.
        var lo = offsets[u], hi = offsets[u + 1]
        while lo < hi {
            let mid = (lo + hi) >> 1
            if lows[mid] < k { lo = mid + 1 } else { hi = mid }
        }
        guard lo > offsets[u] else { return nil }
        return Swift.min(highs[lo - 1], k - 1)
    }

    /// The smallest member of section `u` above `k`.
    func minAbove(_ u: Int, _ k: Int) -> Int? {
        let r = firstEndingAtOrAfter(u, k + 1)
        guard r < offsets[u + 1] else { return nil }
        return Swift.max(lows[r], k + 1)
    }
}
