extension URLEndpointListenerConfiguration {
    /// What a listener does with a replicated revision (`new_edits: false`) that would leave
    /// a document with a second live branch, a conflict.
    ///
    /// The two servers Quire's listener stands in for disagree here. Couchbase Lite's
    /// listener refuses such a revision (LiteCore's `noIncomingConflicts` for a passive
    /// peer): the pusher gets 409 `conflict` for that document, keeps its revision, and
    /// resolves the conflict when it pulls, so the listener's database never holds one.
    /// CouchDB stores it as a conflict (both branches kept, one chosen as the winner and the
    /// other listed in `_conflicts`), and CouchDB clients such as PouchDB count on that: a
    /// refused revision makes PouchDB abort the whole replication.
    public enum Conflicts: String, Sendable, CaseIterable {
        /// Store the revision as a conflicting branch, as CouchDB does: 201, and the
        /// document has both leaves (the default of a listener serving a
        /// ``ListenerDatabaseFolder``, which CouchDB clients talk to).
        case keep
        /// Refuse the revision with 409 `conflict`, as Couchbase Lite's listener does (the
        /// default of a listener serving collections, which mirrors Couchbase Lite's).
        /// A tombstone closing a branch and a revision the document already has are taken.
        case refuse
    }
}
