#if Server  // the server is built with the `Server` trait only (Package.swift)
import Crypto
import ReorderServer
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bundled policies with a table each, as JSON (the same tables as `policies/tables`).
let bundled: [(policy: String, name: String, table: String)] = [
    ("policies/board.yaml", "board", """
        {"sections": [
          {"id": "Backlog", "rows": ["Login page", {"id": "Payments", "tags": ["blocked"]}, "Search"]},
          {"id": "Doing", "rows": ["Signup", "Profile", "Settings"]},
          {"id": "Review", "rows": ["Onboarding"]},
          {"id": "Archive", "rows": ["Logo", "Landing page"]}]}
        """),
    ("policies/grouped-list.yaml", "grouped-list", """
        {"sections": [
          {"id": "Market", "rows": ["Apples", "Bread", "Cheese", {"id": "Add", "kind": "add"}]},
          {"id": "Pharmacy", "rows": ["Plasters", "Vitamins", {"id": "Add", "kind": "add"}]},
          {"id": "Archive", "rows": ["Batteries", {"id": "Add", "kind": "add"}]}]}
        """),
    ("policies/status-list.yaml", "status-list", """
        {"sections": [
          {"id": "Inbox", "rows": [{"id": "Status", "kind": "status"}, "Groceries", "Dentist", "Taxes"]},
          {"id": "Later", "rows": ["Garden", {"id": "Note", "tags": ["pinned"]}]}]}
        """),
]

