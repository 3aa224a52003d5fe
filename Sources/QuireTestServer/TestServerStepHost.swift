import Foundation
import Quire

/// What runs Quire's spec steps for the extension's session routes (`/quire/v1/session/...`):
/// `quire testserver` gives QuireConformance's hosted session; without one those routes are 404
/// and a client skips what only they could carry.
///
/// One session at a time, on the databases in the server's directory; each method's request
/// and answer are the routes' JSON (Specs/README.md, "Quire's extension").
package protocol TestServerStepHost: Sendable {
    /// Starts a case's session, ending any other: `{database, clock?, fixture?}`.
    func start(_ request: [String: JSONValue], directory: URL) async throws
    /// Answers `step`, `document` or `blob` on the session.
    func call(_ route: String, _ request: [String: JSONValue]) async throws -> JSONValue
    /// Ends the session, if any.
    func end() async
}
