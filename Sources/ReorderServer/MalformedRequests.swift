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

    /// What the answer being written says about the connection: nothing (HTTP/1.1), or the
    /// `Connection` value an HTTP/1.0 request asked for.
    private var connection: String?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(var head) = unwrapInboundIn(data), head.version.major == 1, head.version.minor == 0 {
            if head.isKeepAlive {
                connection = "keep-alive"
            } else {
                head.headers.replaceOrAdd(name: "connection", value: "close")
                connection = "close"
                context.fireChannelRead(wrapInboundOut(.head(head)))
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if let connection, case .head(var head) = unwrapOutboundIn(data) {
            head.headers.replaceOrAdd(name: "connection", value: connection)
            self.connection = nil
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            return
        }
        context.write(data, promise: promise)
    }
}

/// Puts ``HTTP10Close`` in front of the conversion to HTTP types when a connection's pipeline is
/// built (Hummingbird adds extra handlers only after it), then takes itself out.
final class HTTP10CloseInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        if let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) {
            try? pipeline.addHandler(HTTP10Close(), position: .before(codec))
        }
        _ = pipeline.removeHandler(context: context)
    }
}
