import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import QuireSync

/// Gives the requests the HTTP decoder refuses a CouchDB error body, and refuses `CONNECT`.
///
/// When NIO's decoder cannot parse a request (an unknown method, a request line or headers
/// over its limits, broken framing) it reports an `HTTPParserError`, and Hummingbird answers
/// with an empty `400` and `Connection: close`. This handler, after the decoder, remembers
/// what the error was and turns that empty answer into `{"error": ..., "reason": ...}` with
/// the status HTTP gives the problem (414 for a request line too long, 431 for headers too
/// large). ``ListenerConnectionHandler`` then closes the connection once it is written.
///
/// A `CONNECT` request makes the decoder stop reading (what follows would be a tunnel), so
/// its request never ends and the connection would wait forever. Its head is dropped here
/// and reported as a parser error, so it is answered with 405 `method_not_allowed` and the
/// connection closes.
final class ParserRefusalHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var watcher: RequestLineWatcher?
    /// The answer for the refused request, once the decoder refused one.
    private var refusal: HTTPFailure?
    /// The body of the refusal being written in place of the empty one.
    private var pendingBody: ByteBuffer?

    func handlerAdded(context: ChannelHandlerContext) {
        watcher = try? context.pipeline.syncOperations.handler(type: RequestLineWatcher.self)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            watcher?.headDecoded(bodyLength: Self.bodyLength(of: head))
            if head.method == .connect, refusal == nil {
                refusal = HTTPFailure(
                    status: .methodNotAllowed, error: "method_not_allowed",
                    reason: "CONNECT is not supported: this is a CouchDB endpoint, not a proxy",
                    headers: [.allow: "GET,HEAD,POST,PUT,DELETE,COPY,OPTIONS"])
                context.fireErrorCaught(HTTPParserError.invalidMethod)
                return
            }
        case .body:
            break
        case .end:
            watcher?.requestDecoded()
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? HTTPParserError, refusal == nil {
            refusal = failure(for: error)
        }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            guard let refusal, pendingBody == nil, head.status == .badRequest,
                head.headerFields[.contentLength] == "0"
            else {
                context.write(data, promise: promise)
                return
            }
            var bytes = (try? WireJSON.bytes(refusal.json)) ?? Array(#"{"error":"bad_request"}"#.utf8)
            bytes.append(UInt8(ascii: "\n"))
            var fields = refusal.headers
            fields[.contentType] = "application/json"
            fields[.contentLength] = String(bytes.count)
            fields[.connection] = "close"
            pendingBody = ByteBuffer(bytes: bytes)
            let replaced = HTTPResponse(status: refusal.status, headerFields: fields)
            context.write(wrapOutboundOut(.head(replaced)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            if let body = pendingBody {
                pendingBody = nil
                if let watcher {
                    watcher.writeRaw(body)
                } else {
                    context.write(wrapOutboundOut(.body(body)), promise: nil)
                }
            }
            context.write(data, promise: promise)
        }
    }

    /// The answer for a request the decoder refused with `error`.
    private func failure(for error: HTTPParserError) -> HTTPFailure {
        let lineEnded = watcher?.requestLineEnded ?? false
        let start = watcher?.requestLineStart ?? []
        switch error {
        case .headerOverflow where !lineEnded:
            return HTTPFailure(
                status: .uriTooLong, error: "bad_request",
                reason: "Request line too long: the request line and headers may take at most 80 KiB")
        case .headerOverflow:
            return HTTPFailure(
                status: .requestHeaderFieldsTooLarge, error: "bad_request",
                reason: "Request headers too large: the request line and headers may take at most 80 KiB")
        case .invalidMethod:
            let token = start.prefix { $0 != UInt8(ascii: " ") }
            let isToken = !token.isEmpty && token.count < start.count && token.allSatisfy(Self.isTokenCharacter)
            guard isToken else { return .badRequest("Malformed request line: not an HTTP request") }
            return HTTPFailure(
                status: .methodNotAllowed, error: "method_not_allowed",
                reason: "Unknown method \(String(decoding: token, as: UTF8.self))",
                headers: [.allow: "GET,HEAD,POST,PUT,DELETE,COPY,OPTIONS"])
        case .invalidVersion:
            return .badRequest("Unsupported HTTP version: the listener speaks HTTP/1.0 and HTTP/1.1")
        case .invalidURL, .invalidHost, .invalidPort, .invalidPath, .invalidQueryString, .invalidFragment:
            return .badRequest("Malformed request target")
        case .invalidConstant, .strictModeAssertion:
            return .badRequest(lineEnded ? "Malformed request" : "Malformed request line")
        case .invalidHeaderToken, .lfExpected, .invalidCharactersUsed:
            return .badRequest(lineEnded ? "Malformed header line" : "Malformed request line")
        case .invalidContentLength, .unexpectedContentLength:
            return .badRequest("Invalid Content-Length")
        case .invalidChunkSize:
            return .badRequest("Malformed chunked body")
        case .invalidEOFState, .closedConnection:
            return .badRequest("Request cut short")
        default:
            return .badRequest("Malformed HTTP request (\(error))")
        }
    }

    /// Whether `byte` may appear in a method name (RFC 9110 `tchar`).
    /// The length of the body that follows `head`: its `Content-Length`, 0 without one, nil
    /// when the body is chunked (its end is only found by decoding it).
    private static func bodyLength(of head: HTTPRequest) -> Int? {
        if head.headerFields[.transferEncoding] != nil { return nil }
        guard let length = head.headerFields[.contentLength] else { return 0 }
        return Int(length.filter { $0 != " " && $0 != "\t" })
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
