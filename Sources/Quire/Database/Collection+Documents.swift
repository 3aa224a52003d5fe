import Foundation

extension Collection {
    private struct StoredRow {
        let sequence: UInt64
        let flags: Int64
        let revisionID: String
        let history: String
        var isDeleted: Bool { flags & DocumentFlags.deleted != 0 }
    }

    // MARK: Reading

    /// The document with `id`, or nil when it does not exist or is deleted.
    ///
    /// - Throws: ``QuireError/Code/badDocID`` for an invalid ID; ``QuireError/Code/notOpen``
    ///   for a deleted collection or a closed database; ``QuireError/Code/corruptRevisionData``
    ///   when the stored body is not a JSON object.
    public func document(id: String) throws -> Document? {
        try DocumentRules.validate(id: id)
        // One SELECT, whose row is copied out. The ID is bound in place (SQLite does not copy
        // it), so the statement runs and its bindings are cleared while the ID's bytes are at
        // hand. A reader then keeps the read open until its next use (`leaveReadOpen`), which
        // lets two reading threads share their WAL reader slot.
        var key = id
        return try reading(singleStatement: true) { connection in
            try key.withUTF8 { key in
                let statement = try connection.preparedStatement(sql.selectDocument)
                defer { connection.leaveReadOpen(statement) }
                try statement.bindTextInPlace(UnsafeRawBufferPointer(key), at: 1)
                guard try statement.step(), statement.int64(at: 1) & DocumentFlags.deleted == 0 else { return nil }
                // Copied out, read by path: a reader of one property parses only what it reads.
                // The revision ID rides in the body's allocation, made a string only when asked.
                // The stored form, read as it is (``StoredJSON``).
                let body = try statement.withUnsafeBytes(at: 3) { text in
                    try StoredRevisionID.withText(of: statement, at: 2) { revisionID in
                        StoredJSON.make(
                            copying: text, revisionID: statement.isNull(at: 2) ? nil : revisionID,
                            blobStore: database.blobStore)
                    }
                }
                var start = 0
                while body.isWhitespace(at: start) { start += 1 }
                guard body.byte(at: start) == UInt8(ascii: "{") else {
                    throw QuireError(
                        .corruptRevisionData, "stored body of document '\(id)' in \(fullName) is not a JSON object")
                }
                return Document(
                    id: id, revisionOf: body, sequence: UInt64(statement.int64(at: 0)), collection: self,
                    content: DictionaryObject(stored: body, at: start))
            }
        }
    }

    /// Facts about the stored revision of `id`, also for a deleted document; nil when there is
    /// no trace of it (never saved, or purged).
    ///
    /// - Throws: ``QuireError/Code/badDocID`` for an invalid ID; ``QuireError/Code/notOpen``
    ///   for a deleted collection or a closed database.
    package func revisionInfo(id: String) throws -> RevisionInfo? {
        try DocumentRules.validate(id: id)
        return try reading { connection in
            try storedRow(connection, id: id).map {
                RevisionInfo(
                    id: id, revisionID: $0.revisionID, sequence: $0.sequence, isDeleted: $0.isDeleted,
                    history: $0.history.isEmpty ? [] : $0.history.split(separator: ",").map(String.init))
            }
        }
    }

    // MARK: Saving

    /// Saves `document` as the next revision; last write wins.
    ///
    /// - Throws: ``QuireError/Code/badDocID`` for an invalid document ID;
    ///   ``QuireError/Code/corruptRevisionData`` for `_id`, `_rev` or `_deleted` at the top level
    ///   of the body; ``QuireError/Code/invalidParameter`` for a document of another collection,
    ///   database or `Database` object (even on the same file), or a value with no JSON form;
    ///   ``QuireError/Code/notFound`` for a document object whose document was purged since it
    ///   was read or saved; ``QuireError/Code/badRevisionID`` when the document is at the highest
    ///   generation; ``QuireError/Code/notOpen`` for a deleted collection or a closed database.
    public func save(document: MutableDocument) throws {
        _ = try save(document: document, concurrencyControl: .lastWriteWins)
    }

    /// Saves `document`; with `.failOnConflict`, returns false and changes nothing when the
    /// stored document changed since `document` was read.
    ///
    /// - Throws: as ``save(document:)``; a conflict under `.failOnConflict` is `false`, not an
    ///   error.
    @discardableResult
    public func save(document: MutableDocument, concurrencyControl: ConcurrencyControl) throws -> Bool {
        try store(document, deleting: false, control: concurrencyControl, conflictHandler: nil)
    }

