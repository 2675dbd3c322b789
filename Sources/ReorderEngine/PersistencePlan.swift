/// The writes that persist a row move in a store that orders rows by a sort key: which rows
/// get which new key, so that sorting by key gives the order after the move.
public enum PersistencePlan {
    /// One write: the row at `position` (in the table before the move) gets `key`.
    public struct Write<Key: Hashable & Sendable>: Hashable, Sendable {
        /// The row, by its position before the move.
        public var position: Position
        /// Its new key.
        public var key: Key

        /// Creates a write.
        public init(position: Position, key: Key) {
            self.position = position
            self.key = key
        }
    }

    /// Why keys cannot be planned.
    public struct KeyError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    // MARK: - Integer keys

    /// Writes for integer `sortOrder` keys (`keys[s][r]`, strictly ascending in each section).
    ///
    /// When the gap at the destination has room (neighbours' keys differ by 2 or more), only the
    /// moved row is written. Otherwise a move within a section renumbers exactly the rows
    /// between source and destination, passing their keys along (`|from - to| + 1` writes),
    /// and a move into another section bumps the rows after the insertion point by one until a
    /// gap absorbs them. The source section never needs writes: removing a row keeps its order.
    public static func integerWrites(keys: [[Int]], from: Position, to: Position) throws(KeyError) -> [Write<Int>] {
        try check(keys.map { $0.map { $0 } }, from: from, to: to, order: <)
        let s = from.section, i = from.row, t = to.section, j = to.row
        // The destination section's rows in their new order, without the moved row.
        var others = keys[t].indices.map { Position(section: t, row: $0) }
        if t == s { others.remove(at: i) }
        func key(_ p: Position) -> Int { keys[p.section][p.row] }
        let before = j > 0 ? key(others[j - 1]) : nil
        let after = j < others.count ? key(others[j]) : nil
        switch (before, after) {
        case (nil, nil): return t == s ? [] : [Write(position: from, key: 0)]
        case (let b?, nil): return [Write(position: from, key: b + 1)]
        case (nil, let a?): return [Write(position: from, key: a - 1)]
        case (let b?, let a?) where a - b >= 2: return [Write(position: from, key: b + (a - b) / 2)]
        default: break
        }
        if t == s {
            // Rotate the window between source and destination: its keys, in its new order.
            let lo = min(i, j), hi = max(i, j)
            var window = Array(lo...hi).map { Position(section: s, row: $0) }
            let moved = window.remove(at: i - lo)
            window.insert(moved, at: j - lo)
            return zip(window, lo...hi).compactMap { p, k in
                key(p) == keys[s][k] ? nil : Write(position: p, key: keys[s][k])
            }
        }
        // Into another section with no room: take the slot after the previous key and bump
        // the following rows while they collide.
        // Only two neighbours with no gap between them reach here (the switch above): `before` is set.
        var writes = [Write(position: from, key: before! + 1)]
        var last = before! + 1
        for p in others[j...] {
            guard key(p) <= last else { break }
            last += 1
            writes.append(Write(position: p, key: last))
        }
        return writes
    }

    // MARK: - Fractional string keys

    /// The digits of fractional keys, in ASCII order.
    public static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// A fractional-key plan: one write per moved row, or a rebalance of the section.
    public struct FractionalPlan: Hashable, Sendable {
        /// The writes.
        public var writes: [Write<String>]
        /// True when the new key would exceed the length bound (or no key fits), so the
        /// destination section was given fresh, evenly spaced keys instead.
        public var rebalanced: Bool
    }

    /// Writes for fractional string keys (`keys[s][r]`, strictly ascending in each section by
    /// byte order, over ``digits``): the moved row gets a key between its new neighbours; when
    /// that key would be longer than `maxLength`, the destination section is rebalanced.
    public static func fractionalWrites(keys: [[String]], from: Position, to: Position, maxLength: Int = 24) throws(KeyError) -> FractionalPlan {
        try check(keys, from: from, to: to) { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        let s = from.section, t = to.section, j = to.row
        var others = keys[t].indices.map { Position(section: t, row: $0) }
        if t == s { others.remove(at: from.row) }
        let before = j > 0 ? keys[t][others[j - 1].row] : nil
        let after = j < others.count ? keys[t][others[j].row] : nil
        if let key = key(between: before, and: after), key.utf8.count <= maxLength {
            return FractionalPlan(writes: [Write(position: from, key: key)], rebalanced: false)
        }
        // Rebalance: evenly spaced keys for the section in its new order.
        var order = others
        order.insert(from, at: j)
        let fresh = evenlySpaced(order.count)
        let writes = zip(order, fresh).compactMap { p, k in keys[p.section][p.row] == k ? nil : Write(position: p, key: k) }
        return FractionalPlan(writes: writes, rebalanced: true)
    }

    /// A key strictly between `a` and `b` (nil means no bound), or nil when none exists.
    public static func key(between a: String?, and b: String?) -> String? {
        func values(_ s: String) -> [Int]? {
            var out: [Int] = []
            for byte in s.utf8 {
                guard let v = digits.firstIndex(of: byte) else { return nil }
                out.append(v)
            }
            return out
        }
        var lower: [Int] = [], upper: [Int]? = nil
        if let a {
            guard let v = values(a) else { return nil }
            lower = v
        }
        if let b {
            guard let v = values(b) else { return nil }
            upper = v
        }
        var result: [Int] = []
        var index = 0
        while index < 64 {
            let low = index < lower.count ? lower[index] : 0
            let high = upper.map { index < $0.count ? $0[index] : 0 } ?? digits.count
            if high - low > 1 {
                result.append((low + high) / 2)
                break
            }
            result.append(low)
            if high - low == 1 { upper = nil }
            index += 1
        }
        let key = String(decoding: result.map { digits[$0] }, as: UTF8.self)
        let bytes = Array(key.utf8)
        if let a, !Array(a.utf8).lexicographicallyPrecedes(bytes) { return nil }
        if let b, !bytes.lexicographicallyPrecedes(Array(b.utf8)) { return nil }
        return key
    }

    /// `count` keys of equal length spread over the key space, ascending.
    public static func evenlySpaced(_ count: Int) -> [String] {
        var length = 1, space = digits.count
        while space <= count + 1 {
            length += 1
            space *= digits.count
        }
        return (1...max(count, 1)).prefix(count).map { k in
            var v = k * space / (count + 1)
            var chars = [UInt8](repeating: digits[0], count: length)
            for p in stride(from: length - 1, through: 0, by: -1) {
                chars[p] = digits[v % digits.count]
                v /= digits.count
            }
            return String(decoding: chars, as: UTF8.self)
        }
    }

    private static func check<K>(_ keys: [[K]], from: Position, to: Position, order: (K, K) -> Bool) throws(KeyError) {
        guard keys.indices.contains(from.section), keys[from.section].indices.contains(from.row), keys.indices.contains(to.section) else {
            throw KeyError(message: "the move does not fit the keys' table")
        }
        let limit = to.section == from.section ? keys[to.section].count - 1 : keys[to.section].count
        guard to.row >= 0, to.row <= limit else { throw KeyError(message: "destination \(to) is out of range") }
        for (s, section) in keys.enumerated() where section.count > 1 {
            for r in 1..<section.count where !order(section[r - 1], section[r]) {
                throw KeyError(message: "keys of section \(s) are not strictly ascending at row \(r)")
            }
        }
    }
}
