import Dispatch

extension Collection {
    /// Calls `listener` after every transaction that changed documents of this collection,
    /// through any `Database` object on the same file, with the changed IDs. Calls arrive on
    /// `queue` (a private serial queue when nil) in commit order. A listener hears of the
    /// changes made after it was added: one added inside an open transaction is told of that
    /// transaction's later changes only.
    @discardableResult
    public func addChangeListener(
        queue: DispatchQueue? = nil, listener: @escaping @Sendable (CollectionChange) -> Void
    ) -> ListenerToken {
        let collection = self
        return database.core.changes.add(
            collectionID: id, documentID: nil, owner: ObjectIdentifier(database), queue: queue
        ) { ids in
            listener(CollectionChange(collection: collection, documentIDs: ids))
        }
    }

    /// Calls `listener` after every transaction that changed the document `id`.
    @discardableResult
    public func addDocumentChangeListener(
        id documentID: String, queue: DispatchQueue? = nil, listener: @escaping @Sendable (DocumentChange) -> Void
    ) -> ListenerToken {
        let collection = self
        return database.core.changes.add(
            collectionID: id, documentID: documentID, owner: ObjectIdentifier(database), queue: queue
        ) { ids in
            listener(DocumentChange(collection: collection, documentID: ids[0]))
        }
    }
}
