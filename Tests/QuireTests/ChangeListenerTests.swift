import Foundation
import Testing

@testable import Quire

@Suite struct ChangeListenerTests {
    private func open(_ directory: TemporaryDirectory) throws -> (Database, Collection) {
        let database = try Database(name: "listen", config: DatabaseConfiguration(directory: directory.path))
        return (database, try database.createCollection(name: "items", scope: "app"))
    }

    @Test func oneEventPerTransactionWithTheChangedIDsInOrder() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try open(directory)
        let other = try database.defaultCollection()
        let queue = DispatchQueue(label: "events")
        let log = EventLog()
        let token = collection.addChangeListener(queue: queue) { log.record($0.documentIDs.joined(separator: ",")) }
        try collection.save(document: MutableDocument(id: "a"))
        try database.inBatch {
            try collection.save(document: MutableDocument(id: "c"))
            try collection.save(document: MutableDocument(id: "b"))
            try other.save(document: MutableDocument(id: "elsewhere"))
            try collection.save(document: MutableDocument(id: "c"))
        }
        let doomed = try #require(try collection.document(id: "a"))
        try collection.delete(document: doomed)
        try collection.purge(id: "b")
        struct Abort: Error {}
        try? database.inBatch {
            try collection.save(document: MutableDocument(id: "rolled-back"))
            throw Abort()
        }
        queue.sync {}
        #expect(log.events == ["a", "c,b", "a", "b"])
        token.remove()
        try collection.save(document: MutableDocument(id: "after-removal"))
        queue.sync {}
        #expect(log.events.count == 4)
    }

    /// Changes are kept for listeners only while one is registered: a batch written before
    /// any listener is heard of by none, and a listener added inside a batch hears of that
    /// batch's later changes only (as Couchbase Lite's observers start where they are created).
    @Test func aListenerHearsOfTheChangesMadeAfterItWasAdded() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try open(directory)
        let queue = DispatchQueue(label: "late-events")
        let log = EventLog()
        try database.inBatch {
            try collection.save(document: MutableDocument(id: "before"))
        }
        var token: ListenerToken?
        try database.inBatch {
            try collection.save(document: MutableDocument(id: "earlier-in-the-batch"))
            token = collection.addChangeListener(queue: queue) { log.record($0.documentIDs.joined(separator: ",")) }
            try collection.save(document: MutableDocument(id: "later-in-the-batch"))
            try collection.save(document: MutableDocument(id: "before"))
        }
        try collection.save(document: MutableDocument(id: "after"))
        queue.sync {}
        #expect(log.events == ["later-in-the-batch,before", "after"])
        token?.remove()
        try database.inBatch {
            try collection.save(document: MutableDocument(id: "unheard"))
        }
        queue.sync {}
        #expect(log.events.count == 2)
    }

    @Test func documentListenersHearOnlyTheirDocument() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try open(directory)
        let queue = DispatchQueue(label: "doc-events")
        let log = EventLog()
        let token = collection.addDocumentChangeListener(id: "watched", queue: queue) { log.record($0.documentID) }
        defer { token.remove() }
        try collection.save(document: MutableDocument(id: "other"))
        try collection.save(document: MutableDocument(id: "watched"))
        try collection.purge(id: "watched")
        queue.sync {}
        #expect(log.events == ["watched", "watched"])
    }

    @Test func changesThroughAnotherObjectOnTheFileAreHeard() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try open(directory)
        let queue = DispatchQueue(label: "shared-events")
        let log = EventLog()
        let token = collection.addChangeListener(queue: queue) { log.record($0.documentIDs.joined()) }
        defer { token.remove() }
        let second = try Database(name: "listen", config: DatabaseConfiguration(directory: directory.path))
        #expect(second.core === database.core)
        try #require(try second.collection(name: "items", scope: "app")).save(document: MutableDocument(id: "x"))
        queue.sync {}
        #expect(log.events == ["x"])
    }

    @Test func closingRemovesListenersAndNothingIsCalledAfterwards() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try open(directory)
        let second = try Database(name: "listen", config: DatabaseConfiguration(directory: directory.path))
        let secondCollection = try #require(try second.collection(name: "items", scope: "app"))
        let queue = DispatchQueue(label: "closing")
        let log = EventLog()
        collection.addChangeListener(queue: queue) { log.record($0.documentIDs.joined()) }
        try secondCollection.save(document: MutableDocument(id: "before"))
        // Let "before" arrive first: delivery is asynchronous, and on a busy machine the
        // queue may not have run it before the close below.
        queue.sync {}
        // Hold the queue so a notification is pending while the database closes.
        let hold = DispatchSemaphore(value: 0)
        queue.async { hold.wait() }
        try secondCollection.save(document: MutableDocument(id: "queued"))
        try database.close()
        hold.signal()
        try secondCollection.save(document: MutableDocument(id: "after"))
        queue.sync {}
        #expect(log.events == ["before"])
        #expect(database.core.changes.count == 0)
    }

    @Test func closingWaitsForAListenerAlreadyRunning() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try open(directory)
        let log = EventLog()
        let running = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        collection.addChangeListener { _ in
            running.signal()
            release.wait()
            log.record("listener returned")
        }
        try collection.save(document: MutableDocument(id: "a"))
        running.wait()
        let closed = DispatchSemaphore(value: 0)
        Thread {
            try? database.close()
            log.record("close returned")
            closed.signal()
        }.start()
        // close() must still be waiting for the listener, however long we give it.
        #expect(closed.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
        release.signal()
        closed.wait()
        #expect(log.events == ["listener returned", "close returned"])
    }

    @Test func aListenerCanRemoveItself() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try open(directory)
        defer { try? database.close() }
        let log = EventLog()
        let tokenBox = TokenBox()
        let done = DispatchSemaphore(value: 0)
        tokenBox.token = collection.addChangeListener { change in
            log.record(change.documentIDs.joined())
            tokenBox.token?.remove()
            done.signal()
        }
        try collection.save(document: MutableDocument(id: "first"))
        done.wait()
        try collection.save(document: MutableDocument(id: "second"))
        #expect(database.core.changes.count == 0)
        #expect(log.events == ["first"])
    }

    @Test func concurrentWritersAreReportedInCommitOrder() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try open(directory)
        let queue = DispatchQueue(label: "concurrent")
        let heard = EventLog()
        let committed = EventLog()
        let token = collection.addChangeListener(queue: queue) { heard.record($0.documentIDs.joined(separator: ",")) }
        defer { token.remove() }
        let writers = (0..<4).map { thread in
            TestThread {
                for n in 0..<50 {
                    try database.inBatch {
                        try collection.save(document: MutableDocument(id: "t\(thread)-\(n)"))
                        try collection.save(document: MutableDocument(id: "t\(thread)-\(n)-b"))
                        committed.record("t\(thread)-\(n),t\(thread)-\(n)-b")
                    }
                }
            }
        }
        try writers.forEach { try $0.join() }
        queue.sync {}
        #expect(heard.events.count == 200)
        #expect(heard.events == committed.events)
    }
}

/// Holds a listener's token so the listener can remove itself.
private final class TokenBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: ListenerToken?
    var token: ListenerToken? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
