import HTTPTypes
import NIOHTTPTypes
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
