import Hummingbird
import Quire
import QuireSync

/// `GET|PUT|DELETE /{db}/_local/{id}`: documents that are never replicated, where
/// replications keep their checkpoints.
///
/// The stored body carries the local revision `0-N` as `_rev`; updates must name it, as
/// CouchDB requires.
struct LocalDocumentEndpoint: Sendable {
    let served: ServedCollection
    let id: String

    private var fullID: String { "_local/" + id }

    func respond(_ request: ListenerRequest) throws -> Response {
        let collection = served.collection
        let stored = try collection.localDocument(id: id)
        switch request.method {
        case .get:
            guard var body = stored else { throw HTTPFailure.notFound("missing") }
            body["_id"] = .string(fullID)
            if body["_rev"] == nil { body["_rev"] = "0-1" }
            return JSONResponse.make(.ok, .object(body))
        case .put:
            guard case .object(let body) = try request.jsonObjectBody() else {
                throw HTTPFailure.badRequest("not an object")
            }
            let revision = try put(body, revision: body["_rev"]?.stringValue ?? request.query["rev"], stored: stored)
            return JSONResponse.make(.created, ["ok": true, "id": .string(fullID), "rev": .string(revision)])
        case .delete:
            guard stored != nil else { throw HTTPFailure.notFound("missing") }
            _ = try checkRevision(request.query["rev"] ?? request.headers[.ifMatch], stored: stored)
            try collection.setLocalDocument(id: id, body: nil)
            return JSONResponse.make(.ok, ["ok": true, "id": .string(fullID), "rev": "0-0"])
        default:
            throw HTTPFailure.methodNotAllowed([.get, .head, .put, .delete])
        }
    }

    /// Stores `body` (a `PUT`, or a `_local/` document of `_bulk_docs`) when `given` names
    /// the stored revision; returns the new one.
    func put(_ body: JSONObject, revision given: String?) throws -> String {
        try put(body, revision: given, stored: try served.collection.localDocument(id: id))
    }

    private func put(_ body: JSONObject, revision given: String?, stored: JSONObject?) throws -> String {
        var body = body
        if let given = body["_id"], given != .string(fullID), given != .string(id) {
            throw HTTPFailure.badRequest("_id does not match the URL")
        }
        let generation = try checkRevision(given, stored: stored)
        guard generation < Int.max else {
            throw HTTPFailure.badRequest(
                "The local document '\(fullID)' is at revision 0-\(generation); it cannot be updated, only deleted")
        }
        let revision = "0-\(generation + 1)"
        body.removeValue(forKey: "_id")
        body["_rev"] = .string(revision)
        try served.collection.setLocalDocument(id: id, body: body)
        return revision
    }

    /// The stored generation; 409 unless `given` names the stored revision (or both are
    /// absent).
    private func checkRevision(_ given: String?, stored: JSONObject?) throws -> Int {
        guard let stored else {
            guard given == nil || given == "0-0" else { throw HTTPFailure.conflict }
            return 0
        }
        let current = stored["_rev"]?.stringValue ?? "0-1"
        guard given == current else { throw HTTPFailure.conflict }
        return Int(current.dropFirst(2)) ?? 1
    }
}
