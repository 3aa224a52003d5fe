import Dispatch
import Foundation
import Testing

@testable import Quire

/// Collects what a live query delivers and lets a test wait for the next delivery.
final class LiveRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var deliveries: [[String]] = []
    private var errors: [any Error] = []
    private let arrived = DispatchSemaphore(value: 0)

    func record(_ change: QueryChange) {
        lock.withLock {
            if let results = change.results {
                deliveries.append(results.allResults().map { $0.toJSON() })
            } else if let error = change.error {
                errors.append(error)
            }
        }
        arrived.signal()
    }

    var all: [[String]] { lock.withLock { deliveries } }
    var count: Int { lock.withLock { deliveries.count + errors.count } }

    /// Waits for deliveries until `condition` holds for the latest results; false on timeout.
    func wait(timeout: TimeInterval = 30, until condition: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let last = all.last, condition(last) { return true }
            guard arrived.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .success else {
                return false
            }
        }
    }
}

@Suite struct LiveQueryTests {
    private func query(_ f: QueryFixture) -> Query {
        QueryBuilder.select(SelectResult.expression(Meta.id)).from(DataSource.collection(f.collection))
            .where(Expression.property("live").equalTo(Expression.boolean(true))).orderBy(Ordering.expression(Meta.id))
    }

    @Test func reportsFirstResultsAndThenChanges() throws {
        let f = try QueryFixture()
        try f.save(["a": #"{"live":true}"#])
        let recorder = LiveRecorder()
        let token = query(f).addChangeListener { recorder.record($0) }
        defer { token.remove() }
        #expect(recorder.wait { $0 == [#"{"id":"a"}"#] })
        try f.save(["b": #"{"live":true}"#])
        #expect(recorder.wait { $0 == [#"{"id":"a"}"#, #"{"id":"b"}"#] })
        // A change that leaves the results as they were is not reported; the next real one is.
        try f.save(["c": #"{"live":false}"#])
        try f.collection.purge(id: "a")
        #expect(recorder.wait { $0 == [#"{"id":"b"}"#] })
        #expect(recorder.all == [[#"{"id":"a"}"#], [#"{"id":"a"}"#, #"{"id":"b"}"#], [#"{"id":"b"}"#]])
    }

    @Test func burstsOfCommitsAreCoalesced() throws {
        let f = try QueryFixture()
        let recorder = LiveRecorder()
        let token = query(f).addChangeListener { recorder.record($0) }
        defer { token.remove() }
        #expect(recorder.wait { $0.isEmpty })
        for number in 0..<40 {
            try f.collection.save(document: MutableDocument(id: String(format: "d%02d", number), data: ["live": true]))
        }
        #expect(recorder.wait { $0.count == 40 })
        #expect(recorder.count < 41)
    }

    @Test func changesToOtherCollectionsDoNotRerunIt() throws {
        let f = try QueryFixture()
        let other = try f.database.createCollection(name: "other", scope: "store")
        let recorder = LiveRecorder()
        let token = query(f).addChangeListener { recorder.record($0) }
        defer { token.remove() }
        #expect(recorder.wait { $0.isEmpty })
        try f.save(["x": #"{"live":true}"#], in: other)
        try f.save(["a": #"{"live":true}"#])
        #expect(recorder.wait { $0 == [#"{"id":"a"}"#] })
        #expect(recorder.count == 2)
    }

    @Test func newParametersRerunIt() throws {
        let f = try QueryFixture()
        try f.save(["a": #"{"n":1}"#, "b": #"{"n":2}"#])
        let query = try f.database.createQuery("SELECT meta().id FROM store.items WHERE n = $n")
        let recorder = LiveRecorder()
        let token = query.addChangeListener { recorder.record($0) }
        defer { token.remove() }
        #expect(recorder.wait { $0.isEmpty })
        let parameters = Parameters()
        parameters.setInt(2, forName: "n")
        query.parameters = parameters
        #expect(recorder.wait { $0 == [#"{"id":"b"}"#] })
    }

    @Test func removingTheTokenOrClosingTheDatabaseStopsIt() throws {
        let f = try QueryFixture()
        let listenerQueue = DispatchQueue(label: "test.live")
        let removed = LiveRecorder()
        let token = query(f).addChangeListener(queue: listenerQueue) { removed.record($0) }
        #expect(removed.wait { $0.isEmpty })
        token.remove()

        let closed = LiveRecorder()
        let second = QueryFixture.Handle(f)
        let closing = QueryBuilder.select(SelectResult.expression(Meta.id)).from(
            DataSource.collection(second.collection))
        _ = closing.addChangeListener(queue: listenerQueue) { closed.record($0) }
        #expect(closed.wait { $0.isEmpty })
        try second.database.close()

        try f.save(["a": #"{"live":true}"#])
        // A fresh listener on the same queue sees the change; by then the stopped ones would
        // have been called too, had they not been stopped.
        let witness = LiveRecorder()
        let witnessToken = query(f).addChangeListener(queue: listenerQueue) { witness.record($0) }
        defer { witnessToken.remove() }
        #expect(witness.wait { $0 == [#"{"id":"a"}"#] })
        try f.save(["b": #"{"live":true}"#])
        #expect(witness.wait { $0.count == 2 })
        listenerQueue.sync {}
        #expect(removed.count == 1)
        #expect(closed.count == 1)
    }
}

extension QueryFixture {
    /// A second `Database` object on the fixture's file, with the same collection.
    struct Handle {
        let database: Database
        let collection: Collection

        init(_ fixture: QueryFixture) {
            database = Database(path: fixture.database.filePath)
            // The collection exists; a failure here would fail the test on first use.
            collection =
                (try? database.collection(name: fixture.collection.name, scope: fixture.collection.scope.name))
                ?? fixture.collection
        }
    }
}
