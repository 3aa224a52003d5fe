import Foundation
import Quire

/// The extension's session routes: one case's spec steps run here, by the configuration's
/// ``TestServerStepHost``, on the databases `/reset` made, for what the protocol's endpoints
/// and the other extension routes cannot express (held objects, blobs, a manual clock,
/// closing and reopening, change listeners ...).
///
/// - `session/start {database, clock?, fixture?}`: starts the session on the database of that
///   name (the server's own objects on its databases are closed, unless a listener serves them,
///   so the session's are the only ones, as in process); `clock` starts a manual clock (ms since 1970), `fixture` installs a
///   prebuilt database first. Empty 200.
/// - `session/step {keyword, arguments, specDirectory, directory, seed, ...}`: performs one
///   step; `{result?}` or `{error: {domain, code, message}}`.
/// - `session/document {collection, id}`: the document's state, as `document` answers it.
/// - `session/blob {digest}`: `{stored}`.
/// - `session/end {}`: ends the session (so does `/reset`).
extension TestServerEngine {
    /// The route prefix of the session routes.
    static let sessionPrefix = extensionPrefix + "session/"

    func sessionRoute(_ route: String, _ request: RequestObject) async throws -> TestServerResponse {
        guard let host = configuration.stepHost else {
            throw TestServerError.notFound("\(Self.sessionPrefix)\(route): this server runs no spec steps")
        }
        switch route {
        case "start":
            let name = try request.string("database")
            try Self.validateDatabaseName(name)
            await host.end()
            // The session's `Database` objects must be the only ones on its files, as in a case
            // run in process (closing or deleting a database counts the objects open on it).
            // While a listener serves them, they stay open for it.
            if listeners.isEmpty {
                for database in databases.values { try database.close() }
                databases.removeAll()
            }
            try await host.start(request.members, directory: configuration.directory)
            return .ok
        case "end":
            await host.end()
            return .ok
        case "step", "document", "blob":
            return .json(try await host.call(route, request.members))
        default:
            throw TestServerError.notFound("\(Self.sessionPrefix)\(route) is not a route of Quire's extension")
        }
    }
}
