import Quire

/// Couchbase Lite's default conflict rule:
///
/// 1. a deletion always wins: when either side is deleted, the document is deleted;
/// 2. otherwise the newer revision wins: the higher generation (the number before the `-`
///    in the revision ID, how many edits lead to it);
/// 3. otherwise, for equal generations, a deterministic pick: the higher revision ID, compared
///    as bytes, so both peers choose the same side.
public struct DefaultConflictResolver: ConflictResolverProtocol {
    /// The default resolver.
    public init() {}

    /// Applies the rule above.
    public func resolve(conflict: Conflict) -> Document? {
        guard let local = conflict.localDocument, let remote = conflict.remoteDocument,
            !local.isDeleted, !remote.isDeleted
        else { return nil }
        let localRevision = local.revisionID ?? ""
        let remoteRevision = remote.revisionID ?? ""
        let localGeneration = RevisionFormat.split(localRevision)?.generation ?? 0
        let remoteGeneration = RevisionFormat.split(remoteRevision)?.generation ?? 0
        if localGeneration != remoteGeneration { return localGeneration > remoteGeneration ? local : remote }
        return Array(localRevision.utf8).lexicographicallyPrecedes(Array(remoteRevision.utf8)) ? remote : local
    }
}