/// Every row move of a table (also out-of-range ones), every section move, and malformed items.
func everyMove(_ table: String) throws -> [String] {
    let object = try JSONSerialization.jsonObject(with: Data(table.utf8)) as! [String: Any]
    let counts = (object["sections"] as! [[String: Any]]).map { ($0["rows"] as! [Any]).count }
    var moves: [String] = []
    for s in counts.indices {
        for i in 0..<counts[s] {
            for t in counts.indices {
                for j in -1...(counts[t] + 1) { moves.append(#"{"from": [\#(s), \#(i)], "to": [\#(t), \#(j)]}"#) }
            }
        }
    }
    for a in -1...counts.count { for b in 0..<counts.count { moves.append(#"{"section-from": \#(a), "section-to": \#(b)}"#) } }
    moves += [#"{"from": [0, 0]}"#, #"{"from": [0, 0], "to": [0, 1.5]}"#, #"[1, 2]"#, #"{"from-offsets": [0, 1], "to-offset": 3, "section": 0}"#]
    return moves
}

@Suite("Decision server over HTTP", .serialized)
struct ServerTests {
    static let policies = ["--policies", "policies"]

    @Test("health and the policy list name every bundled policy with its file hash")
    func healthAndPolicies() throws {
        let server = try ServerProcess(Self.policies)
        #expect(server.firstLine.hasPrefix("reorder-policy-server listening on http://127.0.0.1:"))
        let health = try server.get("/health")
        #expect(health.status == 200)
        #expect(health.json?["status"] as? String == "ok")
        #expect(health.json?["policies"] as? Int == 8)
        let list = try server.get("/v1/policies")
        let entries = list.json?["policies"] as? [[String: String]] ?? []
        #expect(entries.map { $0["name"] } == ["board", "chats", "grouped-list", "kanban", "pinned-chats", "settings", "sharing-buttons", "status-list"])
        #expect(entries.allSatisfy { $0["hash"]?.hasPrefix("fnv1a64:") == true && $0["file"]?.hasPrefix("policies/") == true })
        #expect(server.stop() == 0)
    }

    @Test("check answers byte for byte as the CLI does, for every move of every bundled policy")
    func checkEqualsCLI() throws {
        let server = try ServerProcess(Self.policies)
        let dir = try Build.scratchDirectory()
        for (policy, name, table) in bundled {
            let moves = "[\n" + (try everyMove(table)).joined(separator: ",\n") + "\n]"
            let tableFile = dir.appendingPathComponent("\(name)-table.json"), movesFile = dir.appendingPathComponent("\(name)-moves.json")
            try table.write(to: tableFile, atomically: true, encoding: .utf8)
            try moves.write(to: movesFile, atomically: true, encoding: .utf8)
            let cli = try Build.cli(["check", "--policy", policy, "--table", tableFile.path, "--moves", movesFile.path, "--format", "json"])
            let reply = try server.post("/v1/policies/\(name)/check", json: #"{"table": \#(table), "moves": \#(moves)}"#)
            #expect(reply.status == 200)
            #expect(cli.status == 2, "the corpus holds invalid moves, so the CLI exits 2")
            #expect(reply.text == String(decoding: cli.stdout, as: UTF8.self), "policy \(name)")
        }
        #expect(server.stop() == 0)
    }

    @Test("explain answers byte for byte as the CLI does, also for section moves and out-of-range moves")
    func explainEqualsCLI() throws {
        let server = try ServerProcess(Self.policies)
        let dir = try Build.scratchDirectory()
        for (policy, name, table) in bundled {
            let tableFile = dir.appendingPathComponent("\(name)-table.json")
            try table.write(to: tableFile, atomically: true, encoding: .utf8)
            let cases: [(json: String, flags: [String])] = [
                (#"{"from": [0, 1], "to": [0, 0]}"#, ["--from", "0.1", "--to", "0.0"]),
                (#"{"from": [0, 1], "to": [1, 1]}"#, ["--from", "0.1", "--to", "1.1"]),
                (#"{"from": [1, 0], "to": [0, 2]}"#, ["--from", "1.0", "--to", "0.2"]),
                (#"{"from": [0, 0], "to": [0, 9]}"#, ["--from", "0.0", "--to", "0.9"]),
                (#"{"section-from": 1, "section-to": 0}"#, ["--section-from", "1", "--section-to", "0"]),
            ]
            for (json, flags) in cases {
                let cli = try Build.cli(["explain", "--policy", policy, "--table", tableFile.path, "--format", "json"] + flags)
                let reply = try server.post("/v1/policies/\(name)/explain", json: #"{"table": \#(table), "move": \#(json)}"#)
                #expect(reply.status == 200)
                #expect(reply.text == String(decoding: cli.stdout, as: UTF8.self), "policy \(name), move \(json)")
            }
        }
        #expect(server.stop() == 0)
    }

    @Test("every error has its status and code, as a JSON body")
    func errorCodes() throws {
        let server = try ServerProcess(Self.policies + ["--max-body", "4096"])
        let table = #"{"sections": [{"rows": ["a", "b"]}]}"#
        let cases: [(method: String, path: String, body: String, status: Int, code: String)] = [
            ("GET", "/nowhere", "", 404, "not-found"),
            ("GET", "/v1/policies/board", "", 404, "not-found"),
            ("POST", "/v1/policies/board/decide", "{}", 404, "not-found"),
            ("POST", "/v1/policies/nope/check", #"{"table": \#(table), "moves": []}"#, 404, "unknown-policy"),
            ("GET", "/v1/policies/board/check", "", 405, "method-not-allowed"),
            ("DELETE", "/v1/policies", "", 405, "method-not-allowed"),
            ("POST", "/health", "{}", 405, "method-not-allowed"),
            ("PUT", "/v1/policies/board/explain", "{}", 405, "method-not-allowed"),
            ("POST", "/v1/policies/board/check", "", 400, "bad-request"),
            ("POST", "/v1/policies/board/check", "{\"table\": ", 400, "bad-request"),
            ("POST", "/v1/policies/board/check", "not json", 400, "bad-request"),
            ("POST", "/v1/policies/board/check", "[1, 2]", 400, "bad-request"),
            ("POST", "/v1/policies/board/check", "{table: {sections: []}, moves: []}", 400, "bad-request"),
            ("POST", "/v1/policies/board/check", #"{"moves": []}"#, 400, "bad-request"),
            ("POST", "/v1/policies/board/check", #"{"table": \#(table), "moves": [], "extra": 1}"#, 400, "bad-request"),
            ("POST", "/v1/policies/board/check", #"{"table": \#(table), "moves": {"from": [0, 0]}}"#, 400, "bad-request"),
            ("POST", "/v1/policies/board/check", #"{"table": {"sections": [{"rows": 5}]}, "moves": []}"#, 400, "bad-request"),
            ("POST", "/v1/policies/board/check", #"{"table": {"sections": [{"id": "x"}]}, "moves": []}"#, 400, "bad-request"),
            ("POST", "/v1/policies/board/check", #"{"table": {"rows": []}, "moves": []}"#, 400, "bad-request"),
            ("POST", "/v1/policies/board/explain", #"{"table": \#(table), "move": {"from": [0]}}"#, 400, "bad-request"),
            ("POST", "/v1/policies/board/explain", #"{"table": \#(table), "move": {"from-offsets": [0], "to-offset": 2, "section": 0}}"#, 400, "bad-request"),
            ("POST", "/v1/policies/board/explain", #"{"table": \#(table), "moves": []}"#, 400, "bad-request"),
            ("POST", "/v1/policies/board/check", #"{"table": \#(table), "moves": ["\#(String(repeating: "x", count: 5000))"]}"#, 413, "too-large"),
        ]
        for c in cases {
            let reply = try server.request(c.method, c.path, body: Array(c.body.utf8))
            #expect(reply.status == c.status, "\(c.method) \(c.path) \(c.body.prefix(60))")
            #expect(reply.errorCode == c.code, "\(c.method) \(c.path) \(c.body.prefix(60)): \(reply.text)")
            #expect(reply.headers["content-type"] == "application/json")
            let message = (reply.json?["error"] as? [String: Any])?["message"] as? String
            #expect(message?.isEmpty == false)
        }
        // Requests the HTTP parser refuses before any route get the same JSON error body.
        let malformed: [(String, [String: String])] = [
            ("POST", ["Content-Length": "abc"]), ("BREW", [:]), ("POST", ["Content-Length": "2", "Transfer-Encoding": "chunked"]),
            ("POST", ["Content-Length": "99999999999999999999"]), ("GET", ["X-Big": String(repeating: "x", count: 100_000)]),
        ]
        for (method, headers) in malformed {
            let reply = try server.request(method, "/v1/policies/board/check", headers: headers)
            #expect(reply.status == 400, "\(method) \(headers.keys.sorted())")
            #expect(reply.errorCode == "bad-request", "\(method) \(headers.keys.sorted()): \(reply.text)")
            #expect(reply.headers["content-type"] == "application/json")
        }
        #expect(try server.get("/health").status == 200, "the server is still up")
        // A 405 names every method the route answers, HEAD with GET (RFC 9110 §10.2.1).
        #expect(try server.request("POST", "/health").headers["allow"] == "GET, HEAD")
        #expect(try server.request("GET", "/v1/policies/board/check").headers["allow"] == "POST")
        #expect(try server.request("DELETE", "/v1/tables/\(String(repeating: "0", count: 64))").headers["allow"] == "PUT, GET, HEAD")
        // A bad move inside a batch is a result, not an HTTP error.
        let batch = try server.post("/v1/policies/board/check", json: #"{"table": \#(table), "moves": [{"from": [0, 0], "to": [5, 5]}, {"x": 1}]}"#)
        #expect(batch.status == 200)
        #expect((batch.json?["summary"] as? [String: Int])?["invalid"] == 2)
        #expect(server.stop() == 0)
    }

    /// Issue #26: a client that writes its whole body before it reads (Python's http.client,
    /// urllib, which sends `Connection: close`) must get the status of an early refusal; the
    /// server used to stop reading and the client stalled until its timeout.
    @Test("a body the answer does not read is read and discarded first (lingering close): the client gets its 413 or 404")
    func lingeringClose() throws {
        let server = try ServerProcess(Self.policies + ["--max-body", String(1 << 20)])
        let script = """
            import http.client, sys
            port, path, size, close = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4] == "close"
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            headers = {"Content-Type": "application/json"}
            if close: headers["Connection"] = "close"
            c.request("POST", path, body=b"x" * size, headers=headers)
            r = c.getresponse()
            print(r.status, r.read().decode()[:200])
            """
        let cases: [(path: String, size: Int, status: Int)] = [
            ("/v1/policies/board/check", 6 << 20, 413),      // Content-Length above --max-body
            ("/v1/policies/nope/check", 6 << 20, 404),       // refused before the body is read
            ("/nothing", 6 << 20, 404),
            ("/v1/policies/board/check", 1000, 400),         // read, and not JSON
        ]
        for c in cases {
            for close in ["close", "keep-alive"] {
                let run = try Build.python(["-c", script, String(server.port), c.path, String(c.size), close])
                #expect(run.status == 0 && run.output.hasPrefix("\(c.status) "), "\(c.path) \(close): \(run.output)")
            }
        }
        // A raw socket that sends everything before reading, with `Connection: close`.
        let raw = try server.request("POST", "/v1/policies/board/check", body: Array(repeating: UInt8(ascii: "x"), count: 6 << 20))
        #expect(raw.status == 413 && raw.errorCode == "too-large")
        #expect(server.stop() == 0)
    }

    /// RFC 9112 §9.3: an HTTP/1.0 connection closes after the answer unless the request asked
    /// to keep it. The server used to keep it open until its 30-second idle timeout, so a
    /// client that reads to the end of the connection (ApacheBench, a bare socket) stalled.
    @Test("HTTP/1.0 without keep-alive is answered and closed at once; with keep-alive it stays open")
    func http10Closes() throws {
        let server = try ServerProcess(Self.policies)
        let script = #"""
            import re, socket, sys, time
            port = int(sys.argv[1])
            def exchange(requests, keep):
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
                started, answers = time.time(), b""
                for r in requests:
                    s.sendall(r)
                    if keep:
                        time.sleep(0.3)
                        answers += s.recv(1 << 20)
                if not keep:
                    while True:
                        chunk = s.recv(1 << 16)
                        if not chunk: break
                        answers += chunk
                s.close()
                return answers.decode(errors="replace"), time.time() - started
            body = b'{"table": {"sections": [{"id": "a", "rows": ["x", "y"]}]}, "moves": [{"from": [0, 0], "to": [0, 1]}]}'
            cases = [
                b"GET /health HTTP/1.0\r\nHost: x\r\n\r\n",
                b"POST /v1/policies/board/check HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body),
                b"GET /nothing HTTP/1.0\r\n\r\n",
            ]
            for c in cases:
                text, took = exchange([c], keep=False)
                print("closed", text.split("\r\n")[0], "close" in text.lower().split("\r\n\r\n")[0], round(took, 2))
            text, took = exchange([b"GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"] * 2, keep=True)
            print("kept", text.count("200 OK"), text.lower().count("connection: keep-alive"))
            text, took = exchange([b"GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.0\r\n\r\n"], keep=False)
            heads = re.findall(r"HTTP/1\.[01] \d{3}[^\r]*\r\n(?:[^\r]+\r\n)*\r\n", text)
            print("pipelined", len(heads), ",".join(str("connection: close" in h.lower()) for h in heads), round(took, 2))
            text, took = exchange([b"POST /v1/policies/board/check HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n"], keep=False)
            head = text.split("\r\n\r\n")[0].lower()
            print("broken", text.split(" ")[1], "connection: close" in head, "keep-alive" in head, round(took, 2))
            """#
        let run = try Build.python(["-c", script, String(server.port)])
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(run.status == 0 && lines.count == 6, "\(run.output)")
        for (line, status) in zip(lines.prefix(3), ["200", "200", "404"]) {
            let fields = line.split(separator: " ")
            // "closed HTTP/1.1 200 OK True 0.01": the answer, `Connection: close`, and no wait.
            #expect(fields.count >= 5 && fields[2] == Substring(status) && fields[fields.count - 2] == "True"
                    && (Double(fields[fields.count - 1]) ?? 99) < 5, "\(line)")
        }
        #expect(lines.count > 3 && lines[3] == "kept 2 2", "\(run.output)")
        // Pipelined in one write, HTTP/1.1 then HTTP/1.0: each answer says what its own request
        // asked for (the first nothing, the second close), and the connection closes after both.
        let pipelined = lines.count > 4 ? lines[4].split(separator: " ") : []
        #expect(pipelined.count == 4 && pipelined[1] == "2" && pipelined[2] == "False,True" && (Double(pipelined[3]) ?? 99) < 5,
                "\(run.output)")
        // A body that breaks off (a bad chunk) ends the connection: its 400 says close, never
        // keep-alive, even to an HTTP/1.0 client that asked to keep it.
        #expect(lines.last?.hasPrefix("broken 400 True False ") == true, "\(run.output)")
        #expect(server.stop() == 0)
    }

    @Test("hostile bodies get a 4xx JSON error, never a 5xx, a hang or a crash")
    func hostileBodies() throws {
        let server = try ServerProcess(Self.policies + ["--max-body", String(1 << 20)])
        let table = #"{"sections": [{"rows": ["a", "b"]}]}"#
        var aliases = "{\"table\": &a {\"sections\": []}, \"moves\": [*a"
        for _ in 0..<2_000 { aliases += ", *a" }
        aliases += "]}"
        let deep = String(repeating: "[", count: 60_000) + String(repeating: "]", count: 60_000)
        var wide = "{"
        for k in 0..<50_000 { wide += "\"k\(k)\": \(k), " }
        wide += "\"z\": 0}"
        let bodies: [(String, [UInt8])] = [
            ("alias bomb", Array(aliases.utf8)),
            ("deep nesting", Array(deep.utf8)),
            ("deep table", Array((#"{"table": "# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + #", "moves": []}"#).utf8)),
            ("invalid UTF-8", Array(#"{"table": {"sections": [{"rows": [""#.utf8) + [0xFF, 0xFE] + Array(#""]}]}, "moves": []}"#.utf8)),
            ("NUL byte", Array(#"{"table": "#.utf8) + [0] + Array("}".utf8)),
            ("duplicate keys", Array(#"{"table": \#(table), "table": \#(table), "moves": []}"#.utf8)),
            ("tag", Array(#"{"table": !x \#(table), "moves": []}"#.utf8)),
            ("two documents", Array("{\"table\": \(table), \"moves\": []}\n---\n{}".utf8)),
            ("wide mapping", Array(wide.utf8)),
            ("over max-body", Array(repeating: UInt8(ascii: " "), count: (1 << 20) + 10)),
            ("lying content-length", Array("{}".utf8)),
        ]
        for (label, body) in bodies {
            let headers = label == "lying content-length" ? ["Content-Length": String(1 << 30)] : [:]
            let started = Date()
            let reply = try server.request("POST", "/v1/policies/board/check", body: body, headers: headers)
            #expect((400..<500).contains(reply.status), "\(label): \(reply.status) \(reply.text.prefix(200))")
            #expect(reply.errorCode != nil, "\(label)")
            // A hang guard: each body is answered in milliseconds, the lying Content-Length
            // after the server's lingering time (2 s; the whole loop took 2.1 s in a debug build,
            // 2026-11-29): 30 s is 15 times that.
            #expect(Date().timeIntervalSince(started) < 30, "\(label) took too long")
        }
        #expect(try server.get("/health").status == 200, "the server is still up")
        #expect(server.stop() == 0)
    }

    /// How long a test waits for a reload: a hang guard. An edit is picked up at the next look
    /// at the files (every `reloadInterval`, 500 ms) plus a reload (milliseconds): the need is
    /// at most about 0.6 s, and 10 s is over 15 times that. The SPEC's "within 2 seconds" is
    /// checked as the interval it follows from (`theReloadIntervalKeepsTheTwoSecondPromise`),
    /// not by the clock of a loaded machine (issue #59).
    static let reloadWait = 10.0

    @Test("a policy edit is picked up within 2 s: the files are looked at every 500 ms, well inside it")
    func theReloadIntervalKeepsTheTwoSecondPromise() {
        let interval = ServerConfiguration(policies: []).reloadInterval
        #expect(interval <= .milliseconds(500), "SPEC §9: a change is picked up within 2 seconds; the files are looked at every \(interval)")
    }

    @Test("good edits are served within 2 s; a broken edit keeps the old version and shows in /health until fixed")
    func hotReload() throws {
        let dir = try Build.scratchDirectory()
        let source = try String(contentsOf: Build.packageRoot.appendingPathComponent("policies/status-list.yaml"), encoding: .utf8)
        let file = dir.appendingPathComponent("status.yaml")
        try source.write(to: file, atomically: true, encoding: .utf8)
        try "sections: []\n".write(to: dir.appendingPathComponent("a-table.yaml"), atomically: true, encoding: .utf8)
        let server = try ServerProcess(["--policies", dir.path])
        func hash(_ name: String) throws -> String? {
            let entries = try server.get("/v1/policies").json?["policies"] as? [[String: String]] ?? []
            return entries.first { $0["name"] == name }?["hash"]
        }
        let first = try hash("status-list")
        #expect(first != nil)
        let table = #"{"sections": [{"rows": [{"id": "S", "kind": "status"}, "a", "b"]}]}"#
        let move = #"{"from": [0, 2], "to": [0, 0]}"#
        let before = try server.post("/v1/policies/status-list/check", json: #"{"table": \#(table), "moves": [\#(move)]}"#).text

        // A good edit: a new description changes the hash.
        try (source + "\n# edited\n").write(to: file, atomically: true, encoding: .utf8)
        #expect(try eventually(within: Self.reloadWait) { try hash("status-list") != first })
        let second = try hash("status-list")

        // A broken edit: still served as before, health degraded with located errors.
        try source.replacingOccurrences(of: "rules:", with: "rulez:").write(to: file, atomically: true, encoding: .utf8)
        #expect(try eventually(within: Self.reloadWait) { try server.get("/health").json?["status"] as? String == "degraded" })
        let health = try server.get("/health").json
        let errors = health?["errors"] as? [[String: Any]] ?? []
        #expect(errors.contains { $0["code"] as? String == "unknown-key" && ($0["file"] as? String)?.hasSuffix("status.yaml") == true && ($0["line"] as? Int ?? 0) > 0 })
        #expect(health?["policies"] as? Int == 1)
        #expect(try hash("status-list") == second)
        #expect(try server.post("/v1/policies/status-list/check", json: #"{"table": \#(table), "moves": [\#(move)]}"#).text == before)

        // Fixed: healthy again. A new file is served, a removed one is gone.
        try source.write(to: file, atomically: true, encoding: .utf8)
        #expect(try eventually(within: Self.reloadWait) { try server.get("/health").json?["status"] as? String == "ok" })
        let other = source.replacingOccurrences(of: "name: status-list", with: "name: second-list")
        try other.write(to: dir.appendingPathComponent("second.yml"), atomically: true, encoding: .utf8)
        #expect(try eventually(within: Self.reloadWait) { try hash("second-list") != nil })
        try FileManager.default.removeItem(at: file)
        #expect(try eventually(within: Self.reloadWait) { try hash("status-list") == nil })
        #expect(try server.post("/v1/policies/status-list/check", json: #"{"table": \#(table), "moves": []}"#).errorCode == "unknown-policy")

        // A second file that takes a served name is an error, and the first keeps the name.
        try other.write(to: dir.appendingPathComponent("third.yaml"), atomically: true, encoding: .utf8)
        #expect(try eventually(within: Self.reloadWait) {
            let errors = try server.get("/health").json?["errors"] as? [[String: Any]] ?? []
            return errors.contains { $0["code"] as? String == "duplicate-policy-name" }
        })
        #expect(try hash("second-list") != nil)
        let metrics = try server.get("/metrics").text
        #expect(metrics.contains("reorder_policy_reloads_total"))
        #expect(metrics.contains("reorder_policy_reload_failures_total"))
        #expect(server.stop() == 0)
    }

    @Test("a new file naming a served policy is refused and never takes the name over, whatever its file name",
          arguments: ["a-new.yaml", "zdup.yaml"])
    func newcomerCannotTakeOverAName(newcomer: String) throws {
        let dir = try Build.scratchDirectory()
        let source = try String(contentsOf: Build.packageRoot.appendingPathComponent("policies/status-list.yaml"), encoding: .utf8)
        try source.write(to: dir.appendingPathComponent("status-list.yaml"), atomically: true, encoding: .utf8)
        let server = try ServerProcess(["--policies", dir.path])
        func served() throws -> String? {
            let entries = try server.get("/v1/policies").json?["policies"] as? [[String: String]] ?? []
            return entries.first { $0["name"] == "status-list" }?["file"]
        }
        #expect(try served()?.hasSuffix("/status-list.yaml") == true)
        let body = #"{"table": {"sections": [{"rows": [{"id": "S", "kind": "status"}, "a", "b"]}]}, "moves": [{"from": [0, 2], "to": [0, 0]}]}"#
        let before = try server.post("/v1/policies/status-list/check", json: body).text
        #expect(before.contains("retargeted"))

        try "reorder-policy: 1\nname: status-list\nrules: []\n".write(to: dir.appendingPathComponent(newcomer), atomically: true, encoding: .utf8)
        #expect(try eventually(within: Self.reloadWait) { try server.get("/health").json?["status"] as? String == "degraded" })
        // Several more polls: the name must stay with the file that had it.
        usleep(1_600_000)
        let health = try server.get("/health").json
        let errors = health?["errors"] as? [[String: Any]] ?? []
        #expect(errors.count == 1)
        #expect(errors.first?["code"] as? String == "duplicate-policy-name")
        #expect((errors.first?["file"] as? String)?.hasSuffix("/" + newcomer) == true)
        #expect(try served()?.hasSuffix("/status-list.yaml") == true)
        #expect(try server.post("/v1/policies/status-list/check", json: body).text == before)

        // An edit of the original keeps the name with it too.
        try (source + "\n# edited\n").write(to: dir.appendingPathComponent("status-list.yaml"), atomically: true, encoding: .utf8)
        usleep(1_600_000)
        #expect(try served()?.hasSuffix("/status-list.yaml") == true)
        #expect(server.stop() == 0)
        let log = server.standardError()
        #expect(log.contains("its name is served from another file"))
        #expect(!log.contains("the previous version stays served"))
    }

    @Test("SIGTERM: requests in flight finish, every decision is in the log, exit 0")
    func gracefulShutdownFlushesLog() throws {
        let dir = try Build.scratchDirectory()
        let logPath = dir.appendingPathComponent("decisions.jsonl").path
        let server = try ServerProcess(Self.policies + ["--log", logPath])
        let table = bundled[0].table
        let moves = try everyMove(table)
        let body = #"{"table": \#(table), "moves": [\#(moves.joined(separator: ", "))]}"#
        nonisolated(unsafe) var statuses: [Int] = []
        let lock = NSLock()
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            DispatchQueue.global().async {
                let status = (try? server.post("/v1/policies/board/check", json: body))?.status ?? -1
                lock.withLock { statuses.append(status) }
                group.leave()
            }
        }
        usleep(50_000)
        #expect(server.stop(SIGTERM) == 0)
        group.wait()
        // Requests that reached the server were answered; every answered decision is logged.
        let answered = statuses.filter { $0 == 200 }.count
        let lines = try String(contentsOfFile: logPath, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == answered * moves.count)
        for line in lines.prefix(50) {
            let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(event?["policy"] as? String == "board")
            #expect((event?["policy-hash"] as? String)?.hasPrefix("fnv1a64:") == true)
        }
    }

    @Test("concurrent clients all get the right answers")
    func concurrentClients() throws {
        let server = try ServerProcess(Self.policies)
        let (_, name, table) = bundled[1]
        let body = #"{"table": \#(table), "moves": [{"from": [0, 0], "to": [1, 0]}, {"from": [0, 3], "to": [0, 0]}, {"from": [0, 1], "to": [0, 0]}]}"#
        let expected = try server.post("/v1/policies/\(name)/check", json: body).text
        nonisolated(unsafe) var wrong = 0
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<40 {
                let reply = try? server.post("/v1/policies/\(name)/check", json: body)
                if reply?.status != 200 || reply?.text != expected { lock.withLock { wrong += 1 } }
            }
        }
        #expect(wrong == 0)
        let metrics = try server.get("/metrics").text
        #expect(metrics.contains(#"reorder_http_requests_total{route="/v1/policies/{name}/check",status="200"} 321"#))
        #expect(metrics.contains(#"reorder_decisions_total{decision="allowed"}"#))
        #expect(metrics.contains("reorder_http_request_duration_seconds_bucket"))
        #expect(server.stop() == 0)
    }

    @Test("start-up refuses broken policies, duplicate names, missing paths, folders without policies and an unusable log, with exit 2")
    func startUpErrors() throws {
        let dir = try Build.scratchDirectory()
        let broken = dir.appendingPathComponent("broken.yaml")
        try "reorder-policy: 1\nname: x\nrules:\n  - pinn: all\n".write(to: broken, atomically: true, encoding: .utf8)
        let twin = dir.appendingPathComponent("twin")
        try FileManager.default.createDirectory(at: twin, withIntermediateDirectories: true)
        let policy = try String(contentsOf: Build.packageRoot.appendingPathComponent("policies/board.yaml"), encoding: .utf8)
        try policy.write(to: twin.appendingPathComponent("a.yaml"), atomically: true, encoding: .utf8)
        try policy.write(to: twin.appendingPathComponent("b.yaml"), atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["--policies", broken.path], "unknown-key"),
            (["--policies", twin.path], "duplicate-policy-name"),
            (["--policies", dir.appendingPathComponent("missing.yaml").path], "no such file"),
            (["--policies", "policies", "--log", dir.path], "decision log"),
            (["--policies", "policies", "--port", "70000"], "--port"),
            (["--policies", "policies", "--table-memory", "-1"], "--table-memory"),
            // A folder of tables only: no policy below it, as `lint` says.
            (["--policies", "policies/tables"], "no policy files below 'policies/tables'"),
        ]
        for (arguments, message) in cases {
            let process = Process()
            process.executableURL = Build.executable("reorder-policy-server")
            process.arguments = arguments
            process.currentDirectoryURL = Build.packageRoot
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // A server that starts instead of refusing is stopped after 20 s, so the test fails
            // rather than waiting for it forever.
            let guardian = DispatchWorkItem { if process.isRunning { process.terminate() } }
            DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: guardian)
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guardian.cancel()
            #expect(process.terminationStatus == 2, "\(arguments)")
            #expect(text.contains(message), "\(arguments): \(text)")
        }
    }

    /// The reference of a stored table: the SHA-256 of its bytes, as lowercase hex.
    static func reference(_ table: String) -> String {
        SHA256.hash(data: Array(table.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    @Test("a stored table named by table-ref is decided byte for byte as the same table sent whole")
    func storedTablesDecideAsSentTables() throws {
        let server = try ServerProcess(Self.policies)
        for (_, name, table) in bundled {
            let ref = Self.reference(table)
            let stored = try server.request("PUT", "/v1/tables/\(ref)", body: Array(table.utf8))
            #expect(stored.status == 201, "\(stored.text)")
            #expect(stored.headers["etag"] == "\"\(ref)\"")
            #expect(stored.json?["table-ref"] as? String == ref)
            #expect(try server.request("PUT", "/v1/tables/\(ref)", body: Array(table.utf8)).status == 200)
            #expect(try server.get("/v1/tables/\(ref)").status == 200)
            let moves = try everyMove(table).joined(separator: ", ")
            let sent = try server.post("/v1/policies/\(name)/check", json: #"{"table": \#(table), "moves": [\#(moves)]}"#)
            let named = try server.post("/v1/policies/\(name)/check", json: #"{"table-ref": "\#(ref)", "moves": [\#(moves)]}"#)
            #expect(sent.status == 200 && named.text == sent.text, "\(name)")
            let move = #"{"from": [0, 0], "to": [1, 0]}"#
            #expect(try server.post("/v1/policies/\(name)/explain", json: #"{"table-ref": "\#(ref)", "move": \#(move)}"#).text
                    == server.post("/v1/policies/\(name)/explain", json: #"{"table": \#(table), "move": \#(move)}"#).text)
            #expect(try server.post("/v1/policies/\(name)/destinations", json: #"{"table-ref": "\#(ref)", "from": [0, 1]}"#).text
                    == server.post("/v1/policies/\(name)/destinations", json: #"{"table": \#(table), "from": [0, 1]}"#).text)
        }
        let table = bundled[0].table, ref = Self.reference(table)
        // The body must be what the path names; a table of the wrong shape is refused like a sent one.
        let wrong = try server.request("PUT", "/v1/tables/\(String(repeating: "0", count: 64))", body: Array(table.utf8))
        #expect(wrong.status == 400 && wrong.text.contains(ref))
        let bad = #"{"sections": [{"rows": [[1]]}]}"#
        #expect(try server.request("PUT", "/v1/tables/\(Self.reference(bad))", body: Array(bad.utf8)).errorCode == "bad-request")
        #expect(try server.get("/v1/tables/not-a-reference").errorCode == "not-found")
        #expect(try server.request("DELETE", "/v1/tables/\(ref)").status == 405)
        // Unknown references, both fields, a reference of the wrong type.
        let unknown = String(repeating: "1", count: 64)
        #expect(try server.get("/v1/tables/\(unknown)").errorCode == "unknown-table")
        #expect(try server.post("/v1/policies/board/check", json: #"{"table-ref": "\#(unknown)", "moves": []}"#).errorCode == "unknown-table")
        #expect(try server.post("/v1/policies/board/check", json: #"{"table-ref": "\#(ref)", "table": \#(table), "moves": []}"#).errorCode == "bad-request")
        #expect(try server.post("/v1/policies/board/check", json: #"{"table-ref": 7, "moves": []}"#).errorCode == "bad-request")
        #expect(try server.post("/v1/policies/board/check", json: #"{"moves": []}"#).errorCode == "bad-request")
        #expect(server.stop() == 0)
    }

    @Test("stored tables stay within --table-memory: the least recently used go first, and a policy edit rebinds them")
    func storedTablesAreBoundedAndFollowPolicyEdits() throws {
        let dir = try Build.scratchDirectory()
        let source = try String(contentsOf: Build.packageRoot.appendingPathComponent("policies/status-list.yaml"), encoding: .utf8)
        let file = dir.appendingPathComponent("status.yaml")
        try source.write(to: file, atomically: true, encoding: .utf8)
        // Each table below is 68 bytes, 3 rows, 1 section: it counts 2 × 68 + 96 × 3 + 256 + 1,024
        // = 1,704 bytes; three fit in 6,000, four do not (eviction goes down to 4,500).
        let server = try ServerProcess(["--policies", dir.path, "--table-memory", "6000"])
        let tables = (0..<4).map { #"{"sections": [{"rows": [{"id": "S", "kind": "status"}, "a\#($0)", "b"]}]}"# }
        let refs = tables.map(Self.reference)
        for k in 0..<3 { #expect(try server.request("PUT", "/v1/tables/\(refs[k])", body: Array(tables[k].utf8)).status == 201) }
        // Table 0 is used again, so table 1 is now the least recently used.
        #expect(try server.get("/v1/tables/\(refs[0])").status == 200)
        #expect(try server.request("PUT", "/v1/tables/\(refs[3])", body: Array(tables[3].utf8)).status == 201)
        #expect(try server.get("/v1/tables/\(refs[1])").errorCode == "unknown-table")
        #expect(try server.get("/v1/tables/\(refs[0])").status == 200)
        #expect(try server.get("/v1/tables/\(refs[3])").status == 200)
        // A table larger than the whole budget is refused with 413.
        let large = #"{"sections": [{"rows": [\#((0..<200).map { "\"row\($0)\"" }.joined(separator: ", "))]}]}"#
        #expect(try server.request("PUT", "/v1/tables/\(Self.reference(large))", body: Array(large.utf8)).errorCode == "too-large")
        // `--table-memory 0` stores nothing: every table is too large for it.
        let none = try ServerProcess(["--policies", dir.path, "--table-memory", "0"])
        #expect(try none.request("PUT", "/v1/tables/\(refs[0])", body: Array(tables[0].utf8)).errorCode == "too-large")
        #expect(none.stop() == 0)

        // The binding kept for table 0 follows the policy: pinned, then (edited) free.
        let check = #"{"table-ref": "\#(refs[0])", "moves": [{"from": [0, 2], "to": [0, 0]}]}"#
        func decision() throws -> String? {
            ((try server.post("/v1/policies/status-list/check", json: check).json?["results"] as? [[String: Any]])?.first?["decision"]) as? String
        }
        #expect(try decision() == "retargeted")
        let metrics = try server.get("/metrics").text
        #expect(metrics.contains("reorder_tables_stored 2") && metrics.contains("reorder_tables_evicted_total 2"), "\(metrics)")
        try "reorder-policy: 1\nname: status-list\nrules: []\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try eventually(within: Self.reloadWait) { try decision() == "allowed" })
        #expect(server.stop() == 0)
    }

    @Test("the OpenAPI document is valid and describes exactly the routes the server answers")
    func openAPIMatchesServer() throws {
        let server = try ServerProcess(Self.policies)
        let reply = try server.get("/openapi.json")
        #expect(reply.status == 200)
        let document = try #require(reply.json)
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        #expect(Set(paths.keys) == ["/health", "/v1/policies", "/v1/policies/{name}/check", "/v1/policies/{name}/explain", "/v1/policies/{name}/destinations",
                                     "/v1/tables/{sha256}", "/client.js", "/metrics", "/openapi.json"])
        // A stored table, so that its route answers GET with 200 (PUT below sends no body: 400).
        let stored = Self.reference(bundled[0].table)
        #expect(try server.request("PUT", "/v1/tables/\(stored)", body: Array(bundled[0].table.utf8)).status == 201)
        for (path, operations) in paths {
            let concrete = path.replacingOccurrences(of: "{name}", with: "board").replacingOccurrences(of: "{sha256}", with: stored)
            for method in operations.keys {
                let answer = try server.request(method.uppercased(), concrete, body: method == "post" ? Array("{}".utf8) : [])
                #expect(answer.status != 404 && answer.status != 405, "\(method) \(path)")
                let documented = ((operations[method] as? [String: Any])?["responses"] as? [String: Any])?.keys.map { $0 } ?? []
                #expect(documented.contains(String(answer.status)), "\(method) \(path) answered \(answer.status), not documented")
            }
            for method in ["PUT", "DELETE", "PATCH"] where operations[method.lowercased()] == nil {
                #expect(try server.request(method, concrete).status == 405, "\(method) \(path)")
            }
        }
        // The real consumers: openapi-spec-validator on the document, jsonschema on live answers.
        let dir = try Build.scratchDirectory()
        let spec = dir.appendingPathComponent("openapi.json")
        try Data(reply.body).write(to: spec)
        let script = Build.packageRoot.appendingPathComponent("Tests/ServerTests/validate_openapi.py")
        let run = try Build.python([script.path, spec.path, "http://127.0.0.1:\(server.port)"])
        #expect(run.status == 0, "\(run.output)")
        #expect(server.stop() == 0)
    }
}
#endif
