#if Server  // the server is built with the `Server` trait only (Package.swift)
import Foundation
import HTTPTypes
import Hummingbird
import Logging
// `ByteBuffer(takingOwnershipOf:allocator:)`, an SPI of swift-nio (checked with 2.101.3, the
// version resolved here; an SPI may change in any release): a decided answer is sent from the
// writer's own buffer, not copied (BENCHMARKS.md, session 28).
@_spi(CustomByteBufferAllocator) import NIOCore
import ReorderPolicy

/// Routes requests to ``DecisionService`` and writes its replies. Thin on purpose: every answer
/// is computed by the library functions the CLI uses; this type only reads bodies (bounded),
/// picks the policy snapshot, and records metrics and the decision log.
struct DecisionResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let store: PolicyStore
    let metrics: ServerMetrics
    let log: DecisionLogFile?
    let maxBody: Int
    let logger: Logger
    /// Tables clients stored (`PUT /v1/tables/{sha256}`), named by `"table-ref"`.
    let tables: TableStore
    /// `--playground`: serve the playground page, its endpoints and the example pages.
    var playground = false
    /// The `--policies` paths, searched for example tables by the playground.
    var policyPaths: [String] = []

    /// The routes, as patterns (metrics are labelled with these, never with raw paths).
    enum Route: String, CaseIterable {
        case health = "/health"
        case metrics = "/metrics"
        case openapi = "/openapi.json"
        case policies = "/v1/policies"
        case check = "/v1/policies/{name}/check"
        case explain = "/v1/policies/{name}/explain"
        case destinations = "/v1/policies/{name}/destinations"
        case table = "/v1/tables/{sha256}"
        case client = "/client.js"
        case playground = "/playground"
        case playgroundDecide = "/v1/playground"
        case playgroundExamples = "/v1/playground/examples"
        case exampleHTML5 = "/examples/html5.html"
        case exampleSortable = "/examples/sortable.html"
        case sortableLibrary = "/examples/Sortable.min.js"
        case unknown = "unmatched"

        /// Every method the route takes (`HEAD` goes with `GET`).
        var methods: [HTTPRequest.Method] {
            switch self {
            case .table: [.put, .get]
            case .check, .explain, .destinations, .playgroundDecide: [.post]
            case .health, .metrics, .openapi, .policies, .client, .playground, .playgroundExamples,
                 .exampleHTML5, .exampleSortable, .sortableLibrary, .unknown: [.get]
            }
        }

        /// What a 405's `Allow` header names: the methods, and `HEAD` with `GET` (RFC 9110
        /// §10.2.1: every method the route answers).
        var allowed: [HTTPRequest.Method] { methods.contains(.get) ? methods + [.head] : methods }

        /// Routes that exist only with `--playground` (404 `not-found` without it).
        var playgroundOnly: Bool {
            switch self {
            case .playground, .playgroundDecide, .playgroundExamples, .exampleHTML5, .exampleSortable, .sortableLibrary: true
            case .health, .metrics, .openapi, .policies, .check, .explain, .destinations, .table, .client, .unknown: false
            }
        }
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        var (route, name) = Self.match(request.uri.path)
        if route.playgroundOnly && !playground { (route, name) = (.unknown, nil) }
        var bodyRead = false
        let reply = await answer(request, route: route, name: name, bodyRead: &bodyRead)
        // A lingering close, as nginx and Go's net/http do: a body the answer did not read is
        // read and discarded (bounded) before the answer goes out, so a client that writes its
        // whole body before it reads (Python's http.client, urllib with `Connection: close`)
        // gets the status, not a reset or a stall.
        // A request that declares no body (GET /health, /metrics) has nothing to discard.
        if !bodyRead && Self.declaresBody(request) { await linger(request.body, alreadyRead: 0) }
        let elapsed = ContinuousClock.now - started
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        metrics.request(route: route.rawValue, status: reply.status, nanoseconds: nanoseconds)
        var headers = HTTPFields()
        headers[.contentType] = reply.contentType
        if reply.status == 405 { headers[.allow] = route.allowed.map(\.rawValue).joined(separator: ", ") }
        if let etag = reply.etag { headers[.eTag] = "\"\(etag)\"" }
        if reply.closesConnection { headers[.connection] = "close" }
        return Response(status: HTTPResponse.Status(code: reply.status), headers: headers,
                        body: ResponseBody(byteBuffer: reply.body))
    }

    struct Answer {
        var status: Int
        var body: ByteBuffer
        var contentType = "application/json"
        /// A stored table's reference, sent as its `ETag`.
        var etag: String?
        /// The request's body broke off (a bad chunk): the connection ends after this answer,
        /// and the answer says so (`Connection: close`, also to an HTTP/1.0 client that asked
        /// to keep it).
        var closesConnection = false

        init(_ reply: consuming DecisionService.Reply) {
            status = reply.error?.httpStatus ?? 200
            if let (allocation, count) = reply.takeWrittenBody() {
                if allocation.count <= Int(UInt32.max) {
                    // The writer's buffer becomes the answer's: a 1,000-move answer is 340 KB,
                    // and copying it was 4–5 % of the server's time on a batch.
                    body = ByteBuffer(takingOwnershipOf: allocation, allocator: Self.writerMemory, readerIndex: 0, writerIndex: count)
                } else {
                    // A ByteBuffer's capacity is 32-bit: a buffer past it is copied.
                    body = ByteBuffer(bytes: UnsafeRawBufferPointer(rebasing: allocation[..<count]))
                    allocation.deallocate()
                }
            } else {
                body = reply.withBody { ByteBuffer(bytes: $0) }  // shared, or given as an array
            }
        }

        /// How NIO frees (and, should it ever grow one, reallocates) a buffer the JSON writer
        /// allocated: as Swift allocates and frees raw memory.
        static let writerMemory = ByteBufferAllocator(
            allocate: { size in UnsafeMutableRawPointer.allocate(byteCount: Int(size), alignment: 1) },
            reallocate: { old, oldSize, newSize in
                let new = UnsafeMutableRawPointer.allocate(byteCount: Int(newSize), alignment: 1)
                if let old {
                    new.copyMemory(from: old, byteCount: Int(min(oldSize, newSize)))
                    old.deallocate()
                }
                return new
            },
            deallocate: { $0.deallocate() },
            copy: { target, source, count in target.copyMemory(from: source, byteCount: Int(count)) }
        )

        init(status: Int, body: [UInt8], contentType: String, etag: String? = nil) {
            self.status = status
            self.body = ByteBuffer(bytes: body)
            self.contentType = contentType
            self.etag = etag
        }
    }

    private func answer(_ request: Request, route: Route, name: String?, bodyRead: inout Bool) async -> Answer {
        if route == .unknown {
            return RouteError.notFound.answer("no route for \(request.method.rawValue) \(Self.printable(request.uri.path)); see /openapi.json")
        }
        guard route.methods.contains(request.method) || (request.method == .head && route.methods.contains(.get)) else {
            let methods = route.allowed.map(\.rawValue).joined(separator: " or ")
            return RouteError.methodNotAllowed.answer("\(route.rawValue) takes \(methods), not \(request.method.rawValue)")
        }
        switch route {
        case .health: return Answer(status: 200, body: ServerJSON.health(store.snapshot), contentType: "application/json")
        case .policies: return Answer(status: 200, body: ServerJSON.policies(store.snapshot), contentType: "application/json")
        case .metrics:
            metrics.tables(tables.usage)
            return Answer(status: 200, body: metrics.exposition(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        case .openapi: return Answer(status: 200, body: Array(OpenAPIDocument.json.utf8), contentType: "application/json")
        case .client: return Answer(status: 200, body: Array(ClientScript.source.utf8), contentType: "text/javascript; charset=utf-8")
        case .playground: return Answer(status: 200, body: Array(PlaygroundPage.html.utf8), contentType: "text/html; charset=utf-8")
        case .exampleHTML5: return Answer(status: 200, body: Array(ExamplePages.html5.utf8), contentType: "text/html; charset=utf-8")
        case .exampleSortable: return Answer(status: 200, body: Array(ExamplePages.sortable.utf8), contentType: "text/html; charset=utf-8")
        case .sortableLibrary:
            guard let bytes = FileManager.default.contents(atPath: ExamplePages.sortableLibraryPath) else {
                return RouteError.notFound.answer("SortableJS is not installed at \(ExamplePages.sortableLibraryPath) (Debian: apt-get install libjs-sortable)")
            }
            return Answer(status: 200, body: Array(bytes), contentType: "text/javascript; charset=utf-8")
        case .playgroundExamples:
            return Answer(status: 200, body: ServerJSON.examples(store.snapshot, paths: policyPaths), contentType: "application/json")
        case .playgroundDecide:
            let body: [UInt8]
            bodyRead = true
            switch await readBody(request) {
            case .success(let bytes): body = bytes
            case .failure(let refusal): return refusal.answer
            }
            // The analysis of lint, under lint's default bound and CPU budget.
            let reply = PlaygroundService.answer(body: body) { document in
                PolicyAnalyzer.analyze(document, bound: .standard, budget: PolicyAnalyzer.defaultBudget)
            }
            metrics.decided(reply.summary)
            return Answer(consume reply)
        case .check, .explain, .destinations:
            // One snapshot for the whole request: one policy version decides it from start to end.
            let snapshot = store.snapshot
            guard let name, let policy = snapshot.policies[name] else {
                return RouteError.unknownPolicy.answer("no policy named '\(Self.printable(name ?? ""))' is served; GET /v1/policies lists them")
            }
            let body: [UInt8]
            bodyRead = true
            switch await readBody(request) {
            case .success(let bytes): body = bytes
            case .failure(let refusal): return refusal.answer
            }
            // The thread's own copy of the policy (``ThreadCopies``): deciding from here on does
            // not suspend, so this thread decides the whole request.
            let compiled = ThreadCopies.current.policy(policy)
            if route == .destinations {
                return Answer(DecisionService.destinations(body: body, policy: compiled, policyHash: policy.hash, tables: tables))
            }
            let reply = route == .check
                ? DecisionService.check(body: body, policy: compiled, policyHash: policy.hash, logging: log != nil, tables: tables)
                : DecisionService.explain(body: body, policy: compiled, policyHash: policy.hash, logging: log != nil, tables: tables)
            metrics.decided(reply.summary)
            if let log, !log.append(reply.log) {
                logger.error("decision log write failed; decisions are still answered", metadata: ["error": "\(log.failure ?? "")"])
            }
            // Handed over, not copied: the answer then sends the writer's buffer itself.
            return Answer(consume reply)
        case .table:
            let ref = name ?? ""
            guard TableStore.isReference(ref) else {
                return RouteError.notFound.answer("'\(Self.printable(ref))' is not a table reference: 64 lowercase hex digits, the SHA-256 of the table's bytes")
            }
            if request.method != .put {
                guard let table = tables.table(ref) else {
                    return Answer(DecisionService.error(.unknownTable, "no table is stored under \(ref) (never stored, or evicted)"))
                }
                return Answer(status: 200, body: ServerJSON.storedTable(ref, table), contentType: "application/json", etag: ref)
            }
            bodyRead = true
            let body: [UInt8]
            switch await readBody(request) {
            case .success(let bytes): body = bytes
            case .failure(let refusal): return refusal.answer
            }
            let actual = TableStore.reference(of: body)
            guard actual == ref else {
                return Answer(DecisionService.error(.badRequest, "the body's SHA-256 is \(actual), not \(ref); PUT it to /v1/tables/\(actual)"))
            }
            // Stored already: the same bytes, so the same table; nothing to read again.
            if let table = tables.table(ref) {
                return Answer(status: 200, body: ServerJSON.storedTable(ref, table), contentType: "application/json", etag: ref)
            }
            let table: Table
            switch DecisionService.readTable(body: body) {
            case .success(let read): table = read
            case .failure(let refusal): return Answer(refusal.reply)
            }
            guard let created = tables.put(ref, table, bodyBytes: body.count) else {
                return RouteError.tooLarge.answer("the table counts \(TableStore.cost(of: table, bodyBytes: body.count)) bytes of the \(tables.budget) the server keeps for tables (--table-memory)")
            }
            return Answer(status: created ? 201 : 200, body: ServerJSON.storedTable(ref, table), contentType: "application/json", etag: ref)
        case .unknown:
            return RouteError.notFound.answer("not found")
        }
    }

    struct Refusal: Error { var answer: Answer }

    /// The request's body, at most `--max-body` bytes (checked against `Content-Length` first).
    /// A body too large is still read to its end, within the lingering bounds, before the 413.
    private func readBody(_ request: Request) async -> Result<[UInt8], Refusal> {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBody {
            await linger(request.body, alreadyRead: 0)
            return .failure(Refusal(answer: RouteError.tooLarge.answer("the body is \(length) bytes; at most \(maxBody) are accepted (--max-body)")))
        }
        var body: [UInt8] = []
        if let length = request.headers[.contentLength].flatMap(Int.init), length > 0 { body.reserveCapacity(length) }
        var iterator = request.body.makeAsyncIterator()
        do {
            while let chunk = try await iterator.next() {
                if body.count + chunk.readableBytes > maxBody {
                    await linger(remainderOf: &iterator, alreadyRead: body.count + chunk.readableBytes)
                    return .failure(Refusal(answer: RouteError.tooLarge.answer("the body is larger than \(maxBody) bytes (--max-body)")))
                }
                body.append(contentsOf: chunk.readableBytesView)
            }
        } catch {
            var broken = Answer(DecisionService.error(.badRequest, "the body could not be read to its end"))
            broken.closesConnection = true
            return .failure(Refusal(answer: broken))
        }
        return .success(body)
    }

    /// Whether the request says a body follows: a non-zero `Content-Length`, or chunks.
    static func declaresBody(_ request: Request) -> Bool {
        if request.headers[.transferEncoding] != nil { return true }
        return request.headers[.contentLength].flatMap(Int.init).map { $0 > 0 } ?? false
    }

    /// At most this many bytes of a body that will not be used are read and discarded before
    /// the answer (a lingering close); beyond it the connection is left to end as it may.
    static let lingerBytes = 64 << 20
    /// And for at most this long: a client that declares a body and stops sending gets its
    /// answer after this wait, and the connection is closed.
    static let lingerTime = Duration.seconds(2)

    /// Reads and discards what is left of `body`, within ``lingerBytes`` and ``lingerTime``.
    private func linger(_ body: RequestBody, alreadyRead: Int) async {
        var iterator = body.makeAsyncIterator()
        await linger(remainderOf: &iterator, alreadyRead: alreadyRead)
    }

    private func linger(remainderOf iterator: inout RequestBody.AsyncIterator, alreadyRead: Int) async {
        let box = LingeringBody(iterator, read: alreadyRead)
        // The reading task is cancelled when the time is up (NIO ends the stream then).
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await box.drain(upTo: Self.lingerBytes) }
            group.addTask { try? await Task.sleep(for: Self.lingerTime) }
            await group.next()
            group.cancelAll()
        }
        iterator = box.iterator
    }

    /// The route a path names, and the policy name for the decision routes (percent-decoded).
    static func match(_ path: String) -> (Route, String?) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        switch Array(parts) {
        case ["health"]: return (.health, nil)
        case ["metrics"]: return (.metrics, nil)
        case ["openapi.json"]: return (.openapi, nil)
        case ["v1", "policies"]: return (.policies, nil)
        case ["client.js"]: return (.client, nil)
        case ["playground"]: return (.playground, nil)
        case ["v1", "playground"]: return (.playgroundDecide, nil)
        case ["v1", "playground", "examples"]: return (.playgroundExamples, nil)
        case ["examples", "html5.html"]: return (.exampleHTML5, nil)
        case ["examples", "sortable.html"]: return (.exampleSortable, nil)
        case ["examples", "Sortable.min.js"]: return (.sortableLibrary, nil)
        case let p where p.count == 3 && p[0] == "v1" && p[1] == "tables": return (.table, String(p[2]))
        default:
            if parts.count == 4, parts[parts.startIndex] == "v1", parts[parts.startIndex + 1] == "policies", !parts[parts.startIndex + 2].isEmpty {
                let raw = String(parts[parts.startIndex + 2])
                let name = raw.removingPercentEncoding ?? raw
                switch parts.last! {  // four parts, checked above
                case "check": return (.check, name)
                case "explain": return (.explain, name)
                case "destinations": return (.destinations, name)
                default: break
                }
            }
            return (.unknown, nil)
        }
    }

    /// User text inside an error message: cut to 200 characters, control characters escaped
    /// as in every text the tool prints.
    static func printable(_ s: String) -> String {
        let cut = s.count > 200 ? String(s.prefix(200)) + "…" : s
        return cut.visible
    }
}

