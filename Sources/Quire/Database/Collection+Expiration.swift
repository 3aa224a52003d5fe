import Foundation

extension Collection {
    /// Sets when the document `id` expires (nil removes the expiration). A later or earlier
    /// date replaces the previous one; deleted documents can expire too. When the time comes
    /// the document is purged: no tombstone, never replicated. notFound when there is no
    /// such document.
    ///
    /// - Throws: ``QuireError/Code/notFound`` when there is no such document;
    ///   ``QuireError/Code/notOpen`` for a deleted collection or a closed database.
    public func setDocumentExpiration(id: String, expiration: Date?) throws {
        try DocumentRules.validate(id: id)
        let milliseconds = expiration.map { EpochMilliseconds.of($0) }
        try writing { connection in
            try connection.run(
                "UPDATE \(table) SET expiration = ? WHERE key = ?", [.integer(milliseconds), .text(id)])
            guard connection.changes > 0 else {
                throw QuireError(.notFound, "document '\(id)' not found in \(fullName)")
            }
        }
        database.core.startHousekeeping(clock: database.config.clock)
        database.core.housekeeper?.rearm()
        if let milliseconds, let keeper = database.core.housekeeper, milliseconds <= keeper.nowMilliseconds {
            keeper.purgeExpired()
        }
    }

    /// When the document `id` expires, or nil when it has no expiration or does not exist.
    ///
    /// - Throws: ``QuireError/Code/notOpen`` for a deleted collection or a closed database.
    public func getDocumentExpiration(id: String) throws -> Date? {
        try DocumentRules.validate(id: id)
        let milliseconds = try reading { connection in
            try connection.scalarInt("SELECT expiration FROM \(table) WHERE key = ?", [.text(id)])
        }
        return milliseconds.map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
}
