import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

extension EndToEnd {
    /// Couchbase Lite's URLEndpointListenerTest on closing or deleting a database while
    /// listeners serve it and replicators replicate it: they all stop.
    @Suite(.serialized) struct URLEndpointListenerCloseTests {
        private static func listener(_ collection: Collection) async throws -> URLEndpointListener {
            let listener = URLEndpointListener(
                config: URLEndpointListenerConfiguration(collections: [collection], networkInterface: "127.0.0.1"))
            try await listener.start()
            return listener
        }

        /// A continuous replicator of `collection` with the database `listener` serves.
        private static func replicator(_ collection: Collection, _ listener: URLEndpointListener) throws
            -> Replicator
        {
            let name = listener.config.collections[0].database.name
            var config = ReplicatorConfiguration(
                target: URLEndpoint(url: try #require(URL(string: "http://127.0.0.1:\(listener.port ?? 0)/\(name)"))))
            config.continuous = true
            config.maxAttemptWaitTime = 0.05
            config.addCollection(collection)
            return Replicator(config: config)
        }

        /// Starts `replicator` and waits until it is idle with all it found done.
        private static func startUntilIdle(_ replicator: Replicator) async throws -> ReplicationRecorder {
            let recorder = ReplicationRecorder(replicator)
            replicator.start()
            _ = try await recorder.wait { $0.activity == .idle && $0.progress.completed == $0.progress.total }
            return recorder
        }

        private static func closeOrDelete(_ database: Database, delete: Bool) throws {
            if delete {
                try database.delete()
            } else {
                try database.close()
            }
        }

        // covers: URLEndpointListenerTest.testCloseWithActiveListener
        @Test func closingTheServedDatabaseStopsTheListener() async throws {
            let served = try SyncTestDatabase(name: "other")
            let listener = try await Self.listener(served.collection)
            #expect(listener.port != nil)
            try served.database.close()
            #expect(listener.port == nil)
            #expect(listener.urls == nil)
            await listener.stop()
        }

        @Test func aListenerOfAClosedDatabaseDoesNotStart() async throws {
            let served = try SyncTestDatabase(name: "other")
            let collection = served.collection
            try served.database.close()
            let listener = URLEndpointListener(
                config: URLEndpointListenerConfiguration(collections: [collection], networkInterface: "127.0.0.1"))
            let error = await #expect(throws: QuireError.self) { try await listener.start() }
            #expect(error?.code == .notOpen)
            #expect(listener.port == nil)
        }

        /// Couchbase Lite's validateActiveReplicationsAndURLEndpointListener: one replicator of
        /// the served database (to a database Couchbase Lite reaches locally, here through a
        /// second listener), one of a third database to the listener; closing or deleting the
        /// served and the third database stops both replicators and the listener.
        // covers: URLEndpointListenerTest.testCloseWithActiveReplicationsAndURLEndpointListener
        // covers: URLEndpointListenerTest.testDeleteWithActiveReplicationsAndURLEndpointListener
        @Test(arguments: [false, true])
        func closingOrDeletingStopsTheReplicatorsOfTheDatabasesAndTheirListener(delete: Bool) async throws {
            let db = try SyncTestDatabase(name: "db")
            let other = try SyncTestDatabase(name: "other")
            let db2 = try SyncTestDatabase(name: "db2")
            try db.save("db-doc", #"{"n":1}"#)
            try other.save("other-db-doc", #"{"n":2}"#)
            let listener = try await Self.listener(other.collection)
            let dbListener = try await Self.listener(db.collection)
            let first = try Self.replicator(other.collection, dbListener)
            let second = try Self.replicator(db2.collection, listener)
            let firstRecorder = try await Self.startUntilIdle(first)
            let secondRecorder = try await Self.startUntilIdle(second)
            #expect(db2.collection.count == 2)
            try Self.closeOrDelete(db2.database, delete: delete)
            try Self.closeOrDelete(other.database, delete: delete)
            #expect(listener.port == nil)
            #expect(try await firstRecorder.waitUntilStopped().error == nil)
            #expect(try await secondRecorder.waitUntilStopped().error == nil)
            #expect(dbListener.port != nil)
            await dbListener.stop()
            await listener.stop()
        }

        /// Couchbase Lite's validateActiveReplicatorAndURLEndpointListeners: two listeners
        /// serve a database that also replicates with the first; closing or deleting it stops
        /// the replicator and both listeners.
        // covers: URLEndpointListenerTest.testCloseWithActiveReplicatorAndURLEndpointListeners
        // covers: URLEndpointListenerTest.testDeleteWithActiveReplicatorAndURLEndpointListeners
        @Test(arguments: [false, true])
        func closingOrDeletingStopsItsReplicatorAndBothListeners(delete: Bool) async throws {
            let db = try SyncTestDatabase(name: "db")
            let other = try SyncTestDatabase(name: "other")
            try db.save("db-doc", #"{"n":1}"#)
            try other.save("other-db-doc", #"{"n":2}"#)
            let first = try await Self.listener(other.collection)
            let second = try await Self.listener(other.collection)
            let replicator = try Self.replicator(other.collection, first)
            let recorder = try await Self.startUntilIdle(replicator)
            try Self.closeOrDelete(other.database, delete: delete)
            #expect(first.port == nil)
            #expect(second.port == nil)
            #expect(try await recorder.waitUntilStopped().error == nil)
            #expect(db.collection.count == 1)
            await first.stop()
            await second.stop()
        }
    }
}
