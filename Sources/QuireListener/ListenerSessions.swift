import Foundation
import Quire
import QuireSync

/// The cookie sessions of a listener (CouchDB's `AuthSession`): a login through `_session`
/// makes a random token that stands for the user name until it has not been used for
/// ``timeout`` or is logged out.
///
/// Tokens live in memory only, so a restart logs everyone out (clients log in again, as
/// they do when CouchDB's cookie expires). At most ``capacity`` are kept; beyond, the one
/// used longest ago goes.
final class ListenerSessions: Sendable {
    /// The cookie's name, CouchDB's.
    static let cookieName = "AuthSession"
    /// CouchDB's default session timeout: 10 minutes without a request.
    static let timeout: Duration = .seconds(600)
    /// The most sessions kept at once.
    static let capacity = 10_000

    private struct Session: Sendable {
        let user: String
        var lastUse: ContinuousClock.Instant
    }

    private let sessions = Locked([String: Session]())
    private let clock = ContinuousClock()

    /// A new session for `user`; returns its token.
    func open(user: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let token = (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
        sessions.withLock { sessions in
            let now = clock.now
            sessions = sessions.filter { now - $0.value.lastUse < ListenerSessions.timeout }
            if sessions.count >= ListenerSessions.capacity,
                let oldest = sessions.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                sessions.removeValue(forKey: oldest.key)
            }
            sessions[token] = Session(user: user, lastUse: now)
        }
        return token
    }

    /// The user of session `token`, nil when there is no such session or it expired; a
    /// session used is kept for another ``timeout``.
    func user(token: String) -> String? {
        sessions.withLock { sessions in
            guard var session = sessions[token] else { return nil }
            let now = clock.now
            guard now - session.lastUse < ListenerSessions.timeout else {
                sessions.removeValue(forKey: token)
                return nil
            }
            session.lastUse = now
            sessions[token] = session
            return session.user
        }
    }

    /// Ends session `token`.
    func close(token: String) {
        sessions.withLock { _ = $0.removeValue(forKey: token) }
    }

    /// The `AuthSession` token among the request's cookies.
    static func token(in cookieHeaders: [String]) -> String? {
        for header in cookieHeaders {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName {
                    let value = parts[1].trimmingCharacters(in: .whitespaces)
                    if !value.isEmpty { return value }
                }
            }
        }
        return nil
    }
}
