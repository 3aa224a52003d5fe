import Dispatch
import Foundation

/// The changes one transaction made to one collection, delivered to collection listeners.
public struct CollectionChange: Sendable {
    /// The collection the listener was added to.
    public let collection: Collection
    /// The IDs of the documents saved, deleted, purged or expired, in the order the
    /// transaction first touched them.
    public let documentIDs: [String]
}

/// A change to one document, delivered to document listeners.
public struct DocumentChange: Sendable {
    /// The collection the listener was added to.
    public let collection: Collection
    /// The document that changed.
    public let documentID: String
}

/// Identifies a listener; pass it to ``remove()`` to stop notifications.
public final class ListenerToken: Sendable, Hashable {
    let id: UUID
    private let hub: ChangeHub

    init(id: UUID, hub: ChangeHub) {
        self.id = id
        self.hub = hub
    }

    /// Stops the listener; nothing is delivered to it afterwards.
    public func remove() {
        hub.remove(id)
    }

    /// Tokens are equal when they identify the same listener.
    public static func == (lhs: ListenerToken, rhs: ListenerToken) -> Bool { lhs.id == rhs.id }

    /// Hashes the listener's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// One document changed by a transaction.
struct ChangeRecord: Sendable {
    let collectionID: Int64
    let documentID: String
}

/// The listeners of one file, shared by every `Database` object on it, so a change made
/// through any object reaches listeners added through any other.
///
/// Delivery happens on each listener's queue, enqueued while the committing thread still
/// holds the writer, so listeners see transactions in commit order. A removed listener is
/// marked inactive before it leaves the table, and the flag is checked on the queue, so a
/// notification already queued is dropped rather than delivered after removal. Removal
/// waits for a delivery already running on another thread, so once `remove()` or `close()`
/// returns the listener is never running; a listener may remove itself from its own call.
final class ChangeHub: @unchecked Sendable {
    private final class Entry: @unchecked Sendable {
        let collectionIDs: Set<Int64>
        let documentID: String?
        let owner: ObjectIdentifier
        let queue: DispatchQueue
        let deliver: @Sendable ([String]) -> Void
        let onRemove: (@Sendable () -> Void)?
        /// Held while the listener runs, so that deactivating from another thread waits for
        /// it; recursive, so that a listener can remove itself.
        private let lock = NSRecursiveLock()
        private var active = true

        init(
            collectionIDs: Set<Int64>, documentID: String?, owner: ObjectIdentifier, queue: DispatchQueue,
            deliver: @escaping @Sendable ([String]) -> Void, onRemove: (@Sendable () -> Void)?
        ) {
            self.collectionIDs = collectionIDs
            self.documentID = documentID
            self.owner = owner
            self.queue = queue
            self.deliver = deliver
            self.onRemove = onRemove
        }

        /// Runs the listener unless it was removed first.
        func deliverIfActive(_ ids: [String]) {
            lock.withLock {
                if active { deliver(ids) }
            }
        }

        func deactivate() {
            lock.withLock { active = false }
            onRemove?()
        }
    }

    private let lock = NSLock()
    private var entries: [UUID: Entry] = [:]

    var count: Int { lock.withLock { entries.count } }

    func add(
        collectionID: Int64, documentID: String?, owner: ObjectIdentifier, queue: DispatchQueue?,
        deliver: @escaping @Sendable ([String]) -> Void
    ) -> ListenerToken {
        add(collectionIDs: [collectionID], documentID: documentID, owner: owner, queue: queue, deliver: deliver)
    }

    /// Adds a listener for changes to any of `collectionIDs` (live queries read several);
    /// `onRemove` runs once the listener is removed, by its token or by closing its database.
    func add(
        collectionIDs: Set<Int64>, documentID: String?, owner: ObjectIdentifier, queue: DispatchQueue?,
        deliver: @escaping @Sendable ([String]) -> Void, onRemove: (@Sendable () -> Void)? = nil
    ) -> ListenerToken {
        let id = UUID()
        let entry = Entry(
            collectionIDs: collectionIDs, documentID: documentID, owner: owner,
            queue: queue ?? DispatchQueue(label: "quire.listener.\(id.uuidString.prefix(8))"), deliver: deliver,
            onRemove: onRemove)
        lock.withLock { entries[id] = entry }
        return ListenerToken(id: id, hub: self)
    }

    func remove(_ id: UUID) {
        let entry = lock.withLock { entries.removeValue(forKey: id) }
        entry?.deactivate()
    }

    /// Removes every listener added through one `Database` object.
    func removeAll(ownedBy owner: ObjectIdentifier) {
        let removed = lock.withLock {
            let ids = entries.filter { $0.value.owner == owner }.map(\.key)
            return ids.compactMap { entries.removeValue(forKey: $0) }
        }
        removed.forEach { $0.deactivate() }
    }

    /// Delivers one committed transaction's changes.
    func publish(_ records: [ChangeRecord]) {
        guard !records.isEmpty else { return }
        let listeners = lock.withLock { Array(entries.values) }
        guard !listeners.isEmpty else { return }
        var byCollection: [Int64: [String]] = [:]
        var seen = Set<String>()
        for record in records where seen.insert("\(record.collectionID)/\(record.documentID)").inserted {
            byCollection[record.collectionID, default: []].append(record.documentID)
        }
        for entry in listeners {
            let ids = entry.collectionIDs.sorted().flatMap { byCollection[$0] ?? [] }
            guard !ids.isEmpty else { continue }
            let delivered: [String]
            if let documentID = entry.documentID {
                guard ids.contains(documentID) else { continue }
                delivered = [documentID]
            } else {
                delivered = ids
            }
            entry.queue.async { entry.deliverIfActive(delivered) }
        }
    }
}

extension Collection {
    /// Calls `listener` after every transaction that changed documents of this collection,
    /// through any `Database` object on the same file, with the changed IDs. Calls arrive on
    /// `queue` (a private serial queue when nil) in commit order.
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
