import Foundation
import Quire
import QuireListener
import QuireSync
import Testing

/// The README's replication example, as written there (in a temporary folder), run to its end.
@Suite struct ReadmeReplicationExampleTests {
    @Test func theReadmeExampleReplicatesBothWays() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "quire-readme-sync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = folder.appendingPathComponent("Sync").path

        // From the README:
        let server = try Database(name: "server", config: DatabaseConfiguration(directory: directory))
        let listener = URLEndpointListener(
            config: URLEndpointListenerConfiguration(
                collections: [try server.defaultCollection()], port: 0, networkInterface: "127.0.0.1"))
        try await listener.start()

        let phone = try Database(name: "phone", config: DatabaseConfiguration(directory: directory))
        var config = ReplicatorConfiguration(target: URLEndpoint(url: listener.urls![0]))
        config.replicatorType = .pushAndPull
        config.addCollection(try phone.defaultCollection())
        let replicator = Replicator(config: config)
        // (The README prints; the test records.)
        let stopped = AsyncStream<Replicator.Status>.makeStream()
        replicator.addChangeListener { change in
            if change.status.activity == .stopped { stopped.continuation.yield(change.status) }
        }

        try server.defaultCollection().save(document: MutableDocument(id: "on-server", data: ["from": "server"]))
        try phone.defaultCollection().save(document: MutableDocument(id: "on-phone", data: ["from": "phone"]))
        replicator.start()
        var iterator = stopped.stream.makeAsyncIterator()
        let status = try #require(await iterator.next())
        #expect(status.error == nil)
        #expect(listener.urls?.first?.absoluteString.hasSuffix("/server") == true)
        #expect(try phone.defaultCollection().document(id: "on-server")?.string(forKey: "from") == "server")
        #expect(try server.defaultCollection().document(id: "on-phone")?.string(forKey: "from") == "phone")
        await listener.stop()
        try phone.close()
        try server.close()
    }
}
