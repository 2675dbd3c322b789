import SpannedYAML
/// Answers decision requests (SPEC §9) with exactly the JSON that `check --format json` and
/// `explain --format json` print, so an HTTP client and the CLI cannot disagree. Pure: no
/// networking, no files; the server only moves bytes in and out.
public enum DecisionService {
    /// What to send back: a JSON body, the SPEC §9 error code when the request could not be
    /// decided, and what was decided. The HTTP status that goes with the code is the server's
    /// business (`ReorderServer`), not the library's.
    public struct Reply: Sendable {
        /// The error code of an error reply; nil when the request was decided.
        public var error: ErrorCode?
        /// The JSON body (a copy; ``withBody(_:)`` reads it in place).
        public var body: [UInt8] {
            get { written?.bytes ?? plain }
            set { plain = newValue; written = nil }
        }
        /// Decisions per word, for metrics (all zero for an error reply).
        package var summary: DecisionJSON.Summary
        /// Decision-log lines (``DecisionEvent`` JSON lines), when logging was asked for.
        public var log: [UInt8]

        /// The body when it was given as an array.
        private var plain: [UInt8]
        /// The body as the writer left it, when it was written here: a 1,000-move answer is
        /// about 340 KB, and the server sends this buffer itself (``takeWrittenBody()``), or
        /// copies it once when it cannot.
        private var written: JSONWriter.Sealed?

        init(error: ErrorCode?, body: [UInt8], summary: DecisionJSON.Summary, log: [UInt8]) {
            self.error = error
            plain = body
            self.summary = summary
            self.log = log
        }

        /// A decided request's reply.
        package static func decided(_ body: [UInt8], summary: DecisionJSON.Summary, log: [UInt8] = []) -> Reply {
            Reply(error: nil, body: body, summary: summary, log: log)
        }

        /// A decided request's reply, its body the writer's bytes, not copied.
        package static func decided(_ body: JSONWriter.Sealed, summary: DecisionJSON.Summary, log: [UInt8] = []) -> Reply {
            var reply = Reply(error: nil, body: [], summary: summary, log: log)
            reply.written = body
            return reply
        }

        /// Calls `read` with the body's bytes, without copying them.
        public func withBody<R>(_ read: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
            if let written { return try written.withBytes(read) }
            return try plain.withUnsafeBufferPointer(read)
        }

        /// Hands over the memory of a body the writer wrote (see
        /// `JSONWriter.Sealed.takeBuffer(from:)`), so that the server sends it without copying
        /// 340 KB per 1,000 moves, and leaves this reply with an empty body. Nil, and nothing
        /// taken, for a body given as an array or one that a copy of this reply shares.
        package mutating func takeWrittenBody() -> (allocation: UnsafeMutableRawBufferPointer, count: Int)? {
            JSONWriter.Sealed.takeBuffer(from: &written)
        }
    }

    /// The SPEC §9 error codes a request body can earn (the server maps each to its HTTP
    /// status). The codes of routing and transport (`unknown-policy`, `not-found`,
    /// `method-not-allowed`, `too-large`) are the server's (`ReorderServer.RouteError`).
    public enum ErrorCode: String, Sendable, CaseIterable {
        case badRequest = "bad-request"
        /// A `"table-ref"` names no stored table (never stored, or evicted): store it and retry.
        case unknownTable = "unknown-table"
    }

    /// An error reply: `{ "error": { "code": "...", "message": "..." } }`.
    public static func error(_ code: ErrorCode, _ message: String) -> Reply {
        Reply(error: code, body: errorBody(code: code.rawValue, message), summary: DecisionJSON.Summary(), log: [])
    }

