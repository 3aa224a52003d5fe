extension Step {
    /// What a conflict handler does when `save: {object: d1, conflictHandler: ...}` meets a
    /// newer revision (Couchbase Lite's `save(document:conflictHandler:)`, whose handler gets
    /// the document being saved and the stored one, nil when it was deleted).
    public enum ConflictChoice: Sendable, Hashable {
        /// Saves the held document as it is (the handler returns true).
        case keepMine
        /// Takes the stored document's properties and saves them (returns true); when the
        /// stored document is deleted, keeps the deletion (returns false).
        case keepTheirs
        /// Copies these keys' values from the stored document into the held one, then saves it
        /// (returns true): DatabaseTest.testConflictResolution keeps the stored `nickName`.
        case merge(keys: [String])
        /// Saves nothing (the handler returns false); the save reports `saved: false`.
        case cancel
    }
}
