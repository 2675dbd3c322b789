// The HTTP stack's own ceiling for the server load benchmark: the same Hummingbird
// application shape as reorder-policy-server (a custom responder that reads the whole body),
// answering every request with a fixed JSON-sized body and deciding nothing.
// usage: BareServer PORT BODY_BYTES
import Hummingbird

let arguments = CommandLine.arguments
let port = arguments.count > 1 ? Int(arguments[1]) ?? 8282 : 8282
let size = arguments.count > 2 ? Int(arguments[2]) ?? 1024 : 1024
let fixed = [UInt8](repeating: UInt8(ascii: " "), count: size)

let responder = CallbackResponder { (request: Request, _: BasicRequestContext) -> Response in
    _ = try await request.body.collect(upTo: 8 << 20)
    var headers = HTTPFields()
    headers[.contentType] = "application/json"
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: fixed)))
}
let app = Application(
    responder: responder,
    server: .http1(configuration: .init(idleTimeout: .seconds(30))),
    configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "bare")
)
try await app.runService()
