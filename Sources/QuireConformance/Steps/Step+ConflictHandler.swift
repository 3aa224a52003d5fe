extension Step {
    /// What a conflict handler does when `save: {object: d1, conflictHandler: ...}` meets a
    /// newer revision (Couchbase Lite's `save(document:conflictHandler:)`, whose handler gets
    /// the document being saved and the stored one, nil when it was deleted).
    package enum ConflictChoice: Sendable, Hashable {
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
        /// A handler written out step by step (returns true); see ``ConflictScript``.
        case script(ConflictScript)
    }

    /// What a scripted conflict handler does on each call, in this order: on its first call
    /// only, saves the stored document with `firstCallSaves` set, as another writer would
    /// (DatabaseTest.testConflictHandlerCalledTwice), so the store must call it again; copies
    /// the `merge` keys from the stored document; adds every key the stored document has and
    /// the held one lacks when `addTheirs`; sets `set`; returns true.
    package struct ConflictScript: Sendable, Hashable {
        /// Keys whose values are taken from the stored document (removed where it lacks them).
        package var merge: [String]
        /// Adds the stored document's keys that the held document lacks.
        package var addTheirs: Bool
        /// Properties set on the held document last.
        package var set: [String: SpecValue]
        /// Properties saved into the stored document on the first call, before deciding.
        package var firstCallSaves: [String: SpecValue]

        /// Makes a script.
        package init(
            merge: [String] = [], addTheirs: Bool = false, set: [String: SpecValue] = [:],
            firstCallSaves: [String: SpecValue] = [:]
        ) {
            self.merge = merge
            self.addTheirs = addTheirs
            self.set = set
            self.firstCallSaves = firstCallSaves
        }
    }
}
