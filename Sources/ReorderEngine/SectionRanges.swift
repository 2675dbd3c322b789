/// Sorted, disjoint inclusive index ranges for every section of a table, stored flat
/// (one array of bounds plus per-section offsets) so binding allocates little and
/// queries are a binary search within one section.
package struct SectionRanges: Sendable {
    private var offsets: [Int] = [0]
    private var lows: [Int] = []
    private var highs: [Int] = []

    init() {}

    /// Appends the next section's ranges; `ranges` need not be sorted or disjoint.
    mutating func appendSection(_ ranges: [(Int, Int)]) {
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
    func ranges(_ u: Int) -> [(Int, Int)] {
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
