import Foundation

/// Document views the replicator needs: any leaf revision, a revision not stored yet, and
/// the application of a resolved conflict.
extension Collection {
    /// The leaf revision `revisionID` of document `id` as a document (a tombstone gives a
    /// document with ``Document/isDeleted`` set and an empty body); nil when the document has
    /// no such leaf.
    package func document(id: String, revisionID: String) throws -> Document? {
        guard let leaf = try leaves(id: id).first(where: { $0.revisionID == revisionID }) else { return nil }
        let sequence = try revisionInfo(id: id)?.sequence ?? 0
        return Document(
            id: id, revisionID: leaf.revisionID, sequence: sequence, isDeleted: leaf.isDeleted, collection: self,
            content: DictionaryObject(leaf.isDeleted ? [:] : leaf.body, blobStore: database.blobStore))
    }

    /// A document showing `revision` before it is stored (for filters and conflict resolvers);
    /// its blobs read from this database's blob store.
    package func document(for revision: ForeignRevision) -> Document {
        Document(
            id: revision.documentID, revisionID: revision.revisionID, sequence: 0, isDeleted: revision.isDeleted,
            collection: self,
            content: DictionaryObject(
                revision.isDeleted ? [:] : revision.body, blobStore: database.blobStore))
    }

    /// Resolves the conflicted document `id` with `resolved` (nil or a deleted document
    /// deletes it), as ``resolveConflict(id:body:)`` does; the resolved document's new blobs
    /// are stored first.
    package func resolveConflict(id: String, with resolved: Document?) throws {
        guard let resolved, !resolved.isDeleted else {
            try resolveConflict(id: id, body: nil)
            return
        }
        let body: JSONObject
        if let mutable = resolved as? MutableDocument {
            body = try mutable.body()
            for blob in mutable.blobs() { try blob.install(into: database.blobStore) }
        } else {
            body = resolved.content.jsonObject
        }
        try DocumentRules.checkReservedKeys(body, id: id)
        try resolveConflict(id: id, body: body)
    }

    /// The IDs of the documents with a conflict (a live leaf besides the current revision),
    /// sorted: those a replicator still has to resolve.
    package func conflictedDocumentIDs() throws -> [String] {
        try reading { connection in
            try connection.query(
                "SELECT DISTINCT key FROM quire_leaves WHERE collection_id = ? AND deleted = 0 ORDER BY key",
                [.integer(self.id)]
            ) { $0.text(at: 0) ?? "" }
        }
    }

    /// Whether `document` holds a blob already stored in another database: a conflict
    /// resolution refuses it, as Couchbase Lite does.
    package func holdsBlobOfAnotherDatabase(_ document: Document) -> Bool {
        guard let mutable = document as? MutableDocument else { return false }
        let own = database.blobStore.directory.standardizedFileURL
        return mutable.blobs().contains { blob in
            blob.storeDirectory.map { $0.standardizedFileURL != own } ?? false
        }
    }

    /// The IDs of this collection's local documents (``localDocument(id:)``), sorted.
    package func localDocumentIDs() throws -> [String] {
        try reading { connection in
            try connection.query(
                "SELECT key FROM quire_local_docs WHERE collection_id = ? ORDER BY key", [.integer(self.id)]
            ) { $0.text(at: 0) ?? "" }
        }
    }
}
