import Quire

/// The body of `POST /{db}/_bulk_get`: `{"docs": [{"id": ..., "rev": ...?, "atts_since": [...]?}]}`.
package struct BulkGetRequest: Equatable, Sendable {
    /// One requested document revision.
    package struct Item: Equatable, Sendable {
        /// The document ID.
        package var id: String
        /// The revision; nil asks for the current one.
        package var revisionID: String?
        /// Revisions the requester has: attachments not newer than these may come as stubs.
        package var attachmentsSince: [String]

        /// An item from its parts.
        package init(id: String, revisionID: String? = nil, attachmentsSince: [String] = []) {
            self.id = id
            self.revisionID = revisionID
            self.attachmentsSince = attachmentsSince
        }
    }

    /// The requested revisions, in order.
    package var items: [Item]

    /// A request from its parts.
    package init(items: [Item]) {
        self.items = items
    }

    /// Reads the request object.
    package init(json: JSONValue) throws {
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
    package var json: JSONValue {
        .object([
            "docs": .array(
                items.map { item in
                    var members: JSONObject = ["id": .string(item.id)]
                    if let rev = item.revisionID { members["rev"] = .string(rev) }
                    if !item.attachmentsSince.isEmpty {
                        members["atts_since"] = .array(item.attachmentsSince.map { .string($0) })
                    }
                    return .object(members)
                })
        ])
    }
}
