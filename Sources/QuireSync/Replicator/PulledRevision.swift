import Foundation
import Quire

/// A revision received from a peer (`_bulk_get` or `open_revs`), checked before anything is
/// stored: the shared ``CouchDocument`` decoding, then the stricter rules a revision tree
/// needs (``RevisionFormat``, ancestry consistent with `_rev`, at most
/// ``maximumAncestors``).
struct PulledRevision: Sendable {
    /// The most ancestors accepted in `_revisions`.
    static let maximumAncestors = 10_000

    let document: CouchDocument
    let revisionID: String

    var documentID: String { document.id }
    var ancestors: [String] { document.ancestors }
    var isDeleted: Bool { document.isDeleted }
    /// Sync Gateway's `_removed`: the user lost access to the document.
    var isRemoved: Bool { document.body["_removed"]?.boolValue == true }

    init(_ json: JSONValue, expectedID: String, context: String) throws {
        let document = try PeerResponse.decode(context) { try CouchDocument(json: json, id: nil) }
        guard JSONKey(document.id) == JSONKey(expectedID) else {
            throw PeerResponse.malformed(
                context, "sent document '\(document.id.prefix(80))' where '\(expectedID.prefix(80))' was asked for")
        }
        try PeerResponse.decode(context) {
            try RevisionFormat.checkDocumentID(document.id, "_id")
            guard let revisionID = document.revisionID else {
                throw QuireError(.remoteError, "document '\(document.id)' has no _rev")
            }
            try RevisionFormat.check(revisionID, "_rev of '\(document.id)'")
            for ancestor in document.ancestors { try RevisionFormat.check(ancestor, "_revisions of '\(document.id)'") }
            guard document.ancestors.count <= PulledRevision.maximumAncestors else {
                throw QuireError(
                    .remoteError, "_revisions of '\(document.id)' lists \(document.ancestors.count) ancestors")
            }
        }
        self.document = document
        self.revisionID = document.revisionID ?? ""
    }

    /// The revision as Quire stores it, with `body` in place of the received one.
    func foreignRevision(body: JSONObject) -> ForeignRevision {
        ForeignRevision(
            documentID: documentID, revisionID: revisionID, ancestors: ancestors, isDeleted: isDeleted,
            body: isDeleted ? [:] : body)
    }
}
