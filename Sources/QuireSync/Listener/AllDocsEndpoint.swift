import Hummingbird
import Quire

/// `GET|POST /{db}/_all_docs`: documents by ID, with `keys`, `include_docs`, `startkey`,
/// `endkey`, `inclusive_end`, `descending`, `skip` and `limit`.
struct AllDocsEndpoint: Sendable {
    let served: ServedCollection

    func respond(_ request: ListenerRequest) throws -> Response {
        let query = request.query
        var body: JSONValue?
        if request.method == .post, !request.body.isEmpty { body = try request.jsonObjectBody() }
        let options = RevisionRenderer.Options(
            revisions: false, attachmentData: try query.bool("attachments"), conflicts: try query.bool("conflicts"))
        let includeDocs = try query.bool("include_docs")
        let renderer = RevisionRenderer(served: served)

        var keys: [String]?
        if let list = try body?["keys"] ?? query.json("keys") {
            guard let items = list.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
                throw HTTPFailure.badRequest("'keys' must be a JSON array of document IDs")
            }
            keys = items.compactMap(\.stringValue)
        }
        // The count comes from two indexes and rows from the ID order of the table (or one
        // lookup per key), so a request costs what it returns, not the size of the collection.
        let live = served.collection.count
        let descending = try query.bool("descending")
        var rows: [JSONValue] = []
        if let keys {
            for key in descending ? keys.reversed() : keys {
                guard let info = try served.collection.revisionInfo(id: key) else {
                    rows.append(["key": .string(key), "error": "not_found"])
                    continue
                }
                var value: [String: JSONValue] = ["rev": .string(info.revisionID)]
                if info.isDeleted { value["deleted"] = true }
                var row: [String: JSONValue] = ["id": .string(key), "key": .string(key), "value": .object(value)]
                if includeDocs {
                    row["doc"] = info.isDeleted ? .null : try renderer.currentJSON(id: key, options: options) ?? .null
                }
                rows.append(.object(row))
            }
        } else {
            let listed = try served.collection.liveDocuments(
                from: try key("startkey", "start_key", query: query), to: try key("endkey", "end_key", query: query),
                inclusiveEnd: try query.bool("inclusive_end", default: true), descending: descending,
                skip: try query.integer("skip") ?? 0, limit: try query.integer("limit"))
            for listing in listed {
                var row: [String: JSONValue] = [
                    "id": .string(listing.id), "key": .string(listing.id),
                    "value": ["rev": .string(listing.revisionID)],
                ]
                if includeDocs { row["doc"] = try renderer.currentJSON(id: listing.id, options: options) ?? .null }
                rows.append(.object(row))
            }
        }
        return JSONResponse.make(.ok, ["total_rows": .int(Int64(live)), "offset": 0, "rows": .array(rows)])
    }

    /// A key bound given as JSON text (`startkey="a"`) under either of two names.
    private func key(_ name: String, _ alias: String, query: QueryParameters) throws -> String? {
        guard let value = try query.json(name) ?? query.json(alias) else { return nil }
        guard let text = value.stringValue else { throw HTTPFailure.badRequest("'\(name)' must be a JSON string") }
        return text
    }
}
