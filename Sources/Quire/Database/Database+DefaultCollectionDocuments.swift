import Dispatch
import Foundation

/// Couchbase Lite 2.x's database-level document API, which Couchbase Lite 3.x still ships as
/// deprecated wrappers over the default collection, so that code written for it (the
/// tutorials among it) ports with few changes. Each names the collection call to use instead.
extension Database {
    /// The number of live documents in the default collection.
    @available(*, deprecated, message: "Use database.defaultCollection().count instead.")
    public var count: UInt64 {
        (try? defaultCollection().count) ?? 0
    }

    /// The document `id` of the default collection, or nil when it does not exist, is
    /// deleted, or cannot be read (Couchbase Lite's version cannot throw either).
    @available(*, deprecated, message: "Use database.defaultCollection().document(id:) instead.")
    public func document(withID id: String) -> Document? {
        try? defaultCollection().document(id: id)
    }

    /// Saves `document` in the default collection; last write wins.
    ///
    /// - Throws: as ``Collection/save(document:)``.
    @available(*, deprecated, message: "Use database.defaultCollection().save(document:) instead.")
    public func saveDocument(_ document: MutableDocument) throws {
        try defaultCollection().save(document: document)
    }

    /// Saves `document` in the default collection with `concurrencyControl`; false when it
    /// lost to a concurrent change.
    ///
    /// - Throws: as ``Collection/save(document:concurrencyControl:)``.
    @available(*, deprecated, message: "Use database.defaultCollection().save(document:concurrencyControl:) instead.")
    @discardableResult
    public func saveDocument(_ document: MutableDocument, concurrencyControl: ConcurrencyControl) throws -> Bool {
        try defaultCollection().save(document: document, concurrencyControl: concurrencyControl)
    }

    /// Saves `document` in the default collection, calling `conflictHandler` on a conflict.
    ///
    /// - Throws: as ``Collection/save(document:conflictHandler:)``.
    @available(*, deprecated, message: "Use database.defaultCollection().save(document:conflictHandler:) instead.")
    @discardableResult
    public func saveDocument(
        _ document: MutableDocument, conflictHandler: (MutableDocument, Document?) throws -> Bool
    ) throws -> Bool {
        try defaultCollection().save(document: document, conflictHandler: conflictHandler)
    }

    /// Deletes `document` from the default collection.
    ///
    /// - Throws: as ``Collection/delete(document:)``.
    @available(*, deprecated, message: "Use database.defaultCollection().delete(document:) instead.")
    public func deleteDocument(_ document: Document) throws {
        try defaultCollection().delete(document: document)
    }

    /// Deletes `document` from the default collection with `concurrencyControl`.
    ///
    /// - Throws: as ``Collection/delete(document:concurrencyControl:)``.
    @available(*, deprecated, message: "Use database.defaultCollection().delete(document:concurrencyControl:) instead.")
    @discardableResult
    public func deleteDocument(_ document: Document, concurrencyControl: ConcurrencyControl) throws -> Bool {
        try defaultCollection().delete(document: document, concurrencyControl: concurrencyControl)
    }

    /// Purges `document` from the default collection.
    ///
    /// - Throws: as ``Collection/purge(document:)``.
    @available(*, deprecated, message: "Use database.defaultCollection().purge(document:) instead.")
    public func purgeDocument(_ document: Document) throws {
        try defaultCollection().purge(document: document)
    }

    /// Purges the document `documentID` from the default collection.
    ///
    /// - Throws: as ``Collection/purge(id:)``.
    @available(*, deprecated, message: "Use database.defaultCollection().purge(id:) instead.")
    public func purgeDocument(withID documentID: String) throws {
        try defaultCollection().purge(id: documentID)
    }

    /// Sets when the document `documentID` of the default collection expires.
    ///
    /// - Throws: as ``Collection/setDocumentExpiration(id:expiration:)``.
    @available(
        *, deprecated, message: "Use database.defaultCollection().setDocumentExpiration(id:expiration:) instead."
    )
    public func setDocumentExpiration(withID documentID: String, expiration: Date?) throws {
        try defaultCollection().setDocumentExpiration(id: documentID, expiration: expiration)
    }

    /// When the document `documentID` of the default collection expires, or nil.
    @available(*, deprecated, message: "Use database.defaultCollection().getDocumentExpiration(id:) instead.")
    public func getDocumentExpiration(withID documentID: String) -> Date? {
        try? defaultCollection().getDocumentExpiration(id: documentID)
    }

    /// Calls `listener` after every transaction that changed documents of the default
    /// collection. A database that cannot be opened gives a token that hears nothing.
    @available(*, deprecated, message: "Use database.defaultCollection().addChangeListener(queue:listener:) instead.")
    @discardableResult
    public func addChangeListener(
        queue: DispatchQueue? = nil, listener: @escaping @Sendable (DatabaseChange) -> Void
    ) -> ListenerToken {
        let database = self
        guard let collection = try? defaultCollection() else { return ListenerToken.inert }
        return collection.addChangeListener(queue: queue) { change in
            listener(DatabaseChange(database: database, documentIDs: change.documentIDs))
        }
    }

    /// Calls `listener` after every transaction that changed the document `id` of the
    /// default collection.
    @available(
        *, deprecated,
        message: "Use database.defaultCollection().addDocumentChangeListener(id:queue:listener:) instead."
    )
    @discardableResult
    public func addDocumentChangeListener(
        withID id: String, queue: DispatchQueue? = nil, listener: @escaping @Sendable (DocumentChange) -> Void
    ) -> ListenerToken {
        guard let collection = try? defaultCollection() else { return ListenerToken.inert }
        return collection.addDocumentChangeListener(id: id, queue: queue, listener: listener)
    }
}
