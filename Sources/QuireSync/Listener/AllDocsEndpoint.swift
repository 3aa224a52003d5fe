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
        let changes = try served.collection.changes(since: 0)
        let live = changes.filter { !$0.isDeleted }.count
        var rows: [JSONValue] = []
        if let keys {
            let byID = Dictionary(changes.map { ($0.documentID, $0) }, uniquingKeysWith: { $1 })
            for key in keys {
                guard let change = byID[key] else {
                    rows.append(["key": .string(key), "error": "not_found"])
                    continue
                }
                var value: [String: JSONValue] = ["rev": .string(change.revisionID)]
                if change.isDeleted { value["deleted"] = true }
                var row: [String: JSONValue] = ["id": .string(key), "key": .string(key), "value": .object(value)]
                if includeDocs {
                    row["doc"] = change.isDeleted ? .null : try renderer.currentJSON(id: key, options: options) ?? .null
                }
                rows.append(.object(row))
            }
        } else {
            // _all_docs collates IDs as raw bytes.
            var selected = changes.filter { !$0.isDeleted }.sorted {
                Array($0.documentID.utf8).lexicographicallyPrecedes(Array($1.documentID.utf8))
            }
            let descending = try query.bool("descending")
            if descending { selected.reverse() }
            let start = try key("startkey", "start_key", query: query)
            let end = try key("endkey", "end_key", query: query)
            let inclusiveEnd = try query.bool("inclusive_end", default: true)
            selected = selected.filter { change in
                let id = Array(change.documentID.utf8)
                let afterStart = start.map { bound -> Bool in
                    let other = Array(bound.utf8)
                    return descending ? !other.lexicographicallyPrecedes(id) : !id.lexicographicallyPrecedes(other)
                } ?? true
                let beforeEnd = end.map { bound -> Bool in
                    let other = Array(bound.utf8)
                    if id == other { return inclusiveEnd }
                    return descending ? other.lexicographicallyPrecedes(id) : id.lexicographicallyPrecedes(other)
                } ?? true
                return afterStart && beforeEnd
            }
            let skip = try query.integer("skip") ?? 0
            let limit = try query.integer("limit") ?? Int.max
            for change in selected.dropFirst(skip).prefix(limit) {
                var row: [String: JSONValue] = [
                    "id": .string(change.documentID), "key": .string(change.documentID),
                    "value": ["rev": .string(change.revisionID)],
                ]
                if includeDocs { row["doc"] = try renderer.currentJSON(id: change.documentID, options: options) ?? .null }
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
