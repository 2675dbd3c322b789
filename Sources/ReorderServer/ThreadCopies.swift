#if Server  // the server is built with the `Server` trait only (Package.swift)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ReorderEngine
import ReorderPolicy
import Synchronization

/// Each thread's own copies of the compiled policies, and its number (stored tables keep a
/// binding per thread: `TableStore`).
///
/// Requests on several threads deciding with one `CompiledPolicy` or one stored binding
/// retain and release the same objects (the rules' references in every violation, the
/// binding's arrays in every request) from several cores at once; the reference counts'
/// cache lines then move between cores on every change, which costs more than the deciding
/// (BENCHMARKS.md: `check --moves` ran at half speed in half its runs until each of its
/// threads had its own binding). A request is decided on one thread from start to end (the
/// decision functions do not suspend), so the copies of the thread it runs on serve it whole.
///
/// A copy is made the first time a thread decides for a policy version (its name and hash):
/// `CompiledPolicy(policy)` again. At most `maxPolicies` are kept per thread (all are let go
/// when one more is needed), so memory stays bounded by the threads times that count.
final class ThreadCopies {
    static let maxPolicies = 32

    /// This thread's number: 0, 1, 2, … in the order threads first asked.
    let number: Int
    private static let counter = Atomic<Int>(0)

    private init() {
        number = Self.counter.add(1, ordering: .relaxed).oldValue
    }

    /// A policy version: its name and its file's hash (no string built per request).
    private struct Version: Hashable {
        let name: String
        let hash: String
    }
    private var policies: [Version: CompiledPolicy] = [:]

    /// The current thread's copies.
    static var current: ThreadCopies {
        if let raw = pthread_getspecific(key) {
            return Unmanaged<ThreadCopies>.fromOpaque(raw).takeUnretainedValue()
        }
        let copies = ThreadCopies()
        pthread_setspecific(key, Unmanaged.passRetained(copies).toOpaque())
        return copies
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // Released when the thread ends.
        pthread_key_create(&key, releaseCopies)
        return key
    }()

    /// This thread's copy of `served`'s compiled policy.
    func policy(_ served: ServedPolicy) -> CompiledPolicy {
        let version = Version(name: served.name, hash: served.hash)
        if let copy = policies[version] { return copy }
        // A policy that compiled once compiles again; should it not, the shared one serves.
        let copy = (try? CompiledPolicy(served.compiled.policy)) ?? served.compiled
        if policies.count >= Self.maxPolicies { policies.removeAll() }
        policies[version] = copy
        return copy
    }
}

#if canImport(Glibc)
private func releaseCopies(_ raw: UnsafeMutableRawPointer?) {
    guard let raw else { return }
    Unmanaged<ThreadCopies>.fromOpaque(raw).release()
}
#else
private func releaseCopies(_ raw: UnsafeMutableRawPointer) {
    Unmanaged<ThreadCopies>.fromOpaque(raw).release()
}
#endif
#endif
