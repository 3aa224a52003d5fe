import Foundation
import Quire

/// An attachment of a revision received from a peer.
struct RemoteAttachment: Sendable {
    let name: String
    let contentType: String?
    let digest: String?
    let length: Int64?
    /// The decoded inline `data`; nil for a stub.
    let data: Data?
    let revpos: Int64?
}

/// A revision received from a peer (`_bulk_get` or `open_revs`), checked field by field
/// before anything is stored.
struct RemoteRevision: Sendable {
    /// CouchDB's metadata members, never part of a stored body.
    static let metadataKeys: Set<String> = [
        "_id", "_rev", "_revisions", "_deleted", "_attachments", "_conflicts", "_deleted_conflicts", "_local_seq",
        "_revs_info",
    ]
    /// The most ancestors accepted in `_revisions`.
    static let maximumAncestors = 10_000

    let documentID: String
    let revisionID: String
    /// Ancestors, newest first.
    let ancestors: [String]
    let isDeleted: Bool
    /// Sync Gateway's `_removed`: access to the document was revoked.
    let isRemoved: Bool
    /// The body without metadata members.
    let body: [String: JSONValue]
    let attachments: [RemoteAttachment]

    init(_ value: WireValue, expectedID: String?) throws {
        let object = try value.object()
        documentID = try RevisionFormat.documentID(try object.required("_id"))
        if let expectedID, documentID != expectedID {
            throw value.failure("is document '\(documentID.prefix(80))', but '\(expectedID.prefix(80))' was asked for")
        }
        let revisionValue = try object.required("_rev")
        revisionID = try RevisionFormat.revisionID(revisionValue)
        guard let (generation, suffix) = RevisionFormat.split(revisionID) else { throw revisionValue.failure("is invalid") }
        if let revisions = object.optional("_revisions") {
            let fields = try revisions.object()
            let startValue = try fields.required("start")
            let start = try startValue.int()
            guard start == generation else {
                throw startValue.failure("is \(start), but _rev '\(revisionID)' has generation \(generation)")
            }
            let idsValue = try fields.required("ids")
            let ids = try idsValue.array().map { item -> String in
                let text = try item.string()
                guard RevisionFormat.isValidSuffix(Substring(text)) else {
                    throw item.failure("is '\(text.prefix(80))', not a revision digest")
                }
                return text
            }
            guard let first = ids.first, first == suffix else {
                throw idsValue.failure("does not start with the digest of _rev '\(revisionID)'")
            }
            guard ids.count <= generation, ids.count <= RemoteRevision.maximumAncestors + 1 else {
                throw idsValue.failure("lists \(ids.count) revisions for generation \(generation)")
            }
            ancestors = ids.enumerated().dropFirst().map { "\(generation - $0.offset)-\($0.element)" }
        } else {
            ancestors = []
        }
        isDeleted = try object.optional("_deleted")?.bool() ?? false
        isRemoved = try object.optional("_removed")?.bool() ?? false
        var attachments: [RemoteAttachment] = []
        if let list = object.optional("_attachments") {
            let entries = try list.object()
            for name in entries.members.keys.sorted() {
                attachments.append(try RemoteRevision.attachment(name: name, try entries.required(name)))
            }
        }
        self.attachments = attachments
        body = object.members.filter { !RemoteRevision.metadataKeys.contains($0.key) }
    }

    private static func attachment(name: String, _ value: WireValue) throws -> RemoteAttachment {
        let fields = try value.object()
        let data: Data?
        if let encoded = fields.optional("data") {
            let text = try encoded.string()
            guard let bytes = Data(base64Encoded: text) else { throw encoded.failure("is not valid base64") }
            data = bytes
        } else {
            data = nil
        }
        let length = try fields.optional("length")?.int()
        if let length, let data, length != Int64(data.count) {
            throw value.failure("says length \(length) but carries \(data.count) bytes")
        }
        return RemoteAttachment(
            name: name, contentType: try fields.optional("content_type")?.string(),
            digest: try fields.optional("digest")?.string(), length: length, data: data,
            revpos: try fields.optional("revpos")?.int())
    }

    /// The revision as Quire stores it, with `body` in place of the received one.
    func foreignRevision(body: [String: JSONValue]) -> ForeignRevision {
        ForeignRevision(
            documentID: documentID, revisionID: revisionID, ancestors: ancestors, isDeleted: isDeleted,
            body: isDeleted ? [:] : body)
    }
}
