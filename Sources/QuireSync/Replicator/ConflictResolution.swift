import Foundation
import Quire

/// A conflict a pull created: the pulled revision is stored beside the local one, and waits
/// for the collection's resolver.
struct PendingConflict: Sendable {
    let documentID: String
    /// The local branch's leaf when the conflict was made.
    let localRevision: String
    /// The pulled branch's leaf.
    let remoteRevision: String
    /// The pulled revision's flags, for the document event.
    let flags: DocumentFlags
}

/// Resolves conflicts with the collection's resolver, as Couchbase Lite does:
///
/// - each conflict is resolved on a concurrent queue, outside any store write, so a slow
///   resolver does not hold up the others and may read and write the database;
/// - when the document changes while the resolver runs, the resolver is called again with
///   the new leaves (ReplicatorTest_CustomConflict.testConflictResolverCalledTwice);
/// - the resolved document must come from this database: a document of another database is
///   refused with `conflict`, a blob stored in another database with `unexpectedError`, and
///   the conflict stays for the next run; a document with another ID gives its body;
/// - a document purged meanwhile ends with `notFound`.
///
/// A conflict left unresolved (a failed resolution, or a run stopped first) is resolved at
/// the next pull's start; the remote's `_revs_diff` tells which leaf is the remote's.
struct ConflictResolution: Sendable {
    /// How many times the resolver is called for a document that keeps changing under it.
    static let maximumRounds = 10

    let job: CollectionReplication

    /// How many resolvers run at once, across all replicators.
    static let maximumConcurrent = 8
    /// Threads of their own: resolvers are the app's code and may block, so they never run
    /// on Swift's cooperative threads, nor wait for a dispatch queue's few.
    private static let threads = WorkerThreads(name: "Quire.ConflictResolution", limit: maximumConcurrent)

    /// Resolves `conflicts` concurrently (up to ``maximumConcurrent`` at once) and returns
    /// their document events, in order.
    func resolve(_ conflicts: [PendingConflict]) async -> [ReplicatedDocument] {
        await withTaskGroup(of: (Int, ReplicatedDocument).self) { group in
            for (index, conflict) in conflicts.enumerated() {
                group.addTask {
                    do {
                        return (index, try await ConflictResolution.threads.run { resolveNow(conflict) })
                    } catch {
                        let failure = ReplicationRun.quireError(error)
                        return (
                            index, job.replicatedDocument(conflict.documentID, flags: conflict.flags, error: failure)
                        )
                    }
                }
            }
            var documents = [ReplicatedDocument?](repeating: nil, count: conflicts.count)
            for await (index, document) in group { documents[index] = document }
            return documents.compactMap { $0 }
        }
    }

    /// The conflicts of the collection left from earlier runs, with the remote's leaf told by
    /// the remote itself (when it has both, or neither, the current revision is the local one).
    func leftOver() async throws -> [PendingConflict] {
        let collection = job.collection
        let leavesByID = try await DatabaseWork.shared.read { () -> [JSONKey: [LeafRevision]] in
            var leaves: [JSONKey: [LeafRevision]] = [:]
            for id in try collection.conflictedDocumentIDs() {
                let live = try collection.leaves(id: id).filter { !$0.isDeleted }
                if live.count > 1 { leaves[JSONKey(id)] = live }
            }
            return leaves
        }
        guard !leavesByID.isEmpty else { return [] }
        let missing: [JSONKey: [String]]
        do {
            missing = try await job.remote.revsDiff(leavesByID.mapValues { $0.map(\.revisionID) })
        } catch let error as QuireError
            where error.domain == .network && [400, 403, 404, 405, 501].contains(error.underlyingCode ?? 0)
        {
            // A peer that refuses the question (no `_revs_diff` for a pull-only client, say):
            // the current revisions are the local ones. Other failures stop the pull as usual.
            missing = [:]
        }
        var conflicts: [PendingConflict] = []
        for (key, leaves) in leavesByID.sorted(by: { $0.key < $1.key }) {
            let lacking = Set(missing[key] ?? [])
            let current = leaves.first(where: \.isCurrent) ?? leaves[0]
            let local = leaves.count == 2 && lacking.count == 1 ? leaves.first { lacking.contains($0.revisionID) } : nil
            let localLeaf = local ?? current
            guard let remoteLeaf = leaves.first(where: { $0.revisionID != localLeaf.revisionID }) else { continue }
            conflicts.append(
                PendingConflict(
                    documentID: key.text, localRevision: localLeaf.revisionID, remoteRevision: remoteLeaf.revisionID,
                    flags: []))
        }
        return conflicts
    }

