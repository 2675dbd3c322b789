import Foundation

/// A request id: a number or a string (JSON-RPC 2.0).
public enum RequestID: Hashable, Sendable, Codable {
    case number(Int)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let n = try? c.decode(Int.self) {
            self = .number(n)
        } else {
            self = .string(try c.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let n): try c.encode(n)
        case .string(let s): try c.encode(s)
        }
    }
}

/// The error codes of JSON-RPC 2.0 and of LSP 3.17.
public enum ErrorCode: Int, Sendable, Codable {
    case parseError = -32700
    case invalidRequest = -32600
    case methodNotFound = -32601
    case invalidParams = -32602
    case internalError = -32603
    case serverNotInitialized = -32002
    case requestCancelled = -32800
}

/// A JSON-RPC error, sent back in a response.
public struct ResponseError: Error, Sendable, Codable, Equatable {
    public var code: Int
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code.rawValue
        self.message = message
    }
}

/// A message that could not be read: the error to answer, with the request's id when it was read.
public struct DecodeFailure: Error, Sendable {
    public var id: RequestID?
    public var error: ResponseError
}

/// One incoming message: a request (`id` and `method`), a notification (`method` only), or a
/// response to a request of the server's (`id` only; this server sends none, so those are
/// ignored).
public struct IncomingMessage: Sendable {
    public var id: RequestID?
    public var method: String?
    /// The whole body, from which ``params(_:)`` decodes the parameters of one shape.
    public var body: Data

    /// Whether the message asks for an answer.
    public var isRequest: Bool { id != nil && method != nil }

    /// The envelope: only the keys every message has.
    private struct Envelope: Decodable {
        var jsonrpc: String?
        var id: RequestID?
        var method: String?
    }

    /// Decodes the envelope of `body`; a body that is not a JSON-RPC 2.0 object is an error
    /// (parse error for text that is not JSON, invalid request for JSON of the wrong shape),
    /// with the id when one could be read.
    public static func decode(_ body: Data) -> Result<IncomingMessage, DecodeFailure> {
        guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            return .failure(DecodeFailure(id: nil, error: ResponseError(.parseError, "the message is not JSON")))
        }
        guard object is [String: Any] else {
            return .failure(DecodeFailure(id: nil, error: ResponseError(.invalidRequest, "a message is a JSON object (batches are not used by LSP)")))
        }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: body) else {
            return .failure(DecodeFailure(id: nil, error: ResponseError(.invalidRequest, "'id' must be a number or a string, and 'method' a string")))
        }
        guard envelope.jsonrpc == "2.0" else {
            return .failure(DecodeFailure(id: envelope.id, error: ResponseError(.invalidRequest, "'jsonrpc' must be \"2.0\"")))
        }
        if envelope.method == nil && envelope.id == nil {
            return .failure(DecodeFailure(id: nil, error: ResponseError(.invalidRequest, "a message needs 'method' (a request or notification) or 'id' (a response)")))
        }
        return .success(IncomingMessage(id: envelope.id, method: envelope.method, body: body))
    }

    private struct Params<P: Decodable>: Decodable {
        var params: P
    }

    /// The parameters, as the shape `P` (one Codable type per message shape).
    public func params<P: Decodable>(_: P.Type) throws(ResponseError) -> P {
        do {
            return try JSONDecoder().decode(Params<P>.self, from: body).params
        } catch {
            throw ResponseError(.invalidParams, "the parameters of '\(method ?? "?")' do not have the shape LSP 3.17 gives them: \(Self.describe(error))")
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?: "'\(Self.path(context.codingPath + [key]))' is missing"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?: "'\(Self.path(context.codingPath))' has the wrong type"
        case .dataCorrupted(let context)?: "'\(Self.path(context.codingPath))' is not valid"
        default: "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}

/// Outgoing messages, each written with its one shape.
public enum Outgoing {
    private struct Response<R: Encodable>: Encodable {
        var jsonrpc = "2.0"
        var id: RequestID?
        var result: R?

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(jsonrpc, forKey: .jsonrpc)
            try c.encode(id, forKey: .id)
            // `result` is required in a success, `null` included.
            try c.encode(result, forKey: .result)
        }

        enum Keys: String, CodingKey { case jsonrpc, id, result }
    }

    private struct Failure: Encodable {
        var jsonrpc = "2.0"
        var id: RequestID?
        var error: ResponseError

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(jsonrpc, forKey: .jsonrpc)
            try c.encode(id, forKey: .id)  // null when the id could not be read
            try c.encode(error, forKey: .error)
        }

        enum Keys: String, CodingKey { case jsonrpc, id, error }
    }

    private struct Notification<P: Encodable>: Encodable {
        var jsonrpc = "2.0"
        var method: String
        var params: P
    }

    private static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every value this server sends encodes; an encoder failure would be a bug, answered as one.
        return (try? encoder.encode(value)) ?? Data(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"the answer could not be encoded"}}"#.utf8)
    }

    /// A success with `result` (nil is `null`).
    public static func response<R: Encodable>(id: RequestID, result: R?) -> Data {
        encode(Response(id: id, result: result))
    }

    /// An error answer.
    public static func error(id: RequestID?, _ error: ResponseError) -> Data {
        encode(Failure(id: id, error: error))
    }

    /// A notification from the server.
    public static func notification<P: Encodable>(_ method: String, _ params: P) -> Data {
        encode(Notification(method: method, params: params))
    }
}
