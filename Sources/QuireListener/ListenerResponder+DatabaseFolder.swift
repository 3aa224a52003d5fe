import Foundation
import Hummingbird
import Quire
import QuireSync

/// The requests of a listener serving a ``ListenerDatabaseFolder``: the server-level ones
/// CouchDB answers for its databases, and the lookup of databases opened on demand.
extension ListenerResponder {
    /// `GET /_all_dbs` (with `descending`, `skip` and `limit`), `PUT /{db}` and
    /// `DELETE /{db}` when the listener serves a database folder; nil for every other request
    /// (they are routed as usual). Writes are refused with 403 on a read-only listener.
    func databaseFolderResponse(_ request: Request) throws -> Response? {
        guard let folder = configuration.databaseFolder else { return nil }
        let segments = request.uri.path.split(separator: "/", omittingEmptySubsequences: true)
        guard segments.count == 1 else { return nil }
        guard let name = segments[0].removingPercentEncoding else {
            throw HTTPFailure.badRequest("Malformed percent-encoding in the path: '\(segments[0])'")
        }
        if name == "_all_dbs" {
            guard request.method == .get || request.method == .head else {
                throw HTTPFailure.methodNotAllowed([.get, .head])
            }
            let query = try QueryParameters(request.uri.query)
            var names = try folder.databaseNames()
            if try query.bool("descending") { names.reverse() }
            names = Array(names.dropFirst(try query.integer("skip") ?? 0))
            if let limit = try query.integer("limit") { names = Array(names.prefix(limit)) }
            let response = JSONResponse.make(.ok, .array(names.map { .string($0) }))
            return request.method == .head ? response.createHeadResponse() : response
        }
        guard request.method == .put || request.method == .delete, !name.hasPrefix("_") else { return nil }
        if configuration.readOnly { throw HTTPFailure.readOnly }
        if request.method == .put {
            try folder.create(name)
            let location = "/" + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name)
            return JSONResponse.make(.created, ["ok": true], headers: [.location: location])
        }
        try folder.delete(name)
        return JSONResponse.make(.ok, ["ok": true])
    }

    /// The collection at path segment `keyspace`: one configured, else one of the database
    /// folder's (opened on demand).
    func resolveKeyspace(_ keyspace: String) throws -> ServedCollection? {
        if let served = keyspaces.resolve(keyspace) { return served }
        return try configuration.databaseFolder?.resolve(keyspace)
    }
}
