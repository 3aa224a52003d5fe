import Foundation

/// HTTP Basic authentication with a user name and password.
public struct BasicAuthenticator: Authenticator, Equatable {
    /// The user name.
    public let username: String
    /// The password.
    public let password: String

    /// An authenticator for `username` and `password`.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// `Authorization: Basic <base64 of username:password>`.
    public func authorizationHeaders() -> [String: String] {
        ["Authorization": "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()]
    }
}
