#if Server  // the server is built with the `Server` trait only (Package.swift)
import Crypto
import ReorderPolicy
import Synchronization

/// Tables that clients stored with `PUT /v1/tables/{sha256}` and name afterwards with
/// `"table-ref"` (docs/SERVER.md, "Stored tables"): a drag session sends its table once and
/// then only moves, and the table's binding to a policy version is kept for the next request.
///
/// Content-addressed: a table's reference is the SHA-256 of the bytes that were stored, so
/// equal references are equal tables and no client can put another table under a reference
/// it does not own. Memory is bounded (`--table-memory`); the least recently used tables are
/// evicted first, and a client that names an evicted table gets 404 `unknown-table` and
/// stores it again. Thread-safe: one lock around the index; binding happens outside it.
final class TableStore: StoredTables, Sendable {
    /// What one stored table costs against the budget, an estimate from its body and its
    /// rows: the body's bytes twice (the strings, and the binding's per-row tables), 96 bytes
    /// a row (a `Row` is 40, plus its share of the arrays), 256 a section, 1 KiB besides.
    static func cost(bodyBytes: Int, rows: Int, sections: Int) -> Int {
        2 * bodyBytes + 96 * rows + 256 * sections + 1024
    }

    static func cost(of table: Table, bodyBytes: Int) -> Int {
        cost(bodyBytes: bodyBytes, rows: table.sections.reduce(0) { $0 + $1.rows.count }, sections: table.sections.count)
    }

    /// What one more thread's binding of a stored table adds to its cost (the first is in
    /// ``cost(bodyBytes:rows:sections:)``): its body once, 48 bytes a row, 128 a section.
    static func bindingCost(of table: Table, bodyBytes: Int) -> Int {
        bodyBytes + 48 * table.sections.reduce(0) { $0 + $1.rows.count } + 128 * table.sections.count
    }

    /// Evictions go down to this share of the budget, so one scan makes room for many tables.
    static let lowWater = 0.75

    struct Entry: Sendable {
        let table: Table
        /// Counted against the budget: the table with one binding, and one ``bindingCost`` for
        /// each binding after the first.
        var cost: Int
        let bindingCost: Int
        var lastUse: UInt64
        /// Each thread's binding of the table, by the thread's number (``ThreadCopies``), with
        /// the policy version it was bound to (its name and hash): no two threads decide with
        /// one binding, and eviction lets go of them all with the table.
        var bindings: [Int: (name: String, hash: String, bound: BoundPolicy)] = [:]
    }

    private struct State: Sendable {
        var entries: [String: Entry] = [:]
        var used = 0
        var clock: UInt64 = 0
        var evicted = 0
    }

    /// The budget in bytes (``cost(of:bodyBytes:)`` per table).
    let budget: Int
    private let state = Mutex(State())

    init(budget: Int) { self.budget = budget }

    /// The lowercase hex SHA-256 of `bytes`.
    static func reference(of bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) { hex += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Whether `text` has the form of a reference: 64 lowercase hex digits.
    static func isReference(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Stores `table` (read from `bodyBytes` bytes) under `ref`; false when it was stored already.
    /// A table larger than the whole budget is not stored (nil).
    func put(_ ref: String, _ table: Table, bodyBytes: Int) -> Bool? {
        let cost = Self.cost(of: table, bodyBytes: bodyBytes)
        guard cost <= budget else { return nil }
        // The evicted tables are released after the lock, not while other requests wait for it.
        let (created, evicted): (Bool, [Entry]) = state.withLock { s in
            s.clock += 1
            if s.entries[ref] != nil {
                s.entries[ref]!.lastUse = s.clock  // present: just checked
                return (false, [])
            }
            s.entries[ref] = Entry(table: table, cost: cost, bindingCost: Self.bindingCost(of: table, bodyBytes: bodyBytes), lastUse: s.clock)
            s.used += cost
            guard s.used > budget else { return (true, []) }
            return (true, Self.evict(&s, downTo: Int(Double(budget) * Self.lowWater), keeping: ref))
        }
        _ = evicted
        return created
    }

    /// Removes the least recently used tables until at most `target` bytes are used (never
    /// `keeping`), and gives them back. Only references and clocks are sorted.
    private static func evict(_ s: inout State, downTo target: Int, keeping: String) -> [Entry] {
        var removed: [Entry] = []
        for (ref, _) in s.entries.map({ ($0.key, $0.value.lastUse) }).sorted(by: { $0.1 < $1.1 }) where s.used > target && ref != keeping {
            guard let entry = s.entries.removeValue(forKey: ref) else { continue }
            s.used -= entry.cost
            s.evicted += 1
            removed.append(entry)
        }
        return removed
    }

    /// The table stored under `ref`, if any.
    func table(_ ref: String) -> Table? {
        state.withLock { s in
            s.clock += 1
            s.entries[ref]?.lastUse = s.clock
            return s.entries[ref]?.table
        }
    }

    /// Tables stored, bytes counted against the budget, tables evicted so far.
    var usage: (tables: Int, bytes: Int, evicted: Int) {
        state.withLock { ($0.entries.count, $0.used, $0.evicted) }
    }

    /// The table stored under `ref` bound to `policy` (the calling thread's copy of a policy
    /// version): the binding is the calling thread's own, kept with the table for the thread's
    /// next request, so no two threads decide with one binding.
    func bound(_ ref: String, to policy: CompiledPolicy, policyHash: String) -> BoundPolicy? {
        // A policy version is its name and its file's hash (compared as they are: no string
        // built per request, as in ``ThreadCopies``).
        let name = policy.policy.name
        let thread = ThreadCopies.current.number
        enum Found { case kept(BoundPolicy), unbound(Table) }
        let found: Found? = state.withLock { s in
            s.clock += 1
            guard let entry = s.entries[ref] else { return nil }
            s.entries[ref]!.lastUse = s.clock  // present: just read
            if let kept = entry.bindings[thread], kept.name == name, kept.hash == policyHash { return .kept(kept.bound) }
            return .unbound(entry.table)
        }
        switch found {
        case nil: return nil
        case .kept(let bound)?: return bound
        case .unbound(let table)?:
            // Bound outside the lock (linear in the table), then kept for the thread's next request.
            let bound = policy.bind(table)
            // What it replaces (another version's binding) and what it evicts are released after the lock.
            let released: (replaced: BoundPolicy?, evicted: [Entry]) = state.withLock { s in
                guard var entry = s.entries[ref] else { return (nil, []) }  // evicted meanwhile: not kept
                let replaced = entry.bindings.updateValue((name, policyHash, bound), forKey: thread)
                if replaced == nil && entry.bindings.count > 1 {
                    entry.cost += entry.bindingCost
                    s.used += entry.bindingCost
                }
                s.entries[ref] = entry
                guard s.used > budget else { return (replaced?.bound, []) }
                return (replaced?.bound, Self.evict(&s, downTo: Int(Double(budget) * Self.lowWater), keeping: ref))
            }
            _ = released
            return bound
        }
    }
}
#endif
