import Quire

/// The body a `POST /{db}/_bulk_get` answers with:
/// `{"results": [{"id": ..., "docs": [{"ok": {...}} | {"error": {"id", "rev", "error", "reason"}}]}]}`.
package struct BulkGetResponse: Equatable, Sendable {
    /// One revision, or why it could not be had.
    package enum Item: Equatable, Sendable {
        /// The revision as a document object (with `_revisions` when asked).
        case ok(JSONValue)
        /// CouchDB's per-revision error, such as `not_found` / `missing`.
        case error(id: String, revisionID: String?, error: String, reason: String)

        /// The JSON form.
        package var json: JSONValue {
            switch self {
            case .ok(let document):
                return .object(["ok": document])
            case .error(let id, let rev, let error, let reason):
                var members: JSONObject = [
                    "id": .string(id), "error": .string(error), "reason": .string(reason),
                ]
                members["rev"] = rev.map { .string($0) } ?? .null
                return .object(["error": .object(members)])
            }
        }

        /// Reads `{"ok": ...}` or `{"error": {...}}`.
        package init(json: JSONValue) throws {
            if let document = json["ok"] {
                self = .ok(document)
            } else if let error = json["error"] {
                self = .error(
                    id: error["id"]?.stringValue ?? "", revisionID: error["rev"]?.stringValue,
                    error: error["error"]?.stringValue ?? "unknown", reason: error["reason"]?.stringValue ?? "")
            } else {
                throw WireError.invalid("_bulk_get response", "a 'docs' entry is neither 'ok' nor 'error'")
            }
        }
    }

    /// The revisions found for one requested ID.
    package struct Result: Equatable, Sendable {
        /// The document ID.
        package var id: String
        /// One item per requested revision (or per leaf).
        package var docs: [Item]

        /// A result from its parts.
        package init(id: String, docs: [Item]) {
            self.id = id
            self.docs = docs
        }
    }

    /// One result per requested item, in request order.
    package var results: [Result]

    /// A response from its parts.
    package init(results: [Result]) {
        self.results = results
    }

    /// Reads the response object.
    package init(json: JSONValue) throws {
        guard let results = json["results"]?.arrayValue else {
            throw WireError.invalid("_bulk_get response", "has no 'results' array")
        }
        self.results = try results.map { result in
            guard let id = result["id"]?.stringValue, let docs = result["docs"]?.arrayValue else {
                throw WireError.invalid("_bulk_get response", "a result needs 'id' and 'docs'")
            }
            return Result(id: id, docs: try docs.map(Item.init(json:)))
        }
    }

    /// The JSON form.
    package var json: JSONValue {
        .object([
            "results": .array(
                results.map { .object(["id": .string($0.id), "docs": .array($0.docs.map(\.json))]) })
        ])
    }
}
