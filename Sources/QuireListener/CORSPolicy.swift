import Foundation
import Hummingbird

/// Cross-origin resource sharing, so a web page of an allowed origin (PouchDB in a browser)
/// can replicate with the listener: preflight answers and the headers of ordinary responses.
///
/// A named origin gets `Access-Control-Allow-Credentials: true`, so the browser may send
/// the user's credentials; `*` allows any origin without credentials, as the CORS rules
/// require.
struct CORSPolicy: Sendable {
    /// The origins allowed, or `["*"]`.
    let origins: [String]

    /// The methods a preflight allows.
    static let methods = "GET, HEAD, POST, PUT, DELETE, OPTIONS"
    /// The request headers a preflight allows when the browser names none.
    static let requestHeaders = "Accept, Authorization, Content-Type, Origin, Referer, X-Requested-With, If-Match"
    /// The response headers scripts may read.
    static let exposedHeaders = "Cache-Control, Content-Type, ETag, Server, Transfer-Encoding"

    /// Whether any origin is allowed at all.
    var isEnabled: Bool { !origins.isEmpty }

    /// The `Access-Control-Allow-Origin` value for `origin`, nil when it is not allowed.
    func allowedOrigin(_ origin: String?) -> String? {
        guard let origin, isEnabled else { return nil }
        if origins.contains(origin) { return origin }
        return origins.contains("*") ? "*" : nil
    }

    /// The answer to a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`),
    /// nil for any other request: 204 with the CORS headers for an allowed origin, 403 for
    /// another.
    func preflight(_ request: Request) -> Response? {
        guard isEnabled, request.method == .options, let origin = request.headers[.origin],
            request.headers[.accessControlRequestMethod] != nil
        else { return nil }
        guard let allowed = allowedOrigin(origin) else {
            return JSONResponse.failure(
                HTTPFailure(status: .forbidden, error: "forbidden", reason: "Origin '\(origin)' is not allowed."))
        }
        var headers: HTTPFields = [
            .accessControlAllowOrigin: allowed,
            .accessControlAllowMethods: CORSPolicy.methods,
            .accessControlAllowHeaders: requestedHeaders(request.headers[.accessControlRequestHeaders]),
            .accessControlMaxAge: "600",
            .contentLength: "0",
        ]
        if allowed != "*" {
            headers[.accessControlAllowCredentials] = "true"
            headers[.vary] = "Origin"
        }
        return Response(status: .noContent, headers: headers)
    }

    /// Adds the CORS headers for `origin` to an ordinary response.
    func decorate(_ response: inout Response, origin: String?) {
        guard let allowed = allowedOrigin(origin) else { return }
        response.headers[.accessControlAllowOrigin] = allowed
        response.headers[.accessControlExposeHeaders] = CORSPolicy.exposedHeaders
        if allowed != "*" {
            response.headers[.accessControlAllowCredentials] = "true"
            response.headers[.vary] = "Origin"
        }
    }

    /// The headers the browser asked for when each is a plain header name, otherwise the
    /// default list.
    private func requestedHeaders(_ asked: String?) -> String {
        guard let asked else { return CORSPolicy.requestHeaders }
        let names = asked.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let isToken = { (name: String) in
            !name.isEmpty
                && name.utf8.allSatisfy { byte in
                    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                        || byte == 0x2D || byte == 0x5F
                }
        }
        guard !names.isEmpty, names.count <= 64, names.allSatisfy(isToken) else { return CORSPolicy.requestHeaders }
        return names.joined(separator: ", ")
    }
}
