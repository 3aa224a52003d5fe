import Foundation
import Hummingbird
import Quire
import QuireSync

/// `GET|PUT|DELETE /{db}/{docid}` and `GET /{db}/{docid}/{attachment}`.
struct DocumentEndpoint: Sendable {
    let served: ServedCollection
    let id: String
    /// What to do with a replicated revision that makes a conflict.
    var conflicts: URLEndpointListenerConfiguration.Conflicts = .refuse

    private var renderer: RevisionRenderer { RevisionRenderer(served: served) }

    func respond(_ request: ListenerRequest) throws -> Response {
        switch request.method {
        case .get: return try get(request)
        case .put: return try put(request)
        case .delete: return try delete(request)
        default: throw HTTPFailure.methodNotAllowed([.get, .head, .put, .delete])
        }
    }

    // MARK: GET

    private func get(_ request: ListenerRequest) throws -> Response {
        let query = request.query
        let options = RevisionRenderer.Options(
            revisions: try query.bool("revs"), attachmentData: try query.bool("attachments"),
            conflicts: try query.bool("conflicts"), revisionsInfo: try query.bool("revs_info"))
        let leaves = try renderer.leaves(id)
        if let openRevisions = query["open_revs"] {
            return try self.openRevisions(
                openRevisions, leaves: leaves, latest: try query.bool("latest"), options: options)
        }
        let leaf: LeafRevision
        if let rev = query["rev"] {
            guard let found = RevisionRenderer.leaf(rev, in: leaves, latest: false) else {
                throw HTTPFailure.notFound("missing")
            }
            leaf = found
        } else {
            leaf = leaves[0]
            if leaf.isDeleted { throw HTTPFailure.notFound("deleted") }
        }
        let tag = EntityTag.of(revision: leaf.revisionID)
        if let unchanged = EntityTag.notModified(request.headers, tag: tag) { return unchanged }
        return JSONResponse.make(
            .ok, try renderer.json(id: id, leaf: leaf, leaves: leaves, options: options), headers: [.eTag: tag])
    }

    /// `open_revs=all` or `open_revs=["1-a", ...]`: a JSON array of `{"ok": doc}` and
    /// `{"missing": rev}`.
    private func openRevisions(
        _ text: String, leaves: [LeafRevision], latest: Bool, options: RevisionRenderer.Options
    ) throws -> Response {
        var items: [JSONValue] = []
        if text == "all" {
            items = try leaves.map { ["ok": try renderer.json(id: id, leaf: $0, leaves: leaves, options: options)] }
        } else {
            guard let requested = try DocumentEndpoint.parseArrayOfStrings(text) else {
                throw HTTPFailure.badRequest("open_revs must be \"all\" or a JSON array of revision IDs")
            }
            for rev in requested {
                if let leaf = RevisionRenderer.leaf(rev, in: leaves, latest: latest) {
                    items.append(["ok": try renderer.json(id: id, leaf: leaf, leaves: leaves, options: options)])
                } else {
                    items.append(["missing": .string(rev)])
                }
            }
        }
        return JSONResponse.make(.ok, .array(items))
    }

    // MARK: PUT and DELETE

    private func put(_ request: ListenerRequest) throws -> Response {
        var document = try CouchDocument(json: try request.jsonObjectBody(), id: id)
        if document.revisionID == nil, let rev = request.query["rev"] {
            try RevisionID.validate(rev, documentID: id)
            document.revisionID = rev
        }
        let newEdits = try request.query.bool("new_edits", default: true)
        let revision = try RevisionWriter(served: served, conflicts: conflicts).write(document, newEdits: newEdits)
        return JSONResponse.make(
            .created, ["ok": true, "id": .string(id), "rev": .string(revision)],
            headers: [.eTag: EntityTag.of(revision: revision)])
    }

    private func delete(_ request: ListenerRequest) throws -> Response {
        guard let rev = request.query["rev"] ?? request.headers[.ifMatch]?.trimmingCharacters(in: ["\""]) else {
            throw HTTPFailure.conflict
        }
        // A malformed revision is 400, as CouchDB's "Invalid rev format", not a conflict.
        try RevisionID.validate(rev, documentID: id)
        let document = CouchDocument(id: id, revisionID: rev, isDeleted: true, body: [:])
        let revision = try RevisionWriter(served: served, conflicts: conflicts).write(document, newEdits: true)
        return JSONResponse.make(
            .ok, ["ok": true, "id": .string(id), "rev": .string(revision)],
            headers: [.eTag: EntityTag.of(revision: revision)])
    }

    // MARK: Attachments

    /// The bytes of attachment `name` of the current revision (or `?rev=`), tagged with the
    /// revision (CouchDB tags with the attachment's MD5 when it has one, else the revision).
    func attachment(_ name: String, request: ListenerRequest) throws -> Response {
        let leaves = try renderer.leaves(id)
        let leaf: LeafRevision
        if let rev = request.query["rev"] {
            guard let found = RevisionRenderer.leaf(rev, in: leaves, latest: false) else {
                throw HTTPFailure.notFound("missing")
            }
            leaf = found
        } else {
            leaf = leaves[0]
        }
        guard !leaf.isDeleted else { throw HTTPFailure.notFound("deleted") }
        let tag = EntityTag.of(revision: leaf.revisionID)
        if let unchanged = EntityTag.notModified(request.headers, tag: tag) { return unchanged }
        let (data, contentType) = try served.codec.content(of: try CouchDocument(id: id, leaf: leaf), named: name)
        return Response(
            status: .ok, headers: [.contentType: contentType, .eTag: tag],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `text` parsed as a JSON array of strings; nil when it is JSON of another shape; 400
    /// when it is not JSON.
    private static func parseArrayOfStrings(_ text: String) throws -> [String]? {
        let value: JSONValue
        do {
            value = try JSONReader.parse(text)
        } catch let error as QuireError {
            throw HTTPFailure.badRequest("Invalid JSON: \(error.message)")
        }
        guard let items = value.arrayValue else { return nil }
        let strings = items.compactMap(\.stringValue)
        return strings.count == items.count ? strings : nil
    }
}
