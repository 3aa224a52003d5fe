/// Checks the user name and password a client sends with HTTP Basic authentication.
///
/// ```swift
/// let authenticator = ListenerPasswordAuthenticator { username, password in
///     username == "sync" && password == secret
/// }
/// ```
public struct ListenerPasswordAuthenticator: ListenerAuthenticator {
    private let check: @Sendable (String, String) -> Bool

    /// An authenticator that accepts the credentials for which `authenticate` returns true.
    /// It is called for every request, possibly from several threads at once.
    public init(_ authenticate: @escaping @Sendable (_ username: String, _ password: String) -> Bool) {
        check = authenticate
    }

    /// Whether `username` and `password` are accepted.
    public func authenticate(username: String, password: String) -> Bool {
        check(username, password)
    }
}
