#if Server  // the server is built with the `Server` trait only (Package.swift)
import HTTPTypes
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOHTTP1
import NIOCore

/// Gives the `400` that the HTTP layer sends for a request it cannot parse the JSON error body
/// every other error has (SPEC §9: "Errors are JSON").
///
/// SwiftNIO's parser refuses a malformed request line or header (a non-numeric or repeated
/// `Content-Length`, both `Content-Length` and `Transfer-Encoding`, an unknown method, an
/// oversized header block) before any route sees it, and Hummingbird answers that with a bare
/// `400`, `Content-Length: 0` and `Connection: close`. This handler sits after the HTTP codec
/// and gives exactly that answer a body: `{"error": {"code": "bad-request", ...}}`. The
/// routes' own `400`s always carry a JSON body and a `Content-Type`, so they pass untouched.
final class MalformedRequestBody: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    static let body = Array(#"{"error": {"code": "bad-request", "message": "the request line or headers are not valid HTTP/1.1 (a Content-Length that is not one number, both Content-Length and Transfer-Encoding, an unknown method, headers over 80 KiB); the connection is closed"}}"#.utf8)

    /// The body to write before the end of the answer being rewritten.
    private var pending: ByteBuffer?

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status == .badRequest && head.headerFields[.contentType] == nil
            && head.headerFields[.contentLength] == "0":
            let body = context.channel.allocator.buffer(bytes: Self.body)
            head.headerFields[.contentType] = "application/json"
            head.headerFields[.contentLength] = String(body.readableBytes)
            pending = body
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where pending != nil:
            context.write(wrapOutboundOut(.body(pending!)), promise: nil)
            pending = nil
            context.write(data, promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }
}

/// Closes an HTTP/1.0 connection after its answer unless the request asked to keep it
/// (RFC 9112 §9.3), as HTTP/1.1 does on `Connection: close`.
///
/// The HTTP types Hummingbird works with carry no version, and Hummingbird keeps every
/// connection that did not send `Connection: close`: an HTTP/1.0 client that reads its answer
/// to the end of the connection (ApacheBench, a bare socket, many scripts) waited for the
/// 30-second idle timeout. This handler sits before the conversion to those types, where the
/// version is still known, and gives such a request the header Hummingbird acts on; the
/// answer says `Connection: close` too. An HTTP/1.0 request that asks to keep the connection
/// gets `Connection: keep-alive` in its answer, which an HTTP/1.0 client needs to keep it.
/// Installed by ``HTTP10CloseInstaller``.
final class HTTP10Close: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// For each request head read and not yet answered, oldest first: the `Connection` value
    /// its answer gets (nil for HTTP/1.1, left as it is). Pipelined requests arrive before the
    /// first answer is written, so each answer takes its own request's entry.
    private var pending: [String?] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        guard head.version.major == 1, head.version.minor == 0 else {
            pending.append(nil)
            return context.fireChannelRead(data)
        }
        if head.isKeepAlive {
            pending.append("keep-alive")
            return context.fireChannelRead(data)
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        pending.append("close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // An interim answer (1xx) is not the request's answer.
        guard case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200, !pending.isEmpty else {
            return context.write(data, promise: promise)
        }
        let value = pending.removeFirst()
        // An answer that closes the connection already (Hummingbird's 400 for a request it
        // cannot parse) keeps saying so.
        let closing = head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "close" }
        guard let value, !closing else { return context.write(data, promise: promise) }
        head.headers.replaceOrAdd(name: "connection", value: value)
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}

/// Puts ``HTTP10Close`` in front of the conversion to HTTP types when a connection's pipeline is
/// built (Hummingbird adds extra handlers only after it), then takes itself out.
final class HTTP10CloseInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        // Hummingbird adds the codec before the extra handlers; without it there is nothing to
        // put the handler before (a debug build says so).
        let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
        assert(codec != nil, "HTTP1ToHTTPServerCodec is not in the pipeline: HTTP/1.0 connections would stay open")
        if let codec { try? pipeline.addHandler(HTTP10Close(), position: .before(codec)) }
        _ = pipeline.removeHandler(context: context)
    }
}
#endif