    /// Resolves one conflict; its document event, with the error that stopped it if any.
    private func resolveNow(_ pending: PendingConflict) -> ReplicatedDocument {
        do {
            try resolveRounds(pending)
            return job.replicatedDocument(pending.documentID, flags: pending.flags)
        } catch {
            return job.replicatedDocument(
                pending.documentID, flags: pending.flags, error: ReplicationRun.quireError(error))
        }
    }

    private func resolveRounds(_ pending: PendingConflict) throws {
        let collection = job.collection
        let id = pending.documentID
        var localRevision = pending.localRevision
        var remoteRevision = pending.remoteRevision
        let resolver = job.config.conflictResolver ?? ConflictResolver.default
        for _ in 0..<ConflictResolution.maximumRounds {
            let leaves = try collection.leaves(id: id)
            guard !leaves.isEmpty else { throw purged(id) }
            guard let local = leaf(leaves, on: localRevision), let remote = leaf(leaves, on: remoteRevision),
                local.revisionID != remote.revisionID, !(local.isDeleted && remote.isDeleted)
            else { return }  // Resolved meanwhile.
            let conflict = Conflict(
                documentID: id, localDocument: try live(id, local), remoteDocument: try live(id, remote))
            let resolved = resolver.resolve(conflict: conflict)
            // The resolver may have changed the document: then it decides again, on what is there now.
            let after = try collection.leaves(id: id)
            guard !after.isEmpty else { throw purged(id) }
            if Set(after.map(\.revisionID)) != Set(leaves.map(\.revisionID)) {
                localRevision = local.revisionID
                remoteRevision = remote.revisionID
                continue
            }
            try check(resolved, for: id)
            try collection.resolveConflict(id: id, with: resolved)
            return
        }
        throw QuireError(
            .conflict,
            "document '\(id)' changed every time its conflict resolver ran (\(ConflictResolution.maximumRounds) times)")
    }

    /// The leaf on the branch through `revision`: that revision, or the leaf it is an ancestor of.
    private func leaf(_ leaves: [LeafRevision], on revision: String) -> LeafRevision? {
        leaves.first { $0.revisionID == revision } ?? leaves.first { $0.ancestors.contains(revision) }
    }

    private func live(_ id: String, _ leaf: LeafRevision) throws -> Document? {
        guard !leaf.isDeleted else { return nil }
        return try job.collection.document(id: id, revisionID: leaf.revisionID)
    }

    private func purged(_ id: String) -> QuireError {
        QuireError(.notFound, "document '\(id)' was purged before its conflict was resolved")
    }

    /// Refuses a resolution that does not belong to this database.
    private func check(_ resolved: Document?, for id: String) throws {
        guard let resolved else { return }
        let collection = job.collection
        if let owner = resolved.collection, owner.database.filePath != collection.database.filePath {
            throw QuireError(
                .conflict,
                "the conflict resolver for '\(id)' returned a document of database '\(owner.database.name)', not of '\(collection.database.name)'"
            )
        }
        if collection.holdsBlobOfAnotherDatabase(resolved) {
            throw QuireError(
                .unexpectedError,
                "A document contains a blob that was saved to a different database. The save operation cannot complete."
            )
        }
    }
}
