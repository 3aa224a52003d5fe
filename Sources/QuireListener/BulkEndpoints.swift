import Foundation
import Hummingbird
import Quire
import QuireSync

/// `POST /{db}/_revs_diff`, `_bulk_get`, `_bulk_docs` and `_ensure_full_commit`.
struct BulkEndpoints: Sendable {
    let served: ServedCollection
    /// What to do with a replicated revision that makes a conflict.
    var conflicts: URLEndpointListenerConfiguration.Conflicts = .refuse
    /// Streams `_bulk_get`'s results when set (see ``StreamedRows``).
    var streaming: ResponseStreaming? = nil

    /// `{docid: [revs]}` → `{docid: {"missing": [...], "possible_ancestors": [...]}}`.
    func revsDiff(_ request: ListenerRequest) throws -> Response {
        let diff = try RevsDiff.Request(json: try request.jsonObjectBody())
        var entries: [JSONKey: RevsDiff.Entry] = [:]
        for (id, revisions) in diff.revisions {
            let (missing, ancestors) = try served.collection.missingRevisions(id: id.text, revisionIDs: revisions)
            if !missing.isEmpty { entries[id] = RevsDiff.Entry(missing: missing, possibleAncestors: ancestors) }
        }
        return JSONResponse.make(.ok, RevsDiff.Response(entries: entries).json)
    }

    /// Each requested revision (or the current one) with `_revisions` when `revs=true` and
    /// attachment bytes when `attachments=true`.
    func bulkGet(_ request: ListenerRequest) throws -> Response {
        let bulk = try BulkGetRequest(json: try request.jsonObjectBody())
        let options = RevisionRenderer.Options(
            revisions: try request.query.bool("revs"), attachmentData: try request.query.bool("attachments"))
        let renderer = RevisionRenderer(served: served)
        let items = bulk.items
        return try StreamedRows(head: #"{"results":["#, tail: "]}", count: items.count) { index in
            let item = items[index]
            let docs: [BulkGetResponse.Item]
            do {
                let leaves = try renderer.leaves(item.id)
                let leaf: LeafRevision
                if let rev = item.revisionID {
                    guard let found = RevisionRenderer.leaf(rev, in: leaves, latest: false) else {
                        throw HTTPFailure.notFound("missing")
                    }
                    leaf = found
                } else {
                    leaf = leaves[0]
                }
                docs = [.ok(try renderer.json(id: item.id, leaf: leaf, leaves: leaves, options: options))]
            } catch {
                let failure = HTTPFailure.from(error)
                docs = [.error(id: item.id, revisionID: item.revisionID, error: failure.error, reason: failure.reason)]
            }
            return .object(["id": .string(item.id), "docs": .array(docs.map(\.json))])
        }.response(streaming)
    }

    /// Saves each document on its own; 201 with one result per document, in order.
    ///
    /// One transaction carries the whole request (each document in a savepoint of it, so a
    /// failing one undoes only itself): far fewer commits, and feeds wake once.
    func bulkDocs(_ request: ListenerRequest) throws -> Response {
        let bulk = try BulkDocsRequest(json: try request.jsonObjectBody())
        let writer = RevisionWriter(served: served, conflicts: conflicts)
        var results: [BulkDocsRequest.Result] = []
        try served.collection.database.inBatch {
            results = bulk.docs.map { json -> BulkDocsRequest.Result in
                // A normal edit without an ID creates a document with a generated one, as in CouchDB.
                let generated = bulk.newEdits && json["_id"] == nil ? UUID().uuidString.lowercased() : nil
                let id = json["_id"]?.stringValue ?? generated ?? ""
                do {
                    // As CouchDB: `_local/` documents are stored as local documents; any other
                    // ID with a leading underscore is refused, as PUT refuses it.
                    if id.hasPrefix("_local/"), id.count > "_local/".count, case .object(let body) = json {
                        let local = LocalDocumentEndpoint(served: served, id: String(id.dropFirst("_local/".count)))
                        return .ok(id: id, revisionID: try local.put(body, revision: json["_rev"]?.stringValue))
                    }
                    guard !id.hasPrefix("_") else { throw BulkEndpoints.illegalID(id) }
                    let document = try CouchDocument(json: json, id: generated)
                    let revision = try writer.write(document, newEdits: bulk.newEdits)
                    return .ok(id: document.id, revisionID: revision)
                } catch {
                    let failure = HTTPFailure.from(error)
                    return .error(
                        id: id, revisionID: json["_rev"]?.stringValue, error: failure.error, reason: failure.reason)
                }
            }
        }
        return JSONResponse.make(.created, .array(results.map(\.json)))
    }

    /// CouchDB's refusal of a document ID with a leading underscore that is not `_local/`
    /// (Quire has no design documents: `PUT /db/_design/x` is 404 too).
    static func illegalID(_ id: String) -> HTTPFailure {
        HTTPFailure(
            status: .badRequest, error: "illegal_docid",
            reason: "Only reserved document ids may start with underscore: '\(id.prefix(80))' is not one Quire stores.")
    }

    /// Flushes every committed write to disk (the write-ahead log and the file), then 201:
    /// without full sync a commit is flushed only at the next checkpoint.
    func ensureFullCommit() throws -> Response {
        _ = try served.collection.database.syncCommittedWrites()
        return JSONResponse.make(.created, ["ok": true, "instance_start_time": "0"])
    }
}
