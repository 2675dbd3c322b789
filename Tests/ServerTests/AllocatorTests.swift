#if Server  // the server is built with the `Server` trait only (Package.swift)
import CServerSupport
import Foundation
import Synchronization
import Testing

/// The server keeps freed memory for the next request (docs/SERVER.md, "Memory kept for
/// reuse"). From session 14 to 16 the C call compiled to nothing (its `#if defined(__GLIBC__)`
/// came before any header that defines it), and no test noticed: these two would have.
@Suite("allocator settings", .serialized)
struct AllocatorTests {
    #if os(Linux) && canImport(Glibc)
    @Test("on glibc the C call reaches mallopt and the allocator takes every setting")
    func settingsAreTaken() {
        #expect(reorder_server_keep_freed_memory(32 << 20, 8 << 20, 8 << 20) == 1)
    }

    @Test("a warm server answers 1,000-move batches without faulting pages in again")
    func batchesReuseMemory() throws {
        let server = try ServerProcess(["--policies", "policies"])
        defer { _ = server.stop() }
        let rows = (0..<10).map { s in
            #"{"id": "S\#(s)", "rows": ["# + (0..<100).map { #""r\#(s)-\#($0)""# }.joined(separator: ", ") + "]}"
        }
        let moves = (0..<1_000).map { k in #"{"from": [\#(k % 10), \#(k % 97)], "to": [\#((k * 7) % 10), \#((k * 13) % 99)]}"# }
        let body = #"{"table": {"sections": [\#(rows.joined(separator: ", "))]}, "moves": [\#(moves.joined(separator: ", "))]}"#
        // Eight clients at once, as under load: one after the other, glibc's own sliding
        // thresholds happen to keep the memory too.
        let clients = 8, rounds = 6
        func load() -> Int {
            let ok = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: clients) { _ in
                for _ in 0..<rounds where (try? server.post("/v1/policies/grouped-list/check", json: body))?.status == 200 {
                    ok.withLock { $0 += 1 }
                }
            }
            return ok.withLock { $0 }
        }
        #expect(load() == clients * rounds)  // warm
        let before = try Self.minorFaults(server.process.processIdentifier)
        #expect(load() == clients * rounds)
        let perRequest = Double(try Self.minorFaults(server.process.processIdentifier) - before) / Double(clients * rounds)
        // With the settings: about none (a page or two for a new connection). Without them a
        // batch's reader tape and answer (about 600 KB) were given back and faulted in again:
        // 60 to 80 pages a request.
        #expect(perRequest < 16, "\(perRequest) page faults a request")
    }

    /// The process's minor page faults so far (`minflt`, field 10 of /proc/PID/stat).
    static func minorFaults(_ pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command (field 2) is in parentheses and may hold spaces: count from after it.
        guard let close = stat.range(of: ")", options: .backwards) else { return 0 }
        let fields = stat[close.upperBound...].split(separator: " ")
        return Int(fields[7]) ?? 0  // fields[0] is field 3 (state)
    }
    #endif
}
#endif
