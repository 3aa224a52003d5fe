import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

extension EndToEnd {
    /// Couchbase Lite's URLEndpointListenerTest, between Quire databases on loopback: a
    /// listener's port and URLs through its life, its authenticator, several listeners on one
    /// database and several replicators to one listener.
    @Suite(.serialized) struct URLEndpointListenerReplicationTests {
        private static func config(_ collections: [Collection], port: UInt16? = nil)
            -> URLEndpointListenerConfiguration
        {
            URLEndpointListenerConfiguration(collections: collections, port: port, networkInterface: "127.0.0.1")
        }

        private static func url(_ listener: URLEndpointListener, _ name: String = "remote") throws -> URL {
            try #require(URL(string: "http://127.0.0.1:\(listener.port ?? 0)/\(name)"))
        }

        // covers: URLEndpointListenerTest.testPort, URLEndpointListenerTest.testURLs
        @Test func aFixedPortIsTheListenersPortAndItsURLsOnlyWhileItRuns() async throws {
            let remote = try SyncTestDatabase(name: "remote")
            // A port known to be free: the one a first listener was given, once it stopped.
            let probe = URLEndpointListener(config: Self.config([remote.collection]))
            try await probe.start()
            let port = try #require(probe.port)
            await probe.stop()

            let listener = URLEndpointListener(config: Self.config([remote.collection], port: port))
            #expect(listener.port == nil)
            #expect(listener.urls == nil)
            try await listener.start()
            #expect(listener.port == port)
            #expect(listener.urls?.map(\.absoluteString) == ["http://127.0.0.1:\(port)/remote"])
            await listener.stop()
            #expect(listener.port == nil)
            #expect(listener.urls == nil)
        }

