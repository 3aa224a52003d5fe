extension Connection {
    // Collection sequences.
    //
    // A collection's last sequence is the larger of `quire_collections.last_sequence` (a floor)
    // and the highest `sequence` in its table (found at once through the unique index). Saves
    // therefore write only their own row: the catalog's page stays out of every commit. What
    // removes rows (purge, expiration) raises the floor first with ``keepSequence(...)``, so a
    // number handed out is never handed out again.
    //
    // Inside ``transaction(_:)`` (every `write`), the last committed sequences are kept in
    // memory and carried from one transaction to the next while `PRAGMA data_version` says
    // that no other connection (another process) has committed since they were read: a save in
    // a transaction of its own then reads nothing to number itself. Numbers handed out count
    // as committed only once written and committed (``noteSequenceWritten(...)``), so a save
    // that fails or finds a conflict leaves no gap.

    /// Hands out the next sequence number of collection `collectionID`, whose documents are in
    /// `table`, or nil when the collection is not in the catalog.
    func nextSequence(collectionID: Int64, table: String) throws -> UInt64? {
        guard isManagingTransaction else {
            // Each statement commits on its own: move the floor in the same statement.
            knownSequences.removeAll()
            let next = try scalarInt(
                """
                UPDATE quire_collections
                SET last_sequence = max(last_sequence, (SELECT coalesce(max(sequence), 0) FROM \(table))) + 1
                WHERE id = ? RETURNING last_sequence
                """, [.integer(collectionID)])
            return next.map { UInt64($0) }
        }
        guard let current = try lastSequence(collectionID: collectionID, table: table) else { return nil }
        pendingSequences[collectionID] = current + 1
        return current + 1
    }

    /// Records that a row of `collectionID` was written with `sequence` in the open transaction.
    func noteSequenceWritten(collectionID: Int64, sequence: UInt64) {
        writtenSequences[collectionID] = max(writtenSequences[collectionID] ?? 0, sequence)
    }

    /// The last sequence handed out for `collectionID`, including numbers of the open
    /// transaction; nil when the collection is not in the catalog.
    func lastSequence(collectionID: Int64, table: String) throws -> UInt64? {
        if isManagingTransaction {
            if let pending = pendingSequences[collectionID] { return pending }
            try checkKnownSequences()
            if let known = knownSequences[collectionID] { return known }
        }
        guard
            let floor = try scalarInt(
                "SELECT last_sequence FROM quire_collections WHERE id = ?", [.integer(collectionID)])
        else { return nil }
        // max() on the indexed column is one step to the index's last entry.
        let highest = try scalarInt("SELECT max(sequence) FROM \(table)") ?? 0
        let last = UInt64(max(floor, highest, 0))
        if isManagingTransaction { knownSequences[collectionID] = last }
        return last
    }

    /// After a commit: what the transaction wrote is now the last committed sequence.
    func commitWrittenSequences() {
        for (collectionID, sequence) in writtenSequences {
            knownSequences[collectionID] = max(knownSequences[collectionID] ?? 0, sequence)
        }
    }

    /// Forgets the counters if another connection committed since they were read; once per
    /// transaction (no other writer can commit while this one writes, and a reader's snapshot
    /// does not move).
    private func checkKnownSequences() throws {
        guard !knownSequencesChecked else { return }
        let statement = try cachedStatement(StatementKey.dataVersion)
        defer { statement.reset() }
        let version = try statement.step() ? statement.int64(at: 0) : -1
        if version != knownDataVersion {
            knownSequences.removeAll()
            knownDataVersion = version
        }
        knownSequencesChecked = true
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
