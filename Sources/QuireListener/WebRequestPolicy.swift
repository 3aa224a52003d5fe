import Foundation
import Hummingbird

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What keeps web pages of other sites from using the listener through a visitor's browser.
///
/// - **Cross-site requests.** A request whose `Origin` is neither the listener's own
///   (`<scheme>://<Host>`) nor one ``CORSPolicy`` allows is refused with 403: a browser
///   sends `Origin` with every cross-origin write, including the "simple" ones it sends
///   without a preflight (a `text/plain` POST).
/// - **Content types.** A JSON endpoint refuses a body whose `Content-Type` is not JSON with
///   415, as CouchDB does, so no HTML form or simple `fetch` can post to it. A body without
///   `Content-Type` is read as JSON (clients such as curl rely on that; a browser sending
///   one cross-site is caught by its `Origin`).
/// - **DNS rebinding.** Without an authenticator, the `Host` header must name the listener
///   by an address or a name it was bound to (an IP literal, `localhost`, the configured
///   interface, this machine's host name) or be a name without a dot (which no outside DNS
///   answers for): a page that rebinds its own domain to the listener's address is refused
///   with 400, since its requests carry that domain.
struct WebRequestPolicy: Sendable {
    let cors: CORSPolicy
    /// `http` or `https`.
    let scheme: String
    /// Whether `Host` is checked (no authenticator).
    let checksHost: Bool
    /// Lower-cased host names (without port) accepted besides IP literals and `localhost`.
    let hostNames: Set<String>

    init(configuration: URLEndpointListenerConfiguration, cors: CORSPolicy, scheme: String) {
        self.cors = cors
        self.scheme = scheme
        checksHost = configuration.authenticator == nil
        var names: Set<String> = []
        if let interface = configuration.networkInterface { names.insert(interface.lowercased()) }
        if let host = WebRequestPolicy.machineHostName() {
            names.insert(host.lowercased())
            names.insert(host.lowercased().split(separator: ".").first.map(String.init) ?? host.lowercased())
        }
        hostNames = names
    }

    /// Throws the failure for a request the policy refuses.
    func check(_ request: Request) throws {
        let host = request.head.authority
        if checksHost, let host, !isServedHost(host) {
            throw HTTPFailure(
                status: .badRequest, error: "bad_request",
                reason:
                    "Host '\(host.prefix(100))' is not a name this server listens on; without authentication it answers only requests addressed to its own names."
            )
        }
        if let origin = request.headers[.origin], cors.allowedOrigin(origin) == nil, !isOwnOrigin(origin, host: host) {
            throw HTTPFailure(
                status: .forbidden, error: "forbidden",
                reason: "Requests from origin '\(origin.prefix(100))' are not allowed (see --cors-origin).")
        }
    }

    /// Whether a request with `body` bytes to `route` must be refused for its content type:
    /// 415 unless `Content-Type` is absent or JSON (`application/json`, `…+json`).
    static func checkJSONContentType(_ headers: HTTPFields, route: ListenerRoute, method: HTTPRequest.Method) throws {
        guard route.takesJSONBody(method), let type = headers[.contentType] else { return }
        let media = type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard media == "application/json" || (media.hasPrefix("application/") && media.hasSuffix("+json")) else {
            throw HTTPFailure(
                status: .unsupportedMediaType, error: "bad_content_type",
                reason: "Content-Type must be application/json, not '\(type.prefix(100))'.")
        }
    }

    /// Whether `origin` is `<scheme>://<host>` for the request's own `Host`.
    private func isOwnOrigin(_ origin: String, host: String?) -> Bool {
        guard let host else { return false }
        let own = "\(scheme)://\(host)".lowercased()
        let given = origin.lowercased()
        if given == own { return true }
        // The default port may be written or left out on either side.
        let defaultPort = scheme == "https" ? ":443" : ":80"
        return given + defaultPort == own || given == own + defaultPort
    }

    /// Whether `host` (a `Host` header: a name or address and an optional port) names this
    /// server.
    func isServedHost(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") {
            // An IPv6 literal, with or without a port.
            guard let end = name.firstIndex(of: "]") else { return false }
            let literal = String(name[name.index(after: name.startIndex)..<end])
            return WebRequestPolicy.isIPAddress(literal)
        }
        if let colon = name.lastIndex(of: ":") {
            guard name[name.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return false }
            name = String(name[..<colon])
        }
        if name.hasSuffix(".") { name.removeLast() }
        if WebRequestPolicy.isIPAddress(name) { return true }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        // A rebinding page needs a domain it controls, which has a dot.
        if !name.isEmpty, !name.contains(".") { return true }
        return hostNames.contains(name)
    }

    /// Whether `text` is a numeric IPv4 or IPv6 address.
    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    private static func machineHostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