        // covers: URLEndpointListenerTest.testEmptyPort
        @Test func noPortPicksAFreeOne() async throws {
            let remote = try SyncTestDatabase(name: "remote")
            let listener = URLEndpointListener(config: Self.config([remote.collection]))
            #expect(listener.port == nil)
            try await listener.start()
            let port = try #require(listener.port)
            #expect(port != 0)
            // The port is really listened on: a replication through it works.
            try remote.save("doc-1", #"{"n":1}"#)
            let local = try SyncTestDatabase()
            let outcome = try await replicate(local.collection, with: try Self.url(listener), type: .pull)
            #expect(outcome.status.error == nil)
            #expect(local.collection.count == 1)
            await listener.stop()
            #expect(listener.port == nil)
        }

        // covers: URLEndpointListenerTest.testNonTLSNullListenerAuthenticator
        @Test func withoutAnAuthenticatorAnyClientReplicates() async throws {
            let remote = try SyncTestDatabase(name: "remote")
            let listener = URLEndpointListener(config: Self.config([remote.collection]))
            try await listener.start()
            #if TLS
                #expect(listener.tlsIdentity == nil)
            #endif
            let local = try SyncTestDatabase()
            try local.save("anonymous", #"{"n":1}"#)
            let anonymous = try await replicate(local.collection, with: try Self.url(listener))
            #expect(anonymous.status.error == nil)
            #expect(try remote.collection.document(id: "anonymous") != nil)
            try local.save("basic", #"{"n":2}"#)
            let basic = try await replicate(local.collection, with: try Self.url(listener)) {
                $0.authenticator = BasicAuthenticator(username: "daniel", password: "123")
            }
            #expect(basic.status.error == nil)
            #expect(try remote.collection.document(id: "basic") != nil)
            await listener.stop()
        }

        // covers: URLEndpointListenerTest.testNonTLSPasswordListenerAuthenticator
        @Test func aPasswordAuthenticatorLetsInOnlyTheRightCredentials() async throws {
            try await Self.passwordAuthentication(tls: false)
        }

        /// Replicates to a listener guarded by daniel/123, with no, wrong and right credentials.
        static func passwordAuthentication(tls: Bool) async throws {
            let remote = try SyncTestDatabase(name: "remote")
            var config = Self.config([remote.collection])
            config.authenticator = ListenerPasswordAuthenticator { $0 == "daniel" && $1 == "123" }
            #if TLS
                config.disableTLS = !tls
            #endif
            let listener = URLEndpointListener(config: config)
            try await listener.start()
            let scheme = tls ? "https" : "http"
            let url = try #require(URL(string: "\(scheme)://127.0.0.1:\(listener.port ?? 0)/remote"))
            let local = try SyncTestDatabase()
            try local.save("doc-1", #"{"n":1}"#)
            let pin: Data?
            #if TLS
                pin = listener.tlsIdentity.map { Data($0.certificatePEM.utf8) }
            #else
                pin = nil
            #endif
            #expect((pin != nil) == tls)
            let attempts: [BasicAuthenticator?] = [
                nil, BasicAuthenticator(username: "daneil", password: "123"),
                BasicAuthenticator(username: "daniel", password: "456"),
            ]
            for authenticator in attempts {
                let refused = try await replicate(local.collection, with: url) {
                    $0.authenticator = authenticator
                    #if TLS
                        $0.pinnedServerCertificate = pin
                    #endif
                }
                #expect(refused.status.error?.code == .httpAuthRequired, "\(String(describing: authenticator))")
            }
            #expect(remote.collection.count == 0)
            let accepted = try await replicate(local.collection, with: url) {
                $0.authenticator = BasicAuthenticator(username: "daniel", password: "123")
                #if TLS
                    $0.pinnedServerCertificate = pin
                #endif
            }
            #expect(accepted.status.error == nil)
            #expect(remote.collection.count == 1)
            await listener.stop()
        }

        // covers: URLEndpointListenerTest.testMultipleListenersOnSameDatabase
        @Test func twoListenersServeOneCollection() async throws {
            let remote = try SyncTestDatabase(name: "remote")
            let config = Self.config([remote.collection])
            let first = URLEndpointListener(config: config)
            let second = URLEndpointListener(config: config)
            try await first.start()
            try await second.start()
            #expect(first.port != second.port)
            let local = try SyncTestDatabase()
            try local.save("doc-1", #"{"n":1}"#)
            let outcome = try await replicate(local.collection, with: try Self.url(first))
            #expect(outcome.status.error == nil)
            // The second listener serves what came in through the first.
            let other = try SyncTestDatabase()
            let pulled = try await replicate(other.collection, with: try Self.url(second), type: .pull)
            #expect(pulled.status.error == nil)
            #expect(pulled.pulled.map(\.id) == ["doc-1"])
            await second.stop()
            await first.stop()
            #expect(remote.collection.count == 1)
        }

        /// Two databases, each with one document holding a blob, replicating with `listener`
        /// at once (Couchbase Lite's validateMultipleReplicationsTo).
        private static func twoReplicators(
            to listener: URLEndpointListener, type: ReplicatorType
        ) async throws -> (SyncTestDatabase, SyncTestDatabase) {
            let db1 = try SyncTestDatabase(name: "db1")
            let db2 = try SyncTestDatabase(name: "db2")
            for (index, store) in [db1, db2].enumerated() {
                let document = MutableDocument(id: "doc-db\(index + 1)")
                document.setValue(
                    Blob(contentType: "image/jpg", data: Data(repeating: UInt8(index), count: 200_000)), forKey: "blob")
                try store.collection.save(document: document)
            }
            let url = try Self.url(listener)
            async let first = replicate(db1.collection, with: url, type: type)
            async let second = replicate(db2.collection, with: url, type: type)
            let (one, two) = try await (first, second)
            #expect(one.status.error == nil)
            #expect(two.status.error == nil)
            return (db1, db2)
        }

        // covers: URLEndpointListenerTest.testMultipleReplicatorsToListener
        @Test func twoReplicatorsPushToOneListenerAtOnce() async throws {
            let remote = try SyncTestDatabase(name: "remote")
            try remote.save("tiger", #"{"species":"Tiger"}"#)
            let listener = URLEndpointListener(config: Self.config([remote.collection]))
            try await listener.start()
            _ = try await Self.twoReplicators(to: listener, type: .push)
            #expect(remote.collection.count == 3)
            let blob = try #require(try remote.collection.document(id: "doc-db2")?.blob(forKey: "blob"))
            #expect(blob.content?.count == 200_000)
            await listener.stop()
        }

        // covers: URLEndpointListenerTest.testMultipleReplicatorsToReadOnlyListener
        @Test func twoReplicatorsPullFromOneReadOnlyListenerAtOnce() async throws {
            let remote = try SyncTestDatabase(name: "remote")
            try remote.save("tiger", #"{"species":"Tiger"}"#)
            var config = Self.config([remote.collection])
            config.readOnly = true
            let listener = URLEndpointListener(config: config)
            try await listener.start()
            let (one, two) = try await Self.twoReplicators(to: listener, type: .pull)
            #expect(one.collection.count == 2)
            #expect(two.collection.count == 2)
            #expect(try one.collection.document(id: "tiger")?.string(forKey: "species") == "Tiger")
            #expect(remote.collection.count == 1)
            await listener.stop()
        }

        // covers: URLEndpointListenerTest.testEmptyNetworkInterface
        @Test func withoutANetworkInterfaceEveryAddressServes() async throws {
            let remote = try SyncTestDatabase(name: "remote")
            let listener = URLEndpointListener(
                config: URLEndpointListenerConfiguration(collections: [remote.collection]))
            try await listener.start()
            let urls = try #require(listener.urls)
            #expect(!urls.isEmpty)
            // Link-local and IPv6 addresses need a zone; replicate through every other one.
            let reachable = urls.filter { !($0.host ?? "").contains(":") && !($0.host ?? "").hasPrefix("169.254.") }
            #expect(!reachable.isEmpty)
            for (index, url) in reachable.enumerated() {
                let local = try SyncTestDatabase(name: "db-\(index)")
                let document = MutableDocument(id: "doc-\(index)")
                document.setValue(url.absoluteString, forKey: "url")
                try local.collection.save(document: document)
                let outcome = try await replicate(local.collection, with: url, type: .push)
                #expect(outcome.status.error == nil, "\(url)")
            }
            #expect(remote.collection.count == UInt64(reachable.count))
            let stored = try (0..<reachable.count).map {
                try remote.collection.document(id: "doc-\($0)")?.string(forKey: "url")
            }
            #expect(stored == reachable.map(\.absoluteString))
            await listener.stop()
        }
        // covers: URLEndpointListenerTest.testStopListener
        @Test func stoppingTheListenerStopsItsReplicatorsWithAnError() async throws {
            let remote = try SyncTestDatabase(name: "remote")
            let listener = URLEndpointListener(config: Self.config([remote.collection]))
            try await listener.start()
            let url = try Self.url(listener)
            let local = try SyncTestDatabase()
            try local.save("doc-1", #"{"n":1}"#)
            var config = replicatorConfig([local.collection], url, continuous: true)
            config.maxAttempts = 2
            let replicator = Replicator(config: config)
            let recorder = ReplicationRecorder(replicator)
            replicator.start()
            _ = try await recorder.wait(timeout: 60) { $0.activity == .idle }
            #expect(remote.collection.count == 1)
            await listener.stop()
            let stopped = try await recorder.wait(timeout: 60) { $0.activity == .stopped }
            let error = try #require(stopped.error)
            #expect(error.domain == .network, "\(error)")
            // Nothing listens there any more.
            let refused = try await replicate(local.collection, with: url) { $0.maxAttempts = 2 }
            #expect(refused.status.error?.domain == .network, "\(String(describing: refused.status.error))")
            #expect(
                refused.status.error?.message.contains("connect") == true, "\(String(describing: refused.status.error))"
            )
        }

        // covers: URLEndpointListenerTest_Collection.testCollectionsSingleShotPushPullReplication
        @Test func aListenerServesOnlyItsCollectionsToOneShotReplication() async throws {
            try await collections(continuous: false, counts: (3, 5))
        }

        // covers: URLEndpointListenerTest_Collection.testCollectionsContinuousPushPullReplication
        @Test func aListenerServesOnlyItsCollectionsToContinuousReplication() async throws {
            try await collections(continuous: true, counts: (10, 10))
        }

        private func collections(continuous: Bool, counts: (Int, Int)) async throws {
            let local = try SyncTestDatabase()
            let remote = try SyncTestDatabase(name: "remote")
            let col1a = try local.database.createCollection(name: "colA", scope: "scopeA")
            let col1b = try local.database.createCollection(name: "colB", scope: "scopeA")
            let col2a = try remote.database.createCollection(name: "colA", scope: "scopeA")
            let col2b = try remote.database.createCollection(name: "colB", scope: "scopeA")
            for index in 0..<counts.0 { try local.save("doc\(index)", #"{"number1":\#(index)}"#, in: col1a) }
            for index in 10..<10 + counts.1 { try local.save("doc\(index)", #"{"number1":\#(index)}"#, in: col1b) }
            let listener = URLEndpointListener(config: Self.config([col2a, col2b]))
            try await listener.start()
            let runner = ReplicatorRunner(
                replicatorConfig([col1a, col1b], try Self.url(listener), continuous: continuous))
            #expect(try await runner.run().error == nil)
            #expect([col1a.count, col1b.count] == [UInt64(counts.0), UInt64(counts.1)])
            #expect([col2a.count, col2b.count] == [UInt64(counts.0), UInt64(counts.1)])
            #expect(try col2b.document(id: "doc10")?.int(forKey: "number1") == 10)
            #expect(remote.collection.count == 0)
            await listener.stop()
        }

        // covers: URLEndpointListenerTest_Collection.testMismatchedCollectionReplication
        @Test func aCollectionTheListenerDoesNotServeIsNotFound() async throws {
            let local = try SyncTestDatabase()
            let remote = try SyncTestDatabase(name: "remote")
            let col1a = try local.database.createCollection(name: "colA", scope: "scopeA")
            let col2b = try remote.database.createCollection(name: "colB", scope: "scopeA")
            for index in 0..<10 { try local.save("doc\(index)", #"{"number1":\#(index)}"#, in: col1a) }
            let listener = URLEndpointListener(config: Self.config([col2b]))
            try await listener.start()
            let runner = ReplicatorRunner(replicatorConfig([col1a], try Self.url(listener)))
            #expect(try await runner.run().error?.code == .httpNotFound)
            #expect(col2b.count == 0)
            await listener.stop()
        }
    }
}
