import Foundation

extension URLEndpointListener {
    /// The server's root URLs (`http://host:port/`, `https://` with TLS), one per address the listener can be
    /// reached at; nil while stopped. For a listener serving a database folder, each
    /// database is at the root URL followed by its name.
    public var serverURLs: [URL]? {
        guard let port else { return nil }
        let hosts: [String]
        if let interface = config.networkInterface, interface != "0.0.0.0" {
            hosts = [interface]
        } else {
            hosts = NetworkAddresses.ipv4()
        }
        return hosts.compactMap { URL(string: "\(urlScheme)://\($0.contains(":") ? "[\($0)]" : $0):\(port)/") }
    }
}
