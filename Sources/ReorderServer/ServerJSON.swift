#if Server  // the server is built with the `Server` trait only (Package.swift)
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
        for (n, (_, p)) in snapshot.policies.sorted(by: { $0.key < $1.key }).enumerated() {
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

extension ServerJSON {
    /// `GET /v1/playground/examples` (`--playground` only): the served policies with their text,
    /// and every table file found below the `--policies` directories, as request JSON:
    /// `{ "policies": [ { "name", "file", "text" } ], "tables": [ { "file", "table" } ] }`.
    /// Files are named relative to the `--policies` path they were found under (``exampleName``),
    /// never with a path of the server's; a table name found under two paths is listed once (the
    /// first path's). Read when asked, so edits and hot reloads show.
    static func examples(_ snapshot: PolicySnapshot, paths: [String]) -> [UInt8] {
        var w = JSONWriter(capacity: 16_384)
        w.raw("{\"policies\": [")
        var first = true
        for (_, p) in snapshot.policies.sorted(by: { $0.key < $1.key }) {
            guard let source = try? SourceFile.read(p.file) else { continue }
            w.raw(first ? "\n  " : ",\n  ")
            first = false
            w.raw("{\"name\": ")
            w.string(p.name)
            w.raw(", \"file\": ")
            w.string(exampleName(p.file, under: paths))
            w.raw(", \"text\": ")
            w.string(String(decoding: source.bytes, as: UTF8.self))
            w.raw("}")
        }
        w.raw(first ? "], \"tables\": [" : "\n], \"tables\": [")
        first = true
        var tables: [(name: String, json: String)] = []
        var listed = Set<String>()
        for path in paths {
            for file in Linter.policyFiles(under: path) {
                let name = exampleName(file, under: [path])
                guard !listed.contains(name) else { continue }
                let (table, _, diagnostics) = TableLoader.load(path: file)
                guard let table, diagnostics.isEmpty else { continue }
                listed.insert(name)
                tables.append((name, PlaygroundService.tableJSON(table)))
            }
        }
        for (name, json) in tables.sorted(by: { $0.name < $1.name }) {
            w.raw(first ? "\n  " : ",\n  ")
            first = false
            w.raw("{\"file\": ")
            w.string(name)
            w.raw(", \"table\": ")
            w.bytes(json)
            w.raw("}")
        }
        w.raw(first ? "]}\n" : "\n]}\n")
        return w.bytes
    }

    /// `file` as the examples name it: relative to the first of `paths` it lies below (a
    /// policy file given as a path itself: its file name), so that no answer shows where the
    /// server's files are. Never absolute.
    static func exampleName(_ file: String, under paths: [String]) -> String {
        for path in paths {
            let folder = path.hasSuffix("/") ? path : path + "/"
            if file.hasPrefix(folder) && file.count > folder.count { return String(file.dropFirst(folder.count)) }
            if file == path { break }
        }
        return file.split(separator: "/").last.map(String.init) ?? ""
    }

    /// A stored table: `{ "table-ref": "<sha256>", "sections": S, "rows": R }`.
    static func storedTable(_ ref: String, _ table: Table) -> [UInt8] {
        var w = JSONWriter(capacity: 128)
        w.raw("{\"table-ref\": ")
        w.string(ref)
        w.raw(", \"sections\": ")
        w.int(table.sections.count)
        w.raw(", \"rows\": ")
        w.int(table.sections.reduce(0) { $0 + $1.rows.count })
        w.raw("}\n")
        return w.bytes
    }
}
#endif
