extension Connection {
    /// Hands out the next sequence number of collection `collectionID`, or nil when the
    /// collection is not in the catalog.
    ///
    /// Inside ``transaction(_:)`` (every `write`), the counter is read from `quire_collections`
    /// once, counted in memory, and written back once just before the commit, in the same
    /// transaction: a batch of saves costs one catalog update instead of one per save, and a
    /// rollback discards the counter with everything else. A savepoint rolled back inside the
    /// transaction leaves its numbers unused, a gap that sequence readers already allow for.
    /// Outside a managed transaction, each call updates the catalog directly.
    func nextSequence(collectionID: Int64) throws -> UInt64? {
        guard isManagingTransaction else {
            let next = try scalarInt(
                "UPDATE quire_collections SET last_sequence = last_sequence + 1 WHERE id = ? RETURNING last_sequence",
                [.integer(collectionID)])
            return next.map { UInt64($0) }
        }
        let current: UInt64
        if let pending = pendingSequences[collectionID] {
            current = pending
        } else if let stored = try scalarInt(
            "SELECT last_sequence FROM quire_collections WHERE id = ?", [.integer(collectionID)])
        {
            current = UInt64(stored)
        } else {
            return nil
        }
        pendingSequences[collectionID] = current + 1
        return current + 1
    }

    /// The last sequence handed out for `collectionID`, including numbers of the open
    /// transaction not yet written back; nil when the collection is not in the catalog.
    func lastSequence(collectionID: Int64) throws -> UInt64? {
        if let pending = pendingSequences[collectionID] { return pending }
        return try scalarInt("SELECT last_sequence FROM quire_collections WHERE id = ?", [.integer(collectionID)])
            .map { UInt64($0) }
    }

    /// Writes the counters of the open transaction back to the catalog (before its commit).
    func writePendingSequences() throws {
        for (collectionID, sequence) in pendingSequences {
            try run(
                "UPDATE quire_collections SET last_sequence = ? WHERE id = ?",
                [.integer(Int64(sequence)), .integer(collectionID)])
        }
        pendingSequences.removeAll(keepingCapacity: true)
    }
}
