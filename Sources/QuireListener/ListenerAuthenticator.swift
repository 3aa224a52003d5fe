/// How a ``URLEndpointListener`` checks its clients (its configuration's
/// ``URLEndpointListenerConfiguration/authenticator``): ``ListenerPasswordAuthenticator``
/// checks HTTP Basic credentials; with the TLS trait, `ListenerCertificateAuthenticator`
/// checks the certificate a client presents in the TLS handshake.
public protocol ListenerAuthenticator: Sendable {}

extension URLEndpointListenerConfiguration {
    /// The authenticator when it checks passwords; nil for none or a certificate check
    /// (whose clients are let in once their TLS handshake succeeded).
    var passwordAuthenticator: ListenerPasswordAuthenticator? {
        authenticator as? ListenerPasswordAuthenticator
    }
}
