import Dispatch
import Foundation

/// The documents a transaction changed, in order: their IDs, and the collection of each run
/// of consecutive changes (a batch most often writes to one collection), so a change costs
/// its document ID's 16 bytes until the commit publishes it. Kept only while a listener is
/// registered (``ChangeHub/hasListeners``).
struct ChangeLog: Sendable {
    private var documentIDs: [String] = []
    /// The collection of each run of changes and the index of its first document ID.
    private var runs: [CollectionRun] = []

    private struct CollectionRun: Sendable {
        let collectionID: Int64
        let start: Int
    }

    /// The number of changes recorded.
    var count: Int { documentIDs.count }

    /// Records that the document `documentID` of collection `collectionID` changed.
    mutating func append(collectionID: Int64, documentID: String) {
        if runs.last?.collectionID != collectionID {
            runs.append(CollectionRun(collectionID: collectionID, start: documentIDs.count))
        }
        documentIDs.append(documentID)
    }

    /// Forgets the changes after the first `count` (those of a savepoint rolled back).
    mutating func truncate(to count: Int) {
        guard count < documentIDs.count else { return }
        documentIDs.removeSubrange(count...)
        while let last = runs.last, last.start >= count { runs.removeLast() }
    }

    /// Calls `body` with each change's collection ID and document ID, in order.
    func forEach(_ body: (Int64, String) -> Void) {
        for (index, run) in runs.enumerated() {
            let end = index + 1 < runs.count ? runs[index + 1].start : documentIDs.count
            for documentID in documentIDs[run.start..<end] { body(run.collectionID, documentID) }
        }
    }
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
final class ChangeHub: Sendable {
    private final class Entry: @unchecked Sendable {
        // Safe because every stored property is a constant of a Sendable type except
        // `active`, which is only read and written under the recursive lock.
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

    private let entries = Locked<[UUID: Entry]>([:])

    var count: Int { entries.withLock { $0.count } }

    /// Whether any listener is registered: a write records its changes only then, so a
    /// batch written while nobody listens keeps no list of what it changed. A listener sees
    /// the changes made after it was added (as Couchbase Lite's observers start at the
    /// moment they are created), including later ones of a transaction already open.
    var hasListeners: Bool { entries.withLock { !$0.isEmpty } }

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
        entries.withLock { $0[id] = entry }
        return ListenerToken(id: id, hub: self)
    }

    func remove(_ id: UUID) {
        let entry = entries.withLock { $0.removeValue(forKey: id) }
        entry?.deactivate()
    }

    /// Removes every listener added through one `Database` object.
    func removeAll(ownedBy owner: ObjectIdentifier) {
        let removed = entries.withLock { entries in
            let ids = entries.filter { $0.value.owner == owner }.map(\.key)
            return ids.compactMap { entries.removeValue(forKey: $0) }
        }
        removed.forEach { $0.deactivate() }
    }

    /// Delivers one committed transaction's changes.
    func publish(_ changes: ChangeLog) {
        guard changes.count > 0 else { return }
        let listeners = entries.withLock { Array($0.values) }
        guard !listeners.isEmpty else { return }
        var byCollection: [Int64: [String]] = [:]
        var seen = Set<String>()
        changes.forEach { collectionID, documentID in
            guard seen.insert("\(collectionID)/\(documentID)").inserted else { return }
            byCollection[collectionID, default: []].append(documentID)
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
