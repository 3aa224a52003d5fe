import CQuireFTS

/// How a document table stores revision IDs (schema version 6): one of Quire's own form,
/// `<generation>-<40 hex digits>`, as a blob of the generation (a varint) and the 20 digest
/// bytes, 21 to 25 bytes where the text takes 42 to 51; any other (from a CouchDB peer,
/// `new_edits=false`) as the text it is. Reading gives back exactly the text that was
/// written, so everything above the table (the save's conflict check, replication, the
/// listener) sees the same strings as before. `quire_revid(revid)` is the same reading in
/// SQL, for queries of `meta().revisionID`. `quire_leaves` keeps its text: its rows are few
/// and its key orders by revision ID.
enum StoredRevisionID {
    /// Calls `body` with the bytes to store for `revisionID` and whether they are the packed
    /// blob (else its UTF-8 text).
    @inline(__always)
    static func withStoredBytes<T>(
        _ revisionID: String, _ body: (UnsafeRawBufferPointer, _ isPacked: Bool) throws -> T
    ) rethrows -> T {
        var text = revisionID
        return try text.withUTF8 { text in
            // Room for QUIRE_REVID_PACKED_MAX (25) bytes.
            var packed: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            return try withUnsafeMutableBytes(of: &packed) { buffer in
                let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let count = Int(quire_revid_pack(text.baseAddress, text.count, base))
                if count > 0 { return try body(UnsafeRawBufferPointer(start: base, count: count), true) }
                return try body(UnsafeRawBufferPointer(text), false)
            }
        }
    }

    /// The value to bind for `revisionID`, where statements take a list of values.
    static func value(_ revisionID: String) -> SQLiteValue {
        withStoredBytes(revisionID) { bytes, isPacked in
            isPacked ? .blob(Array(bytes)) : .text(revisionID)
        }
    }

    /// Calls `body` with the text of the revision ID in column `index` of `statement`'s row:
    /// a packed blob unpacked, text as it is (empty for NULL).
    /// ``QuireError/Code/corruptRevisionData`` for a blob that is not a packed revision ID.
    @inline(__always)
    static func withText<T>(
        of statement: Statement, at index: Int32, _ body: (UnsafeRawBufferPointer) throws -> T
    ) throws -> T {
        try statement.withUnsafeBytes(at: index) { stored in
            guard statement.isBlob(at: index) else { return try body(stored) }
            // Room for QUIRE_REVID_TEXT_MAX (51) bytes.
            var text: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0)
            return try withUnsafeMutableBytes(of: &text) { buffer in
                let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let source = stored.baseAddress?.assumingMemoryBound(to: UInt8.self)
                let count = Int(quire_revid_unpack(source, stored.count, base))
                guard count > 0 else {
                    throw QuireError(
                        .corruptRevisionData,
                        "a stored revision ID is a blob of \(stored.count) bytes that is not a packed revision ID")
                }
                return try body(UnsafeRawBufferPointer(start: base, count: count))
            }
        }
    }
}

extension Statement {
    /// Binds a revision ID as a document table stores it (``StoredRevisionID``); SQLite copies
    /// the bytes.
    func bind(revisionID: String, at index: Int32) throws {
        try StoredRevisionID.withStoredBytes(revisionID) { bytes, isPacked in
            if isPacked { try bind(blobBuffer: bytes, at: index) } else { try bind(utf8Buffer: bytes, at: index) }
        }
    }

    /// Binds bytes from ``StoredRevisionID/withStoredBytes(_:_:)`` that SQLite reads in place
    /// (`SQLITE_STATIC`): they must stay valid until the statement has run and its bindings
    /// are cleared.
    func bindInPlace(storedRevisionID bytes: UnsafeRawBufferPointer, isPacked: Bool, at index: Int32) throws {
        if isPacked { try bindBlobInPlace(bytes, at: index) } else { try bindTextInPlace(bytes, at: index) }
    }

    /// The revision ID a document table stores in column `index` of the current row (empty
    /// for NULL). ``QuireError/Code/corruptRevisionData`` for a blob that is not a packed
    /// revision ID.
    func revisionID(at index: Int32) throws -> String {
        try StoredRevisionID.withText(of: self, at: index) { String(decoding: $0, as: UTF8.self) }
    }
}
