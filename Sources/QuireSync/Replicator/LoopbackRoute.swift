import Foundation
import Quire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Requests for a remote sent instead to a forwarder on the loopback interface, which
/// reaches the remote itself (see `TLSForwarder`): request URLs are rewritten to
/// `http://127.0.0.1:<port>`, keeping the remote's `Host`, and a failure the forwarder
/// recorded replaces the lost connection the session sees.
struct LoopbackRoute: Sendable {
    /// The remote's scheme, host and port, as requests name it.
    let remoteScheme: String
    let remoteHost: String
    let remotePort: Int
    /// The forwarder's port on 127.0.0.1.
    let localPort: Int
    /// The failure the forwarder recorded since last asked, if any.
    let takeFailure: @Sendable () -> QuireError?

    /// `request` addressed to the forwarder.
    func toLoopback(_ request: URLRequest) -> URLRequest {
        guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return request }
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = localPort
        var routed = request
        routed.url = components.url ?? url
        let host = remoteHost.contains(":") ? "[\(remoteHost)]" : remoteHost
        routed.setValue("\(host):\(remotePort)", forHTTPHeaderField: "Host")
        return routed
    }

    /// A loopback URL written as the remote's, for messages.
    func toRemote(_ url: URL?) -> URL? {
        guard let url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.scheme = remoteScheme
        components.host = remoteHost
        components.port = remotePort
        return components.url ?? url
    }
}
