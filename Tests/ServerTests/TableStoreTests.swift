#if Server  // the server is built with the `Server` trait only (Package.swift)
import Foundation
import ReorderEngine
import ReorderPolicy
@testable import ReorderServer
import Testing

/// A stored table keeps one binding per thread that decides with it (no two threads share
/// one binding's reference counts), each after the first counted against the budget, and
/// lets go of them all when it is evicted.
@Suite struct TableStoreTests {
    static let table = Table(sections: [Section(id: "S", rowIDs: ["a", "b", "c"]), Section(id: "T", rowIDs: ["d"])])
    static let ref = String(repeating: "a", count: 64)

    /// A value handed back from another thread: written before the semaphore, read after.
    final class Box<T>: @unchecked Sendable { var value: T? }

    /// `body` on a thread of its own, waited for.
    static func onAnotherThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let box = Box<T>(), done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.value = body()
            done.signal()
        }
        thread.start()
        done.wait()
        return box.value!
    }

    @Test("each thread binds a stored table once per policy version, and each binding after the first is counted")
    func bindingsPerThread() throws {
        let compiled = try PolicyLoader.compile(text: "reorder-policy: 1\nname: t\nrules:\n  - pin: { first: 1 }\n")
        let store = TableStore(budget: 1 << 20)
        #expect(store.put(Self.ref, Self.table, bodyBytes: 100) == true)
        let stored = store.usage.bytes
        let extra = TableStore.bindingCost(of: Self.table, bodyBytes: 100)
        let move = Move.row(from: Position(section: 0, row: 1), to: Position(section: 1, row: 0))
        let expected = try compiled.bind(Self.table).decide(move)

        // This thread: the first binding is in the table's cost; asking again binds nothing.
        let here = try #require(store.bound(Self.ref, to: compiled, policyHash: "h1"))
        #expect(try here.decide(move) == expected)
        _ = store.bound(Self.ref, to: compiled, policyHash: "h1")
        #expect(store.usage.bytes == stored)
        // Another thread binds its own, counted once.
        let there = Self.onAnotherThread { () -> Decision? in
            let first = try? store.bound(Self.ref, to: compiled, policyHash: "h1")?.decide(move)
            _ = store.bound(Self.ref, to: compiled, policyHash: "h1")
            return first
        }
        #expect(there == expected)
        #expect(store.usage.bytes == stored + extra)
        // A new policy version replaces this thread's binding: nothing more is counted.
        _ = store.bound(Self.ref, to: compiled, policyHash: "h2")
        #expect(store.usage.bytes == stored + extra)
    }

    @Test("an evicted table is unknown to every thread, whatever it bound before, and its bindings are let go")
    func evictionDropsBindings() throws {
        let compiled = try PolicyLoader.compile(text: "reorder-policy: 1\nname: t\nrules: []\n")
        let one = TableStore.cost(of: Self.table, bodyBytes: 100)
        // Room for two tables, or for one and its second binding, not for both.
        let store = TableStore(budget: 2 * one + TableStore.bindingCost(of: Self.table, bodyBytes: 100) - 1)
        #expect(store.put(Self.ref, Self.table, bodyBytes: 100) == true)
        #expect(store.bound(Self.ref, to: compiled, policyHash: "h") != nil)
        #expect(Self.onAnotherThread { store.bound(Self.ref, to: compiled, policyHash: "h") != nil })
        // A second table does not fit beside the first and its two bindings: the first goes.
        let other = String(repeating: "b", count: 64)
        #expect(store.put(other, Self.table, bodyBytes: 100) == true)
        #expect(store.usage.tables == 1 && store.usage.bytes == one && store.usage.evicted == 1)
        #expect(store.bound(Self.ref, to: compiled, policyHash: "h") == nil)
        #expect(Self.onAnotherThread { store.bound(Self.ref, to: compiled, policyHash: "h") == nil })
    }
}
#endif
