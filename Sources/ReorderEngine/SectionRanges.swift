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

    /// Section `u`'s members after its row at `a` moves to `b` (counted after the removal, as
    /// in ``Move/row(from:to:)``), when membership goes with the row: the moved row keeps its
    /// membership, the rows between shift by one. Only ranges within one row of `a...b` change
    /// (rows past both move up one and back down one), and those wholly between the two
    /// places only shift: O(log R) plus a tight loop over the ranges between.
    package mutating func followRow(in u: Int, from a: Int, to b: Int) {
        guard a != b, !isEmpty(u) else { return }
        let m = Swift.min(a, b), mm = Swift.max(a, b)
        let r0 = firstEndingAtOrAfter(u, m - 1)
        var r1 = r0
        while r1 < offsets[u + 1] && lows[r1] <= mm + 1 { r1 += 1 }
        guard r0 < r1 else { return }  // no member within one row of a...b: nothing moves
        let moved = contains(u, a)
        // The rows strictly between the two places shift by one: (a, b] up when moving down,
        // [b, a) down when moving up. Ranges wholly inside shift in place; the few at the
        // edges (around `a`, around `b`) are rebuilt.
        let shift = a < b ? -1 : 1
        let insideLo = a < b ? a + 1 : b, insideHi = a < b ? b : a - 1
        var i0 = r0
        while i0 < r1 && lows[i0] < insideLo { i0 += 1 }
        var i1 = i0
        while i1 < r1 && highs[i1] <= insideHi { i1 += 1 }
        var placed = !moved
        // One range's new members, in order (the moved row placed where it falls).
        func transform(_ r: Int, into out: inout RangeBuilder) {
            // Take row `a` out: the rows after it move up one.
            guard let (lo, hi) = Self.removing(a, from: lows[r], highs[r]) else { return }
            // Make room at `b`: the rows from it on move down one; the moved row goes there.
            out.add(lo, hi, makingRoomAt: b, placed: &placed)
        }
        var head = RangeBuilder(capacity: i0 - r0 + 2), tail = RangeBuilder(capacity: r1 - i1 + 2)
        for r in r0..<i0 { transform(r, into: &head) }
        // Moving up, the row lands at `b`, below every range inside (they move to b + 1 on).
        if !placed && a > b {
            head.add(b, b)
            placed = true
        }
        if i0 < i1 {
            lows.withUnsafeMutableBufferPointer { for r in i0..<i1 { $0[r] += shift } }
            highs.withUnsafeMutableBufferPointer { for r in i0..<i1 { $0[r] += shift } }
        }
        for r in i1..<r1 { transform(r, into: &tail) }
        if !placed { tail.add(b, b) }
        // Join the edges to the ranges inside where they now touch.
        if i0 < i1 {
            if let lastLow = head.lows.last, let lastHigh = head.highs.last, lastHigh + 1 >= lows[i0] {
                lows[i0] = Swift.min(lastLow, lows[i0])
                highs[i0] = Swift.max(lastHigh, highs[i0])
                head.lows.removeLast()
                head.highs.removeLast()
            }
            if let firstLow = tail.lows.first, let firstHigh = tail.highs.first, firstLow <= highs[i1 - 1] + 1 {
                highs[i1 - 1] = Swift.max(firstHigh, highs[i1 - 1])
                lows[i1 - 1] = Swift.min(firstLow, lows[i1 - 1])
                tail.lows.removeFirst()
                tail.highs.removeFirst()
            }
        } else {
            for k in tail.lows.indices { head.add(tail.lows[k], tail.highs[k]) }
            tail = RangeBuilder(capacity: 0)
        }
        // The tail first, so that the head's indices still hold.
        splice(i1..<r1, of: u, lows: tail.lows, highs: tail.highs)
        splice(r0..<i0, of: u, lows: head.lows, highs: head.highs)
    }

    /// Takes row `a` out of section `u` (a row leaving for another section): the rows after it
    /// move up one. Returns whether it was a member. Only the range holding `a` and the one
    /// before it change shape (a gap of just `a` closes); the ranges after shift in place:
    /// O(log R) plus a tight loop over the ranges after `a`.
    @discardableResult
    package mutating func removeRow(in u: Int, at a: Int) -> Bool {
        let r = firstEndingAtOrAfter(u, a), end = offsets[u + 1]
        let member = r < end && lows[r] <= a
        let r0 = Swift.max(offsets[u], r - 1), r1 = Swift.min(end, r + 1)
        shift(r1..<end, by: -1)
        var edge = RangeBuilder(capacity: r1 - r0)
        for k in r0..<r1 {
            guard let (lo, hi) = Self.removing(a, from: lows[k], highs[k]) else { continue }
            edge.add(lo, hi)
        }
        splice(r0..<r1, of: u, lows: edge.lows, highs: edge.highs)
        return member
    }

    /// Puts a row in at `b` of section `u` (a row arriving from another section): the rows
    /// from `b` on move down one; the new row is a member when `member`. Only the range at `b`
    /// and the one before it change shape; the ranges after shift in place.
    package mutating func insertRow(in u: Int, at b: Int, member: Bool) {
        let r = firstEndingAtOrAfter(u, b), end = offsets[u + 1]
        let r0 = Swift.max(offsets[u], r - 1), r1 = Swift.min(end, r + 1)
        shift(r1..<end, by: 1)
        var edge = RangeBuilder(capacity: r1 - r0 + 2)
        var placed = !member
        for k in r0..<r1 { edge.add(lows[k], highs[k], makingRoomAt: b, placed: &placed) }
        if !placed { edge.add(b, b) }
        splice(r0..<r1, of: u, lows: edge.lows, highs: edge.highs)
    }

    /// Makes row `k` of section `u` a member or not, the other rows where they are (a row whose
    /// match changed in place). Nothing changes when it already is as asked.
    package mutating func setMember(in u: Int, at k: Int, _ member: Bool) {
        guard contains(u, k) != member else { return }
        removeRow(in: u, at: k)
        insertRow(in: u, at: k, member: member)
    }

    /// The range `lo...hi` once row `a` is taken out (the rows after it move up one); nil when
    /// `a` was its only member.
    @inline(__always)
    private static func removing(_ a: Int, from lo: Int, _ hi: Int) -> (Int, Int)? {
        if lo > a { return (lo - 1, hi - 1) }
        if hi < a { return (lo, hi) }
        return hi - 1 < lo ? nil : (lo, hi - 1)
    }

    /// Moves the ranges at `range` by `delta` rows, in place.
    private mutating func shift(_ range: Range<Int>, by delta: Int) {
        guard !range.isEmpty else { return }
        lows.withUnsafeMutableBufferPointer { for k in range { $0[k] += delta } }
        highs.withUnsafeMutableBufferPointer { for k in range { $0[k] += delta } }
    }

    /// Section `u` of the union of `sets`, each already sorted: merged in one pass (the sets
    /// are few: two per rule that holds rows), no sort.
    package static func union(_ sets: [SectionRanges], in u: Int) -> (lows: [Int], highs: [Int]) {
        // The sets' ranges of section `u` side by side (each set read once, not once a step).
        var lows: [Int] = [], highs: [Int] = [], at: [Int] = [], ends: [Int] = []
        for set in sets {
            at.append(lows.count)
            lows.append(contentsOf: set.lows[set.offsets[u]..<set.offsets[u + 1]])
            highs.append(contentsOf: set.highs[set.offsets[u]..<set.offsets[u + 1]])
            ends.append(lows.count)
        }
        var out = RangeBuilder(capacity: lows.count)
        while true {
            var pick = -1, low = Int.max
            for j in at.indices where at[j] < ends[j] && lows[at[j]] < low {
                pick = j
                low = lows[at[j]]
            }
            guard pick >= 0 else { break }
            out.add(low, highs[at[pick]])
            at[pick] += 1
        }
        return (out.lows, out.highs)
    }

    /// Replaces section `u`'s ranges with sorted, disjoint, apart ones (``union(_:in:)``'s).
    mutating func replaceSection(_ u: Int, normalized: (lows: [Int], highs: [Int])) {
        splice(offsets[u]..<offsets[u + 1], of: u, lows: normalized.lows, highs: normalized.highs)
    }

    /// Replaces the ranges at `old` (within section `u`) with the given ones, and moves the
    /// later sections' offsets by the difference.
    private mutating func splice(_ old: Range<Int>, of u: Int, lows newLows: [Int], highs newHighs: [Int]) {
        lows.replaceSubrange(old, with: newLows)
        highs.replaceSubrange(old, with: newHighs)
        let delta = newLows.count - old.count
        if delta != 0 {
            for v in (u + 1)..<offsets.count { offsets[v] += delta }
        }
    }

    /// Ranges appended in ascending order, a range joined to the last when they touch.
    private struct RangeBuilder {
        var lows: [Int] = [], highs: [Int] = []

        init(capacity: Int) {
            lows.reserveCapacity(capacity)
            highs.reserveCapacity(capacity)
        }

        /// Adds `lo...hi` as it is once a row is put in at `b` (members from `b` on move down
        /// one), and the new row `b` itself before them unless `placed` already.
        @inline(__always)
        mutating func add(_ lo: Int, _ hi: Int, makingRoomAt b: Int, placed: inout Bool) {
            if hi < b {
                add(lo, hi)
                return
            }
            if lo < b { add(lo, b - 1) }
            if !placed {
                add(b, b)
                placed = true
            }
            add(Swift.max(lo, b) + 1, hi + 1)
        }

        @inline(__always)
        mutating func add(_ lo: Int, _ hi: Int) {
            if let last = highs.last, lo <= last + 1 {
                highs[highs.count - 1] = Swift.max(last, hi)
            } else {
                lows.append(lo)
                highs.append(hi)
            }
        }
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
