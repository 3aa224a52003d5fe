extension Connection {
    // Collection sequences.
    //
    // A collection's last sequence is the larger of `quire_collections.last_sequence` (a floor)
    // and the highest `sequence` in its table (found at once through the unique index). Saves
    // therefore write only their own row: the catalog's page stays out of every commit. What
    // removes rows (purge, expiration) raises the floor first with ``keepSequence(...)``, so a
    // number handed out is never handed out again.
    //
    // Inside ``transaction(_:)`` (every `write`), the counter is read once per collection and
    // then counted in memory. A savepoint rolled back inside the transaction leaves its numbers
    // unused, a gap that sequence readers already allow for.

    /// Hands out the next sequence number of collection `collectionID`, whose documents are in
    /// `table`, or nil when the collection is not in the catalog.
    func nextSequence(collectionID: Int64, table: String) throws -> UInt64? {
        guard isManagingTransaction else {
            // Each statement commits on its own: move the floor in the same statement.
            let next = try scalarInt(
                """
                UPDATE quire_collections
                SET last_sequence = max(last_sequence, (SELECT coalesce(max(sequence), 0) FROM \(table))) + 1
                WHERE id = ? RETURNING last_sequence
                """, [.integer(collectionID)])
            return next.map { UInt64($0) }
        }
        let current: UInt64
        if let pending = pendingSequences[collectionID] {
            current = pending
        } else if let stored = try lastSequence(collectionID: collectionID, table: table) {
            current = stored
        } else {
            return nil
        }
        pendingSequences[collectionID] = current + 1
        return current + 1
    }

    /// The last sequence handed out for `collectionID`, including numbers of the open
    /// transaction; nil when the collection is not in the catalog.
    func lastSequence(collectionID: Int64, table: String) throws -> UInt64? {
        if let pending = pendingSequences[collectionID] { return pending }
        guard let floor = try scalarInt("SELECT last_sequence FROM quire_collections WHERE id = ?", [.integer(collectionID)])
        else { return nil }
        // max() on the indexed column is one step to the index's last entry.
        let highest = try scalarInt("SELECT max(sequence) FROM \(table)") ?? 0
        return UInt64(max(floor, highest, 0))
    }

    /// Raises the floor to the last sequence handed out; call before deleting document rows,
    /// which may hold the highest sequence.
    func keepSequence(collectionID: Int64, table: String) throws {
        guard let last = try lastSequence(collectionID: collectionID, table: table) else { return }
        try run(
            "UPDATE quire_collections SET last_sequence = max(last_sequence, ?) WHERE id = ?",
            [.integer(Int64(last)), .integer(collectionID)])
    }
}
