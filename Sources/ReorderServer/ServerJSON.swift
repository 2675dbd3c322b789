import ReorderPolicy

/// The server's own JSON bodies: `/health` and `/v1/policies` (SPEC §9).
enum ServerJSON {
    /// `{ "status": "ok", "policies": N }`, or `"degraded"` with `"errors"`: lint diagnostics
    /// in the shape of `lint --format json` (SPEC §5.2).
    static func health(_ snapshot: PolicySnapshot) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.raw("{\"status\": ")
        w.string(snapshot.errors.isEmpty ? "ok" : "degraded")
        w.raw(", \"policies\": ")
        w.int(snapshot.policies.count)
        if !snapshot.errors.isEmpty {
            w.raw(", \"errors\": [")
            for (n, d) in snapshot.errors.enumerated() {
                if n > 0 { w.raw(", ") }
                DiagnosticRenderer.diagnosticJSON(d, into: &w)
            }
            w.raw("]")
        }
        w.raw("}\n")
        return w.bytes
    }

    /// `{ "policies": [ { "name", "file", "hash" } ] }`, sorted by name.
    static func policies(_ snapshot: PolicySnapshot) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.raw("{\"policies\": [")
        for (n, name) in snapshot.policies.keys.sorted().enumerated() {
            let p = snapshot.policies[name]!
            w.raw(n == 0 ? "\n  " : ",\n  ")
            w.raw("{\"name\": ")
            w.string(p.name)
            w.raw(", \"file\": ")
            w.string(p.file)
            w.raw(", \"hash\": ")
            w.string(p.hash)
            w.raw("}")
        }
        w.raw(snapshot.policies.isEmpty ? "]}\n" : "\n]}\n")
        return w.bytes
    }
}
