import Foundation
import Quire

extension Replicator {
    /// The IDs of documents of `collection` changed since the last push checkpoint that the
    /// configuration would push (document IDs and push filter applied). A document pulled
    /// since then is listed too until the next push confirms the remote has it.
    ///
    /// - Throws: `QuireError.Code.unsupported` for a pull-only replicator;
    ///   `QuireError.Code.invalidParameter` when the collection is not replicated;
    ///   `QuireError.Code.notOpen` when the database is closed.
    public func pendingDocumentIds(collection: Collection) throws -> Set<String> {
        guard config.replicatorType.pushes else {
            throw QuireError(.unsupported, "a pull-only replicator has no pending documents to push")
        }
        guard let collectionConfig = config.collectionConfig(collection) else {
            throw QuireError(
                .invalidParameter, "collection \(collection.fullName) is not in the replicator's configuration")
        }
        let (url, _) = try config.validated()
        let inputs = CheckpointInputs(
            uuid: try collection.database.privateUUID(), remoteURL: url, collection: collection.fullName,
            channels: collectionConfig.channels ?? [], filter: collectionConfig.filter,
            filterParameters: collectionConfig.filterParameters ?? [:], documentIDs: collectionConfig.documentIDs ?? [])
        let (local, readUUID) = try Checkpointer.findLocal(inputs: inputs, collection: collection)
        var since = local?.localSequence ?? 0
        if readUUID == inputs.uuid, let recorded = local?.databasePath,
            recorded != DatabaseLocation.path(of: collection.database)
        {
            since = 0
        }
        let allowed = collectionConfig.documentIDs.flatMap { $0.isEmpty ? nil : Set($0) }
        var pending = Set<String>()
        for entry in try collection.changes(since: since) where allowed?.contains(entry.documentID) ?? true {
            if let filter = collectionConfig.pushFilter {
                guard let document = try collection.document(id: entry.documentID, revisionID: entry.revisionID),
                    filter(document, entry.isDeleted ? .deleted : [])
                else { continue }
            }
            pending.insert(entry.documentID)
        }
        return pending
    }

    /// Whether `documentID` is among ``pendingDocumentIds(collection:)``.
    ///
    /// - Throws: as ``pendingDocumentIds(collection:)``.
    public func isDocumentPending(_ documentID: String, collection: Collection) throws -> Bool {
        try pendingDocumentIds(collection: collection).contains(documentID)
    }
}