    /// Saves `document`; on a conflict, calls `conflictHandler` with the document being saved
    /// (which it may change) and the stored one (nil when deleted). Returning true saves the
    /// handler's version on top of the stored one; false cancels and returns false. A handler
    /// that saves the document itself is called again, with what it saved.
    ///
    /// - Throws: as ``save(document:)``, and whatever `conflictHandler` throws (nothing is
    ///   saved then).
    @discardableResult
    public func save(
        document: MutableDocument, conflictHandler: (MutableDocument, Document?) throws -> Bool
    ) throws -> Bool {
        try withoutActuallyEscaping(conflictHandler) { handler in
            try store(document, deleting: false, control: nil, conflictHandler: handler)
        }
    }

    // MARK: Deleting and purging

    /// Deletes the document: a tombstone revision replaces it (replication carries it).
    /// notFound for a document that was never saved or was purged; deleting a document
    /// object again writes another tombstone, with a new sequence.
    ///
    /// - Throws: ``QuireError/Code/notFound`` for a document never saved or purged;
    ///   ``QuireError/Code/invalidParameter`` for a document of another collection or database;
    ///   ``QuireError/Code/notOpen`` for a deleted collection or a closed database.
    public func delete(document: Document) throws {
        _ = try delete(document: document, concurrencyControl: .lastWriteWins)
    }

    /// Deletes the document; with `.failOnConflict`, returns false when the stored document
    /// changed since `document` was read.
    ///
    /// - Throws: as ``delete(document:)``; a conflict under `.failOnConflict` is `false`, not an
    ///   error.
    @discardableResult
    public func delete(document: Document, concurrencyControl: ConcurrencyControl) throws -> Bool {
        let mutable = (document as? MutableDocument) ?? document.toMutable()
        let result = try store(mutable, deleting: true, control: concurrencyControl, conflictHandler: nil)
        if result, mutable !== document {
            document.updateMetadata(
                revisionID: mutable.revisionID, sequence: mutable.sequence, collection: document.collection,
                isDeleted: true)
        }
        return result
    }

    /// Removes every trace of the document, without a tombstone; never replicated.
    ///
    /// - Throws: ``QuireError/Code/notFound`` for a document never saved or already purged;
    ///   ``QuireError/Code/invalidParameter`` for a document of another collection or another
    ///   `Database` object; ``QuireError/Code/notOpen`` for a deleted collection or a closed
    ///   database.
    public func purge(document: Document) throws {
        try checkOwnership(of: document)
        guard document.revisionID != nil else { try refuseNeverSaved(document, "purged") }
        try purge(id: document.id)
    }

    /// Removes every trace of the document `id`; notFound when there is none.
    ///
    /// - Throws: ``QuireError/Code/notFound`` when there is no such document;
    ///   ``QuireError/Code/badDocID`` for an invalid ID; ``QuireError/Code/notOpen`` for a
    ///   deleted collection or a closed database.
    public func purge(id: String) throws {
        try DocumentRules.validate(id: id)
        try writing { connection in
            try connection.keepSequence(collectionID: self.id, table: table)
            try connection.run("DELETE FROM \(table) WHERE key = ?", [.text(id)])
            guard connection.changes > 0 else {
                throw QuireError(.notFound, "document '\(id)' not found in \(fullName)")
            }
            try connection.run(
                "DELETE FROM quire_leaves WHERE collection_id = ? AND key = ?", [.integer(self.id), .text(id)])
            try connection.run(
                "UPDATE quire_collections SET purge_count = purge_count + 1 WHERE id = ?", [.integer(self.id)])
            database.core.recordChange(collectionID: self.id, documentID: id)
        }
    }

    // MARK: The write path

    private func storedRow(_ connection: Connection, id: String) throws -> StoredRow? {
        let statement = try connection.cachedStatement(sql.selectStoredRow)
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        guard try statement.step() else { return nil }
        return StoredRow(
            sequence: UInt64(statement.int64(at: 0)), flags: statement.int64(at: 1),
            revisionID: try statement.revisionID(at: 2), history: statement.text(at: 3) ?? "")
    }

    /// A document object never saved cannot be deleted or purged: notFound, once a closed
    /// database or a deleted collection has been named (notOpen), as Couchbase Lite checks
    /// that the database is open before it looks at the document.
    private func refuseNeverSaved(_ document: Document, _ verb: String) throws -> Never {
        try checkExists()
        throw QuireError(.notFound, "document '\(document.id)' was never saved, so it cannot be \(verb)")
    }

