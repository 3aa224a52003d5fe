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

/// A step host made of three functions: `quire testserver` builds one from QuireConformance's
/// hosted session, so neither module needs the other.
package struct TestServerStepFunctions: TestServerStepHost {
    private let startSession: @Sendable ([String: JSONValue], URL) async throws -> Void
    private let callRoute: @Sendable (String, [String: JSONValue]) async throws -> JSONValue
    private let endSession: @Sendable () async -> Void

    /// A host whose methods call `start`, `call` and `end`.
    package init(
        start: @escaping @Sendable ([String: JSONValue], URL) async throws -> Void,
        call: @escaping @Sendable (String, [String: JSONValue]) async throws -> JSONValue,
        end: @escaping @Sendable () async -> Void
    ) {
        (startSession, callRoute, endSession) = (start, call, end)
    }

    package func start(_ request: [String: JSONValue], directory: URL) async throws {
        try await startSession(request, directory)
    }

    package func call(_ route: String, _ request: [String: JSONValue]) async throws -> JSONValue {
        try await callRoute(route, request)
    }

    package func end() async { await endSession() }
}