    /// The body of an error reply with any SPEC §9 code: one shape for the library's codes and
    /// the server's.
    package static func errorBody(code: String, _ message: String) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.raw("{\"error\": {\"code\": ")
        w.string(code)
        w.raw(", \"message\": ")
        w.string(message)
        w.raw("}}\n")
        return w.bytes
    }

    /// `POST /v1/policies/{name}/check`: body `{ "table": <table>, "moves": [<moves items>] }`.
    /// Malformed moves items are `invalid` results, as in a moves file; a body, table or
    /// `moves` of the wrong shape is a 400.
    ///
    /// With `tables`, the body may name a stored table with `"table-ref"` instead of sending it
    /// (docs/SERVER.md, "Stored tables").
    public static func check(body: [UInt8], policy: CompiledPolicy, policyHash: String, logging: Bool,
                             tables: (any StoredTables)? = nil) -> Reply {
        return withFields(body, required: ["table", "moves"], tableRef: tables != nil) { fields throws(RequestError) in
            let bound = try boundTable(fields, policy: policy, policyHash: policyHash, tables: tables)
            guard let items = fields["moves"]!.sequence else {  // present: withFields checked it
                throw RequestError(message: "'moves' must be a list of moves, found \(fields["moves"]!.typeName)")
            }
            var runner = makeRunner(bound, moves: items.count, policyHash: policyHash, logging: logging)
            runner.decide(eachRequestMove: items)
            return runner.reply()
        }
    }

    /// The request's table bound to `policy`: the `table` sent, or the stored table its
    /// `table-ref` names (whose binding the store may keep for the next request).
    static func boundTable(_ fields: [String: JSONNode], policy: CompiledPolicy, policyHash: String,
                           tables: (any StoredTables)?) throws(RequestError) -> BoundPolicy {
        switch (fields["table"], fields["table-ref"]) {
        case (let table?, nil):
            return policy.bind(try decodeTable(table))
        case (nil, let ref?):
            // Only asked for when `tables` is given: `table-ref` is not a field otherwise.
            guard let tables else { throw RequestError(message: "unknown field 'table-ref'") }
            guard ref.scalarStyle == .doubleQuoted, let name = ref.scalar else {
                throw RequestError(message: "'table-ref' must be a stored table's reference (a string), found \(ref.typeName)")
            }
            guard let bound = tables.bound(name, to: policy, policyHash: policyHash) else {
                throw RequestError(code: .unknownTable, message: "no table is stored under '\(String(name.prefix(80)).visible)' (never stored, or evicted); PUT it to /v1/tables/{sha256} and retry, or send it as 'table'")
            }
            return bound
        case (nil, nil):
            // `withFields` asked for `table`, or took `table-ref` in its place.
            throw RequestError(message: "missing field 'table'")
        case (.some, .some):
            throw RequestError(message: "'table' and 'table-ref' both given; send one of them")
        }
    }

    private static func makeRunner(_ bound: BoundPolicy, moves: Int, policyHash: String, logging: Bool) -> CheckRunner {
        // Room for every result up front (a result with a violation is about 350 bytes): a
        // buffer doubled from 64 KiB copied itself three times for 1,000 moves. Pages not
        // written are never touched. Capped: the count is the client's (an 8 MiB body of
        // `[0,0,...]` is 4 million items), and past the cap the buffer grows as it must.
        var runner = CheckRunner(bound: bound, format: .json, outputCapacity: 4096 + min(moves, 8_192) * 512)
        if logging {
            runner.log = JSONWriter()
            runner.policyHash = policyHash
        }
        return runner
    }

    /// `POST /v1/policies/{name}/explain`: body `{ "table": <table>, "move": <one moves item> }`.
    /// A move that does not fit the table is an `invalid` result (200), as with the CLI; a move
    /// of the wrong shape is a 400.
    public static func explain(body: [UInt8], policy: CompiledPolicy, policyHash: String, logging: Bool,
                               tables: (any StoredTables)? = nil) -> Reply {
        return withFields(body, required: ["table", "move"], tableRef: tables != nil) { fields throws(RequestError) in
            let bound = try boundTable(fields, policy: policy, policyHash: policyHash, tables: tables)
            let move = try explainMove(fields["move"]!)  // present: withFields checked it
            return explain(bound, move, policyHash: policyHash, logging: logging)
        }
    }

    private static func explain(_ bound: BoundPolicy, _ move: Move, policyHash: String, logging: Bool) -> Reply {
        var summary = DecisionJSON.Summary()
        var log = JSONWriter(capacity: logging ? 256 : 0)
        let w = DecisionJSON.explainDocument(bound, move, summary: &summary) { event in
            guard logging else { return }
            var e = event
            e.policyHash = policyHash
            log.bytes(e.jsonLine)
            log.raw("\n")
        }
        return .decided(w.bytes, summary: summary, log: logging ? log.bytes : [])
    }

    /// Explain's one move: a row move or a section move (no offset moves), else a 400.
    static func explainMove(_ node: some DocumentNode) throws(RequestError) -> Move {
        switch MovesFile.item(node) {
        case .move(let m): return m
        case .offsets:
            throw RequestError(message: "'move' must be a row move { from, to } or a section move { section-from, section-to }; explain takes no offset moves")
        case .invalid(_, let error):
            throw RequestError(message: "'move': " + error)
        }
    }

    /// `POST /v1/policies/{name}/destinations`: body `{ "table": <table>, "from": [s, r] }` or
    /// `{ "table": <table>, "section-from": a }`. Answers what a page needs at drag start to
    /// decide every hover by itself: `{ "policy", "from" (or "section-from"), "can-move",
    /// "valid" }`, where `valid` is exactly `explain`'s for a move from there (empty when the
    /// row or section cannot be picked up). A source outside the table is a 400.
    public static func destinations(body: [UInt8], policy: CompiledPolicy, policyHash: String,
                                    tables: (any StoredTables)? = nil) -> Reply {
        withFields(body, required: ["table"], optional: ["from", "section-from"], tableRef: tables != nil) { fields throws(RequestError) in
            try destinations(fields, bound: boundTable(fields, policy: policy, policyHash: policyHash, tables: tables))
        }
    }

    private static func destinations(_ fields: [String: JSONNode], bound: BoundPolicy) throws(RequestError) -> Reply {
        let policy = bound.compiled
        let move: Move
        switch (fields["from"], fields["section-from"]) {
        case (let from?, nil):
            guard let pair = from.sequence.map(Array.init), pair.count == 2, let s = pair[0].plainInteger, let r = pair[1].plainInteger else {
                throw RequestError(message: "'from' must be a position [section, row], found \(from.typeName)")
            }
            move = .row(from: Position(section: s, row: r), to: Position(section: s, row: r))
        case (nil, let from?):
            guard let a = from.plainInteger else {
                throw RequestError(message: "'section-from' must be a section index, found \(from.typeName)")
            }
            move = .section(from: a, to: a)
        default:
            throw RequestError(message: "expected exactly one of 'from' (a row's [section, row]) and 'section-from' (a section index) beside 'table'")
        }
        let explanation: Explanation
        do {
            explanation = try bound.explain(move)
        } catch {
            throw RequestError(message: error.message)
        }
        var w = JSONWriter(capacity: 512)
        w.raw("{\"policy\": ")
        w.string(policy.policy.name)
        switch move {
        case .row(let from, _):
            w.raw(", \"from\": ")
            w.pair(from.section, from.row)
        case .section(let a, _):
            w.raw(", \"section-from\": ")
            w.int(a)
        }
        w.raw(", \"can-move\": ")
        w.bool(explanation.decision.kind != .denied)
        DecisionJSON.explanationFields(explanation, into: &w, trace: false)
        w.raw("}\n")
        return .decided(w.bytes, summary: DecisionJSON.Summary())
    }

    // MARK: - Reading requests

    struct RequestError: Error {
        var code: ErrorCode = .badRequest
        var message: String
    }

    /// Reads a body (the one reader of request bodies: strict JSON, SPEC §4's depth limit,
    /// valid UTF-8, no key twice) and gives `read`'s value from its root; an empty or broken
    /// body, or a ``RequestError`` thrown by `read`, is the error reply (`expected` says what
    /// the body should have been). Nodes are valid only inside `read`.
    private static func withBody<T>(
        _ body: [UInt8], expected: String, _ read: (JSONNode) throws(RequestError) -> T
    ) -> Result<T, Refusal> {
        guard !body.isEmpty else { return .failure(Refusal(error(.badRequest, "the body is empty; expected \(expected)"))) }
        let document: JSONDocument
        switch JSONDocument.read(body, file: "<request>") {
        case .success(let read): document = read
        case .failure(let problem): return .failure(Refusal(error(.badRequest, "the body is not valid JSON: \(located(problem.message, problem.span))")))
        }
        return document.withRoot { root -> Result<T, Refusal> in
            do throws(RequestError) {
                return .success(try read(root))
            } catch {
                return .failure(Refusal(Self.error(error.code, error.message)))
            }
        }
    }

    /// Reads a JSON object body and answers with `answer` from its fields; every key of
    /// `required` must be present and no keys but those and `optional`. With `tableRef`,
    /// `"table-ref"` may stand for a required `"table"` (a stored table, docs/SERVER.md). A
    /// problem with the body, or a ``RequestError`` thrown by `answer`, is an error reply. The
    /// fields are valid only inside `answer` (they point into the body's tape).
    static func withFields(
        _ body: [UInt8], required: [String], optional: [String] = [], tableRef: Bool = false,
        _ answer: ([String: JSONNode]) throws(RequestError) -> Reply
    ) -> Reply {
        let named = required.map { tableRef && $0 == "table" ? "'table' (or 'table-ref')" : "'\($0)'" }
        let expected = named.joined(separator: " and ") + optional.map { ", optionally '\($0)'" }.joined()
        let allowed = required + optional + (tableRef ? ["table-ref"] : [])
        let reply = withBody(body, expected: "a JSON object with \(expected)") { root throws(RequestError) -> Reply in
            guard let entries = root.entries else {
                throw RequestError(message: "expected a JSON object with \(expected), found \(root.typeName)")
            }
            var fields: [String: JSONNode] = [:]
            for entry in entries {
                guard allowed.contains(entry.name) else {
                    throw RequestError(message: "unknown field '\(entry.name)'; expected \(expected)")
                }
                fields[entry.name] = entry.value
            }
            for key in required where fields[key] == nil && !(tableRef && key == "table" && fields["table-ref"] != nil) {
                throw RequestError(message: "missing field '\(key)'; expected a JSON object with \(expected)")
            }
            return try answer(fields)
        }
        switch reply {
        case .success(let answered): return answered
        case .failure(let refusal): return refusal.reply
        }
    }

    /// A body that is a table (`PUT /v1/tables/{sha256}`), decoded exactly as a table file
    /// (SPEC §3), or the error reply.
    public static func readTable(body: [UInt8]) -> Result<Table, Refusal> {
        withBody(body, expected: "a table { \"sections\": [...] }") { root throws(RequestError) in try decodeTable(root) }
    }

    /// A request refused: its error reply.
    public struct Refusal: Error {
        public var reply: Reply
        init(_ reply: Reply) { self.reply = reply }
    }

    /// The table in a request, decoded exactly as a table file (SPEC §3).
    static func decodeTable(_ node: some DocumentNode) throws(RequestError) -> Table {
        var decoder = TableDecoder(d: NodeDecoder(file: "<request>"))
        let table = decoder.table(node)
        let problems = Diagnostic.sorted(decoder.d.diagnostics)
        guard let table, problems.isEmpty else {
            let shown = problems.prefix(5).map { located($0.message, $0.span) }
            let more = problems.count > 5 ? "; and \(problems.count - 5) more" : ""
            throw RequestError(message: "'table' is not a valid table: " + shown.joined(separator: "; ") + more)
        }
        return table
    }

    private static func located(_ message: String, _ span: Span) -> String {
        "line \(span.start.line), column \(span.start.column): \(message)"
    }
}

extension CheckRunner {
    /// Closes the output and gives it as a decided request's reply (its log, when logging).
    fileprivate mutating func reply() -> DecisionService.Reply {
        _ = finish()
        return .decided(output.sealed(), summary: summary, log: log?.bytes ?? [])
    }
}

/// Tables a client stored earlier and names by reference (`"table-ref"` in a decision
/// request): the server's store (docs/SERVER.md, "Stored tables"). The library only asks.
public protocol StoredTables: Sendable {
    /// The table stored under `ref`, bound to `policy` (`policyHash` names its version, so a
    /// store may keep the binding for the next request); nil when nothing is stored under `ref`.
    func bound(_ ref: String, to policy: CompiledPolicy, policyHash: String) -> BoundPolicy?
}