/// The rest of a request body being read and discarded. Only one task touches it at a time:
/// the draining child of ``DecisionResponder/linger(remainderOf:alreadyRead:)``, then, once the
/// group is over, the handler; hence `@unchecked Sendable`.
private final class LingeringBody: @unchecked Sendable {
    var iterator: RequestBody.AsyncIterator
    var read: Int

    init(_ iterator: RequestBody.AsyncIterator, read: Int) {
        self.iterator = iterator
        self.read = read
    }

    func drain(upTo limit: Int) async {
        while read <= limit, !Task.isCancelled {
            guard let chunk = try? await iterator.next() else { return }
            read += chunk.readableBytes
        }
    }
}

extension DecisionService.ErrorCode {
    /// The HTTP status that goes with the SPEC §9 error code.
    var httpStatus: Int {
        switch self {
        case .badRequest: 400
        case .unknownTable: 404
        }
    }
}

/// The SPEC §9 error codes of routing and transport, which only the server meets (the codes a
/// body can earn are the library's, `DecisionService.ErrorCode`).
enum RouteError: String, CaseIterable {
    case unknownPolicy = "unknown-policy"
    case notFound = "not-found"
    case methodNotAllowed = "method-not-allowed"
    case tooLarge = "too-large"

    var httpStatus: Int {
        switch self {
        case .unknownPolicy, .notFound: 404
        case .methodNotAllowed: 405
        case .tooLarge: 413
        }
    }

    /// The error answer, in the body shape every error has.
    func answer(_ message: String) -> DecisionResponder.Answer {
        DecisionResponder.Answer(status: httpStatus, body: DecisionService.errorBody(code: rawValue, message), contentType: "application/json")
    }
}
#endif
