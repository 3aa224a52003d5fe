import Hummingbird
import Quire
import QuireSync

/// `GET|POST /{db}/_all_docs`: documents by ID, with the options of ``AllDocsOptions`` (in
/// the query string, or for POST in the JSON body too).
struct AllDocsEndpoint: Sendable {
    let served: ServedCollection
    /// Streams the rows when set (see ``StreamedRows``); builds the response whole otherwise.
    var streaming: ResponseStreaming? = nil

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
        let head = #"{"total_rows":\#(live),"offset":0,"rows":["#
        if let keys = options.keys {
            // As CouchDB: the keys in the order given (reversed by `descending`), then skip and limit.
            let ordered = (descending ? keys.reversed() : keys).dropFirst(options.skip)
            let selected = Array(options.limit.map({ ordered.prefix($0) }) ?? ordered)
            let served = self.served
            return try StreamedRows(head: head, tail: "]}", count: selected.count) { index in
                let key = selected[index]
                guard let info = try served.collection.revisionInfo(id: key) else {
                    return ["key": .string(key), "error": "not_found"]
                }
                var value: JSONObject = ["rev": .string(info.revisionID)]
                if info.isDeleted { value["deleted"] = true }
                var row: JSONObject = ["id": .string(key), "key": .string(key), "value": .object(value)]
                if includeDocs {
                    row["doc"] = info.isDeleted ? .null : try renderer.currentJSON(id: key, options: rendering) ?? .null
                }
                return .object(row)
            }.response(streaming)
        }
        let listed = try served.collection.liveDocuments(
            from: options.startKey, to: options.endKey, inclusiveEnd: options.inclusiveEnd, descending: descending,
            skip: options.skip, limit: options.limit)
        return try StreamedRows(head: head, tail: "]}", count: listed.count) { index in
            let listing = listed[index]
            var row: JSONObject = [
                "id": .string(listing.id), "key": .string(listing.id),
                "value": ["rev": .string(listing.revisionID)],
            ]
            if includeDocs { row["doc"] = try renderer.currentJSON(id: listing.id, options: rendering) ?? .null }
            return .object(row)
        }.response(streaming)
    }
}
