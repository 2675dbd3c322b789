import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
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

    /// The routes, as patterns (metrics are labelled with these, never with raw paths).
    enum Route: String, CaseIterable {
        case health = "/health"
        case metrics = "/metrics"
        case openapi = "/openapi.json"
        case policies = "/v1/policies"
        case check = "/v1/policies/{name}/check"
        case explain = "/v1/policies/{name}/explain"
        case unknown = "unmatched"

        var method: HTTPRequest.Method { self == .check || self == .explain ? .post : .get }
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        let (route, name) = Self.match(request.uri.path)
        let reply = await answer(request, route: route, name: name)
        let elapsed = ContinuousClock.now - started
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        metrics.request(route: route.rawValue, status: reply.status, nanoseconds: nanoseconds)
        var headers = HTTPFields()
        headers[.contentType] = reply.contentType
        if reply.status == 405 { headers[.allow] = route.method.rawValue }
        return Response(status: HTTPResponse.Status(code: reply.status), headers: headers,
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: reply.body)))
    }

    struct Answer {
        var status: Int
        var body: [UInt8]
        var contentType = "application/json"

        init(_ reply: DecisionService.Reply) {
            status = reply.status
            body = reply.body
        }

        init(status: Int, body: [UInt8], contentType: String) {
            self.status = status
            self.body = body
            self.contentType = contentType
        }
    }

    private func answer(_ request: Request, route: Route, name: String?) async -> Answer {
        if route == .unknown {
            return Answer(DecisionService.error(.notFound, "no route for \(request.method.rawValue) \(Self.printable(request.uri.path)); see /openapi.json"))
        }
        guard request.method == route.method || (request.method == .head && route.method == .get) else {
            return Answer(DecisionService.error(.methodNotAllowed, "\(route.rawValue) takes \(route.method.rawValue), not \(request.method.rawValue)"))
        }
        switch route {
        case .health: return Answer(status: 200, body: ServerJSON.health(store.snapshot), contentType: "application/json")
        case .policies: return Answer(status: 200, body: ServerJSON.policies(store.snapshot), contentType: "application/json")
        case .metrics: return Answer(status: 200, body: metrics.exposition(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        case .openapi: return Answer(status: 200, body: Array(OpenAPIDocument.json.utf8), contentType: "application/json")
        case .check, .explain:
            // One snapshot for the whole request: one policy version decides it from start to end.
            let snapshot = store.snapshot
            guard let name, let policy = snapshot.policies[name] else {
                return Answer(DecisionService.error(.unknownPolicy, "no policy named '\(Self.printable(name ?? ""))' is served; GET /v1/policies lists them"))
            }
            if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBody {
                return Answer(DecisionService.error(.tooLarge, "the body is \(length) bytes; at most \(maxBody) are accepted (--max-body)"))
            }
            let body: [UInt8]
            do {
                var buffer = try await request.body.collect(upTo: maxBody)
                body = buffer.readBytes(length: buffer.readableBytes) ?? []
            } catch {
                return Answer(DecisionService.error(.tooLarge, "the body is larger than \(maxBody) bytes (--max-body)"))
            }
            let reply = route == .check
                ? DecisionService.check(body: body, policy: policy.compiled, policyHash: policy.hash, logging: log != nil)
                : DecisionService.explain(body: body, policy: policy.compiled, policyHash: policy.hash, logging: log != nil)
            metrics.decided(reply.summary)
            if let log, !log.append(reply.log) {
                logger.error("decision log write failed; decisions are still answered", metadata: ["error": "\(log.failure ?? "")"])
            }
            return Answer(reply)
        case .unknown:
            return Answer(DecisionService.error(.notFound, "not found"))
        }
    }

    /// The route a path names, and the policy name for the decision routes (percent-decoded).
    static func match(_ path: String) -> (Route, String?) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        switch Array(parts) {
        case ["health"]: return (.health, nil)
        case ["metrics"]: return (.metrics, nil)
        case ["openapi.json"]: return (.openapi, nil)
        case ["v1", "policies"]: return (.policies, nil)
        default:
            if parts.count == 4, parts[parts.startIndex] == "v1", parts[parts.startIndex + 1] == "policies", !parts[parts.startIndex + 2].isEmpty {
                let raw = String(parts[parts.startIndex + 2])
                let name = raw.removingPercentEncoding ?? raw
                switch parts.last! {
                case "check": return (.check, name)
                case "explain": return (.explain, name)
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
