/// Credentials a replicator presents to its remote.
public protocol Authenticator: Sendable {
    /// Headers to send with every request.
    func authorizationHeaders() -> [String: String]
}
