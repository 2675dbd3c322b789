#if Server  // the server is built with the `Server` trait only (Package.swift)
import Foundation
import ReorderEngine
import ReorderPolicy
@testable import ReorderServer
import Testing

/// Each thread decides with its own copy of a policy version (`ThreadCopies`): the same copy
/// every time on one thread, another on each other thread and for each version, deciding as
/// the shared one does, and at most `maxPolicies` kept per thread.
@Suite struct ThreadCopiesTests {
    static let text = "reorder-policy: 1\nname: t\nrules:\n  - pin: { first: 1 }\n  - keep-in-section: { id: b }\n"

    static func served(hash: String) throws -> ServedPolicy {
        ServedPolicy(name: "t", file: "t.yaml", hash: hash, compiled: try PolicyLoader.compile(text: text))
    }

    static let table = Table(sections: [Section(id: "S", rowIDs: ["a", "b", "c"]), Section(id: "T", rowIDs: ["d"])])

    /// The object that identifies a copy: the reference of the rule a move breaks (a class
    /// instance, made anew when the policy is compiled again).
    /// Only compared while the copies it names are alive (a freed object's address may be reused).
    static func identity(_ policy: CompiledPolicy) -> ObjectIdentifier? {
        let refused = Move.row(from: Position(section: 0, row: 1), to: Position(section: 1, row: 0))
        // "b" stays in its section, and "d" is pinned first in its own: the move breaks both.
        guard let decision = try? policy.bind(table).decide(refused), decision.violationCount > 0 else { return nil }
        return ObjectIdentifier(decision.violation(at: 0).ruleReference)
    }

    @Test("one copy per thread and policy version, deciding as the shared policy does")
    func copiesPerThread() throws {
        let served = try Self.served(hash: "h1")
        let here = ThreadCopies.current.policy(served)
        #expect(Self.identity(here) != nil)
        #expect(Self.identity(here) != Self.identity(served.compiled), "a copy, not the shared policy")
        #expect(Self.identity(ThreadCopies.current.policy(served)) == Self.identity(here), "the same copy on the same thread")
        let table = Self.table
        let moves = (0..<3).flatMap { r in [Move.row(from: Position(section: 0, row: r), to: Position(section: 1, row: 0)),
                                             Move.row(from: Position(section: 0, row: r), to: Position(section: 0, row: 0))] }
        for move in moves {
            #expect(try here.bind(table).decide(move) == served.compiled.bind(table).decide(move), "\(move)")
        }
        // The other thread's copies live on with it (its copies are let go when it ends), so
        // its copy is handed back to be kept alive while it is compared.
        let (copy, number) = TableStoreTests.onAnotherThread { () -> (CompiledPolicy, Int) in
            let copies = ThreadCopies.current
            return (copies.policy(served), copies.number)
        }
        let there = Self.identity(copy)
        #expect(there != Self.identity(here) && there != Self.identity(served.compiled), "another thread, another copy")
        #expect(number != ThreadCopies.current.number)
        // A new version of the policy (another hash) is another copy.
        let next = try Self.served(hash: "h2")
        #expect(Self.identity(ThreadCopies.current.policy(next)) != Self.identity(here))
    }

    @Test("a thread keeps at most maxPolicies copies, then starts again")
    func boundedCopies() throws {
        let versions = try (0...ThreadCopies.maxPolicies).map { try Self.served(hash: "v\($0)") }
        // On a thread of its own, whose copies no other test has touched; the expectations are
        // checked here, on the test's thread.
        let (kept, stillKept, afterReset) = TableStoreTests.onAnotherThread { () -> (ObjectIdentifier?, ObjectIdentifier?, ObjectIdentifier?) in
            let copies = ThreadCopies.current
            let firstCopy = copies.policy(versions[0])
            return withExtendedLifetime(firstCopy) {  // its objects' addresses stay taken
                let kept = Self.identity(firstCopy)
                for v in versions[1..<ThreadCopies.maxPolicies] { _ = copies.policy(v) }
                let stillKept = Self.identity(copies.policy(versions[0]))
                _ = copies.policy(versions[ThreadCopies.maxPolicies])  // one too many: all are let go
                return (kept, stillKept, Self.identity(copies.policy(versions[0])))
            }
        }
        #expect(kept != nil)
        #expect(stillKept == kept, "still kept with maxPolicies versions")
        #expect(afterReset != kept, "let go, compiled again")
    }
}
#endif
