import Quire

/// The body of `POST /{db}/_bulk_docs`: `{"docs": [...], "new_edits": false}`, and its
/// per-document results.
package struct BulkDocsRequest: Sendable {
    /// One document's outcome: `{"id", "rev"}` or `{"id", "error", "reason"}`.
    package enum Result: Equatable, Sendable {
        /// Saved (or already present) as `revisionID`.
        case ok(id: String, revisionID: String)
        /// Not saved, with CouchDB's error name and a reason.
        case error(id: String, revisionID: String?, error: String, reason: String)

        /// The JSON form.
        package var json: JSONValue {
            switch self {
            case .ok(let id, let rev):
                return .object(["ok": .bool(true), "id": .string(id), "rev": .string(rev)])
            case .error(let id, let rev, let error, let reason):
                var members: JSONObject = [
                    "id": .string(id), "error": .string(error), "reason": .string(reason),
                ]
                if let rev { members["rev"] = .string(rev) }
                return .object(members)
            }
        }

        /// Reads one result.
        package init(json: JSONValue) throws {
            let id = json["id"]?.stringValue ?? ""
            if let error = json["error"]?.stringValue {
                self = .error(
                    id: id, revisionID: json["rev"]?.stringValue, error: error,
                    reason: json["reason"]?.stringValue ?? "")
            } else if let rev = json["rev"]?.stringValue {
                self = .ok(id: id, revisionID: rev)
            } else {
                throw WireError.invalid("_bulk_docs response", "a result has neither 'rev' nor 'error'")
            }
        }
    }

    /// The documents, each a JSON object (decoded one by one, so one bad document fails
    /// alone).
    package var docs: [JSONValue]
    /// False to insert revisions as they are, with their ancestry (replication).
    package var newEdits: Bool

    /// A request from its parts.
    package init(docs: [JSONValue], newEdits: Bool) {
        self.docs = docs
        self.newEdits = newEdits
    }

    /// A request carrying `documents`.
    package init(documents: [CouchDocument], newEdits: Bool) {
        self.init(docs: documents.map { $0.json(includeRevisions: true) }, newEdits: newEdits)
    }

    /// Reads the request object.
    package init(json: JSONValue) throws {
        guard let docs = json["docs"]?.arrayValue else {
            throw WireError.invalid("_bulk_docs", "expected {\"docs\": [...]}")
        }
        var newEdits = true
        if let flag = json["new_edits"] {
            guard let value = flag.boolValue else {
                throw WireError.invalid("_bulk_docs", "'new_edits' must be true or false")
            }
            newEdits = value
        }
        self.init(docs: docs, newEdits: newEdits)
    }

    /// The JSON form.
    package var json: JSONValue {
        .object(["docs": .array(docs), "new_edits": .bool(newEdits)])
    }

    /// Reads the response array.
    package static func results(json: JSONValue) throws -> [Result] {
        guard let items = json.arrayValue else { throw WireError.invalid("_bulk_docs response", "expected an array") }
        return try items.map(Result.init(json:))
    }
}