    /// A document read or saved through one `Database` object belongs to it: another object's
    /// collection refuses it, even on the same file, as Couchbase Lite refuses a document of
    /// another database instance.
    private func checkOwnership(of document: Document) throws {
        try DocumentRules.validate(id: document.id)
        if let owner = document.collection, owner != self || owner.database !== database {
            if owner.database.core === database.core, owner == self {
                throw QuireError(
                    .invalidParameter,
                    "document '\(document.id)' belongs to another Database object on '\(database.name)'; read it again through this one"
                )
            }
            if owner.database.core !== database.core {
                throw QuireError(
                    .invalidParameter,
                    "document '\(document.id)' belongs to database '\(owner.database.name)'; it cannot be saved in database '\(database.name)'"
                )
            }
            throw QuireError(
                .invalidParameter,
                "document '\(document.id)' belongs to collection \(owner.fullName); it cannot be saved in \(fullName)")
        }
    }

    private func store(
        _ document: MutableDocument, deleting: Bool, control: ConcurrencyControl?,
        conflictHandler: ((MutableDocument, Document?) throws -> Bool)?
    ) throws -> Bool {
        try checkOwnership(of: document)
        if deleting && document.revisionID == nil { try refuseNeverSaved(document, "deleted") }
        // Pins the blobs this save installs until it has committed, so compaction keeps them;
        // made by the first blob to install (most saves have none).
        var lease: BlobLease?
        defer { lease?.release() }
        var bodyBytes = deleting ? CanonicalBody.empty : try prepareBody(of: document, lease: &lease)
        let depth = database.config.maxRevTreeDepth

        // Without a conflict handler (app code that may write too), the only change is one
        // statement, the upsert: the sequence is counted in memory until the commit.
        let outcome: (String, UInt64)? = try writing(singleStatement: conflictHandler == nil) { connection in
            // A document never saved from this object is most often new in the store too:
            // insert it without looking for a stored row first; only a taken key needs the
            // full path below (which keeps the sequence number taken here).
            var reservedSequence: UInt64?
            if !deleting, document.revisionID == nil {
                let sequence = try nextSequence(connection)
                let revisionID = try bodyBytes.withUnsafeBytes {
                    try RevisionID.make(parent: nil, deleted: false, canonicalBody: $0, documentID: document.id)
                }
                let insert = try connection.cachedStatement(sql.insertNew)
                var key = document.id
                // The key, revision ID and body are bound in place: they outlive the statement's
                // run just below, which clears the bindings.
                let inserted = try key.withUTF8 { key in
                    try bodyBytes.withUnsafeBytes { json in
                        try StoredBody.withStoredForm(of: json) { body in
                            try StoredRevisionID.withStoredBytes(revisionID) { revision, isPacked in
                                try insert.bindTextInPlace(UnsafeRawBufferPointer(key), at: 1)
                                try insert.bind(Int64(sequence), at: 2)
                                try insert.bindInPlace(storedRevisionID: revision, isPacked: isPacked, at: 3)
                                try insert.bindTextInPlace(body, at: 4)
                                return try insert.insertUnlessKeyExists()
                            }
                        }
                    }
                }
                if inserted {
                    connection.noteSequenceWritten(collectionID: self.id, sequence: sequence)
                    database.core.recordChange(collectionID: self.id, documentID: document.id)
                    return (revisionID, sequence)
                }
                reservedSequence = sequence
            }
            var stored = try storedRow(connection, id: document.id)
            // Deleting a tombstone again writes a second tombstone over it, as Couchbase
            // Lite's testDeleteSameDocTwice expects; only a purged document is gone.
            if deleting, stored == nil {
                throw QuireError(.notFound, "document '\(document.id)' not found in \(fullName)")
            }
            if stored == nil, document.revisionID != nil {
                // Purged since this object read or saved it: there is no current revision to
                // build on, as Couchbase Lite finds none (DatabaseTest's
                // testConflictHandlerWhenDocumentIsPurged).
                if control == .failOnConflict { return nil }
                throw QuireError(
                    .notFound, "document '\(document.id)' in \(fullName) was purged since this object read it")
            }
            if let found = stored, isConflict(stored: found, document: document) {
                if let conflictHandler {
                    // The handler may write the document itself (another save on this thread
                    // joins this transaction); it is then called again with what it wrote, as
                    // Couchbase Lite calls it again (testConflictHandlerCalledTwice).
                    var given = found
                    while true {
                        let current = given.isDeleted ? nil : try storedDocument(connection, id: document.id)
                        guard try conflictHandler(document, current) else { return nil }
                        bodyBytes = try prepareBody(of: document, lease: &lease)
                        guard let now = try storedRow(connection, id: document.id) else {
                            throw QuireError(
                                .notFound,
                                "document '\(document.id)' in \(fullName) was purged while its conflict handler ran")
                        }
                        if now.revisionID == given.revisionID, now.sequence == given.sequence { break }
                        given = now
                    }
                    stored = given
                } else if control == .failOnConflict {
                    return nil
                }
            }
            let parent = stored?.revisionID
            let revisionID = try bodyBytes.withUnsafeBytes {
                try RevisionID.make(parent: parent, deleted: deleting, canonicalBody: $0, documentID: document.id)
            }
            var history: [Substring] = []
            if let stored {
                history.append(Substring(stored.revisionID))
                if !stored.history.isEmpty { history.append(contentsOf: stored.history.split(separator: ",")) }
            }
            let sequence = try reservedSequence ?? nextSequence(connection)
            let statement = try connection.cachedStatement(sql.upsert)
            try statement.bind(document.id, at: 1)
            try statement.bind(Int64(sequence), at: 2)
            let keptFlags = (stored?.flags ?? 0) & DocumentFlags.conflicted
            try statement.bind((deleting ? DocumentFlags.deleted : 0) | keptFlags, at: 3)
            try statement.bind(revisionID: revisionID, at: 4)
            try bodyBytes.withUnsafeBytes { json in
                try StoredBody.withStoredForm(of: json) { try statement.bind(utf8Buffer: $0, at: 5) }
            }
            try statement.bind(history.prefix(max(0, depth - 1)).joined(separator: ","), at: 6)
            try statement.run()
            connection.noteSequenceWritten(collectionID: self.id, sequence: sequence)
            database.core.recordChange(collectionID: self.id, documentID: document.id)
            return (revisionID, sequence)
        }
        guard let (revisionID, sequence) = outcome else { return false }
        document.updateMetadata(revisionID: revisionID, sequence: sequence, collection: self, isDeleted: deleting)
        return true
    }

