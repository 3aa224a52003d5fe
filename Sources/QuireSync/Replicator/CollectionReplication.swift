import Foundation
import Quire

/// Everything the push and pull workers of one collection share during a run.
struct CollectionReplication: Sendable {
    let collection: Collection
    let config: CollectionConfiguration
    let remote: RemoteDatabase
    let fetcher: RevisionFetcher
    let checkpointer: Checkpointer
    let monitor: ReplicationMonitor
    /// Wakes the pusher; nil in a pull-only run.
    let wakeup: PushWakeup?
    let continuous: Bool
    let heartbeat: TimeInterval
    /// How long one request may go without an answer.
    let requestTimeout: TimeInterval
    let autoPurge: Bool

    /// The document IDs to replicate, nil for all; told apart by their bytes, as the store
    /// tells them apart.
    var documentIDs: Set<JSONKey>? {
        config.documentIDs.flatMap { $0.isEmpty ? nil : Set($0.map(JSONKey.init)) }
    }

    func replicatedDocument(_ id: String, flags: DocumentFlags, error: QuireError? = nil) -> ReplicatedDocument {
        ReplicatedDocument(
            id: id, flags: flags, error: error, scope: collection.scope.name, collection: collection.name)
    }
}
