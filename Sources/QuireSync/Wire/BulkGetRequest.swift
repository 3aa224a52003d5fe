import Quire

/// The body of `POST /{db}/_bulk_get`: `{"docs": [{"id": ..., "rev": ...?, "atts_since": [...]?}]}`.
struct BulkGetRequest: Equatable, Sendable {
    /// One requested document revision.
    struct Item: Equatable, Sendable {
        /// The document ID.
        var id: String
        /// The revision; nil asks for the current one.
        var revisionID: String?
        /// Revisions the requester has: attachments not newer than these may come as stubs.
        var attachmentsSince: [String]

        /// An item from its parts.
        init(id: String, revisionID: String? = nil, attachmentsSince: [String] = []) {
            self.id = id
            self.revisionID = revisionID
            self.attachmentsSince = attachmentsSince
        }
    }

    /// The requested revisions, in order.
    var items: [Item]

    /// A request from its parts.
    init(items: [Item]) {
        self.items = items
    }

    /// Reads the request object.
    init(json: JSONValue) throws {
        guard let docs = json["docs"]?.arrayValue else {
            throw WireError.invalid("_bulk_get", "expected {\"docs\": [...]}")
        }
        items = try docs.map { doc in
            guard let id = doc["id"]?.stringValue, !id.isEmpty else {
                throw WireError.invalid("_bulk_get", "every entry of 'docs' needs a non-empty string 'id'")
            }
            var revisionID: String?
            if let rev = doc["rev"], !rev.isNull {
                guard let text = rev.stringValue else {
                    throw WireError.invalid("_bulk_get", "'rev' of '\(id)' must be a string")
                }
                revisionID = text
            }
            return Item(
                id: id, revisionID: revisionID,
                attachmentsSince: doc["atts_since"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        }
    }

    /// The JSON form.
    var json: JSONValue {
        .object([
            "docs": .array(
                items.map { item in
                    var members: [String: JSONValue] = ["id": .string(item.id)]
                    if let rev = item.revisionID { members["rev"] = .string(rev) }
                    if !item.attachmentsSince.isEmpty {
                        members["atts_since"] = .array(item.attachmentsSince.map { .string($0) })
                    }
                    return .object(members)
                })
        ])
    }
}