    /// The stored document changed since `document` was read (or `document` is new and a live
    /// one exists). A new document over a tombstone is no conflict: it revives the ID.
    private func isConflict(stored: StoredRow, document: Document) -> Bool {
        guard let read = document.revisionID else { return !stored.isDeleted }
        return read != stored.revisionID
    }

    private func storedDocument(_ connection: Connection, id: String) throws -> Document? {
        let statement = try connection.cachedStatement(sql.selectDocument)
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        guard try statement.step(), statement.int64(at: 1) & DocumentFlags.deleted == 0 else { return nil }
        let json = try statement.withUnsafeBytes(at: 3) { try StoredBody.withJSON(of: $0) { try JSONReader.parse($0) } }
        guard case .object(let members) = json else { return nil }
        return Document(
            id: id, revisionID: try statement.revisionID(at: 2), sequence: UInt64(statement.int64(at: 0)),
            isDeleted: false, collection: self, content: DictionaryObject(members, blobStore: database.blobStore))
    }

    private func prepareBody(of document: MutableDocument, lease: inout BlobLease?) throws -> CanonicalBody {
        if let bytes = try document.bodyFromUntouchedJSON() { return bytes }
        var body = try document.body()
        try DocumentRules.checkReservedKeys(body, id: document.id)
        let blobs = document.blobs()
        if !blobs.isEmpty {
            // A blob made from a stream or a file learns its digest and length as it is
            // installed; the body then has to be made again to carry them.
            let staged = blobs.contains { $0.digest == nil }
            let store = database.blobStore
            let pins = lease ?? BlobLease(store: store)
            lease = pins
            for blob in blobs { try blob.install(into: store, lease: pins) }
            if staged { body = try document.body() }
        }
        return .bytes(try JSONWriter.bytes(.object(body)))
    }

    func nextSequence(_ connection: Connection) throws -> UInt64 {
        guard let sequence = try connection.nextSequence(collectionID: id, table: table) else {
            throw QuireError(.notOpen, "collection \(fullName) has been deleted")
        }
        return sequence
    }
}

/// Bits of the `flags` column.
enum DocumentFlags {
    static let deleted: Int64 = 1
    static let conflicted: Int64 = 2
}
