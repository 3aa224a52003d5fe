import Foundation
import Quire

/// A remote database URL in the form checkpoint IDs use.
///
/// The scheme and host are lower-cased, `ws`/`wss` count as `http`/`https` (Quire speaks
/// HTTP to either), the port is always written (80 and 443 for the default ones), user
/// information, query and fragment are dropped, and trailing slashes leave the path. So
/// `HTTP://Host/db/`, `http://host:80/db` and `ws://host/db` name one remote and share a
/// checkpoint, where Couchbase Lite would keep three.
package struct NormalizedURL: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    package let scheme: String
    /// The host, lower-cased.
    package let host: String
    /// The port, explicit even when it is the scheme's default.
    package let port: Int
    /// The percent-encoded path without trailing slashes (empty for the server root).
    package let path: String

    /// Normalises `url`; invalidURL for a URL that is not `http`, `https`, `ws` or `wss` with
    /// a host.
    package init(_ url: URL) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw QuireError(.invalidURL, "'\(url.absoluteString)' is not a valid URL", domain: .network)
        }
        let given = (components.scheme ?? "").lowercased()
        let scheme: String
        switch given {
        case "http", "ws": scheme = "http"
        case "https", "wss": scheme = "https"
        default:
            throw QuireError(
                .invalidURL, "'\(url.absoluteString)' has scheme '\(given)'; expected http, https, ws or wss",
                domain: .network)
        }
        guard let host = components.host, !host.isEmpty else {
            throw QuireError(.invalidURL, "'\(url.absoluteString)' has no host", domain: .network)
        }
        if let port = components.port, !(1...65_535).contains(port) {
            throw QuireError(
                .invalidURL, "'\(url.absoluteString)' has port \(port), outside 1...65535", domain: .network)
        }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = components.port ?? (scheme == "https" ? 443 : 80)
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        self.path = path
    }

    /// Parses and normalises `text`.
    package init(string text: String) throws {
        guard let url = URL(string: text) else {
            throw QuireError(.invalidURL, "'\(text)' is not a valid URL", domain: .network)
        }
        try self.init(url)
    }

    /// The host as written in a URL (IPv6 addresses in brackets).
    private var hostForURL: String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    /// `scheme://host:port/path`.
    package var description: String { "\(scheme)://\(hostForURL):\(port)\(path)" }

    /// The URL to send requests to.
    var url: URL? { URL(string: description) }

    /// The URL of a collection's keyspace: the database URL itself for the default
    /// collection, `<db>.<scope>.<collection>` (Sync Gateway's form) for any other.
    func keyspace(scope: String, collection: String) -> NormalizedURL {
        guard scope != Database.defaultScopeName || collection != Database.defaultCollectionName else { return self }
        return NormalizedURL(scheme: scheme, host: host, port: port, path: path + ".\(scope).\(collection)")
    }

    private init(scheme: String, host: String, port: Int, path: String) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
    }
}
