/// A Sync Gateway session: its ID sent as a cookie.
public struct SessionAuthenticator: Authenticator, Equatable {
    /// The session ID.
    public let sessionID: String
    /// The cookie's name; Sync Gateway's is `SyncGatewaySession`.
    public let cookieName: String

    /// An authenticator for the session `sessionID`.
    public init(sessionID: String, cookieName: String = "SyncGatewaySession") {
        self.sessionID = sessionID
        self.cookieName = cookieName
    }

    /// `Cookie: <cookieName>=<sessionID>`.
    public func authorizationHeaders() -> [String: String] {
        ["Cookie": "\(cookieName)=\(sessionID)"]
    }
}
