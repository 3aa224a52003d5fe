import Hummingbird
import Quire

/// `GET|POST /{db}/_all_docs`: documents by ID, with the options of ``AllDocsOptions`` (in
/// the query string, or for POST in the JSON body too).
struct AllDocsEndpoint: Sendable {
    let served: ServedCollection

    func respond(_ request: ListenerRequest) throws -> Response {
        var body: JSONValue?
        if request.method == .post, !request.body.isEmpty { body = try request.jsonObjectBody() }
        let options = try AllDocsOptions(query: request.query, body: body)
        let rendering = RevisionRenderer.Options(
            revisions: false, attachmentData: options.attachments, conflicts: options.conflicts)
        let includeDocs = options.includeDocs
        let renderer = RevisionRenderer(served: served)
        // The count comes from two indexes and rows from the ID order of the table (or one
        // lookup per key), so a request costs what it returns, not the size of the collection.
        let live = served.collection.count
        let descending = options.descending
        var rows: [JSONValue] = []
        if let keys = options.keys {
            // As CouchDB: the keys in the order given (reversed by `descending`), then skip and limit.
            let ordered = (descending ? keys.reversed() : keys).dropFirst(options.skip)
            for key in options.limit.map({ ordered.prefix($0) }) ?? ordered {
                guard let info = try served.collection.revisionInfo(id: key) else {
                    rows.append(["key": .string(key), "error": "not_found"])
                    continue
                }
                var value: [String: JSONValue] = ["rev": .string(info.revisionID)]
                if info.isDeleted { value["deleted"] = true }
                var row: [String: JSONValue] = ["id": .string(key), "key": .string(key), "value": .object(value)]
                if includeDocs {
                    row["doc"] = info.isDeleted ? .null : try renderer.currentJSON(id: key, options: rendering) ?? .null
                }
                rows.append(.object(row))
            }
        } else {
            let listed = try served.collection.liveDocuments(
                from: options.startKey, to: options.endKey, inclusiveEnd: options.inclusiveEnd, descending: descending,
                skip: options.skip, limit: options.limit)
            for listing in listed {
                var row: [String: JSONValue] = [
                    "id": .string(listing.id), "key": .string(listing.id),
                    "value": ["rev": .string(listing.revisionID)],
                ]
                if includeDocs { row["doc"] = try renderer.currentJSON(id: listing.id, options: rendering) ?? .null }
                rows.append(.object(row))
            }
        }
        return JSONResponse.make(.ok, ["total_rows": .int(Int64(live)), "offset": 0, "rows": .array(rows)])
    }
}
