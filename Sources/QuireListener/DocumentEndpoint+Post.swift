import Foundation
import Hummingbird
import Quire
import QuireSync

extension DocumentEndpoint {
    /// `POST /{db}`: saves the body as a new document, under its `_id` or a generated one
    /// (couchdb-python's `save` and the IBM Cloudant SDK's `post_document` create documents
    /// this way). 201 with the ID and revision, as CouchDB answers.
    static func post(
        _ request: ListenerRequest, served: ServedCollection, conflicts: URLEndpointListenerConfiguration.Conflicts
    ) throws -> Response {
        let json = try request.jsonObjectBody()
        let id = json["_id"]?.stringValue ?? UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        guard !id.hasPrefix("_") else { throw BulkEndpoints.illegalID(id) }
        let document = try CouchDocument(json: json, id: id)
        let revision = try RevisionWriter(served: served, conflicts: conflicts).write(document, newEdits: true)
        let path = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? id
        return JSONResponse.make(
            .created, ["ok": true, "id": .string(id), "rev": .string(revision)],
            headers: [.eTag: EntityTag.of(revision: revision), .location: "/\(served.keyspace)/\(path)"])
    }
}
