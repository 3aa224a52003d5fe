import Foundation
import Quire
import QuireFixtureBuilder
import QuireFixtures
import QuireFixturesTestSupport
import QuireListener
import QuireSync
import Testing

/// Recipes with a `remote` source: the build pulls from a loopback listener and keeps the
/// checkpoints, so an installed copy's first pull transfers only what changed.
@Suite struct RemoteRecipeTests {
    @Test func recipeParsesARemoteSource() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let text =
            "name: pulled\nsource:\n  remote: {url: \"http://127.0.0.1:4984/db\", channels: [a], collections: [_default, s.c]}\n"
        let recipe = try FixtureRecipe.parse(Data(text.utf8), fileName: "r.yaml", baseFolder: scratch.url)
        #expect(
            recipe.source
                == .remote(
                    FixtureRecipe.Remote(
                        url: URL(string: "http://127.0.0.1:4984/db")!, channels: ["a"],
                        collections: ["_default._default", "s.c"])))
        #expect(recipe.collections.map(\.name) == ["_default._default", "s.c"])
        let moved = recipe.withRemoteURL(URL(string: "http://127.0.0.1:5000/other")!)
        guard case .remote(let remote) = moved.source else {
            Issue.record("not remote")
            return
        }
        #expect(remote.url.absoluteString == "http://127.0.0.1:5000/other")

        let bad = "name: pulled\nsource:\n  remote: {url: \"file:///tmp/x\"}\n"
        #expect(throws: QuireError.self) {
            try FixtureRecipe.parse(Data(bad.utf8), fileName: "r.yaml", baseFolder: scratch.url)
        }
    }

    @Test func buildPullsKeepsCheckpointsAndAnInstalledCopyResumes() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let server = try Database(
            name: "server", config: DatabaseConfiguration(directory: try scratch.folder("server").path))
        defer { try? server.close() }
        let serverCollection = try server.defaultCollection()
        for number in 1...10 {
            try serverCollection.save(document: MutableDocument(id: "d\(number)", data: ["n": number]))
        }
        let listener = URLEndpointListener(
            config: URLEndpointListenerConfiguration(
                collections: [serverCollection], port: 0, networkInterface: "127.0.0.1"))
        try await listener.start()
        let port = try #require(listener.port)
        let url = URL(string: "http://127.0.0.1:\(port)/server")!
        let text = "name: pulled\nsource:\n  remote: {url: \"\(url.absoluteString)\"}\n"
        let recipe = try FixtureRecipe.parse(Data(text.utf8), fileName: "r.yaml", baseFolder: scratch.url)

        let built = try await onOwnThread {
            try withArchiveLock {
                try FixtureBuilder(recipe: recipe).build(into: scratch.url.appendingPathComponent("out"))
            }
        }
        #expect(built.manifest.collections.map(\.documentCount) == [10])
        let checkpoint = try #require(built.manifest.checkpoints?.first)
        #expect(checkpoint.collection == "_default._default")
        #expect(checkpoint.remoteURL == url.absoluteString)
        #expect(checkpoint.checkpointID.hasPrefix("cp-"))
        let inspection = try withArchiveLock { try FixtureInspector.inspect(archive: built.archiveURL) }
        #expect(inspection.text.contains("replication checkpoints"))

        try serverCollection.save(document: MutableDocument(id: "d1", data: ["n": 100]))
        try serverCollection.save(document: MutableDocument(id: "d11", data: ["n": 11]))

        let appFolder = try scratch.folder("app")
        let config = DatabaseConfiguration(directory: appFolder.path)
        _ = try withArchiveLock {
            try FixtureInstaller.install(
                archive: built.archiveURL, name: "app", config: config, ifAbsent: false, temporaryDirectory: appFolder)
        }
        let app = try Database(name: "app", config: config)
        defer { try? app.close() }
        let diagnosis = try CheckpointDoctor(database: app).diagnose(collection: try app.defaultCollection(), url: url)
        #expect(diagnosis.willResume)

        var replication = ReplicatorConfiguration(target: URLEndpoint(url: url))
        replication.replicatorType = .pull
        replication.addCollection(try app.defaultCollection())
        let replicator = Replicator(config: replication)
        let outcome = try await onOwnThread { try BlockingReplication.run(replicator) }
        #expect(outcome.error == nil)
        #expect(outcome.pulled == 2)
        #expect(replicator.checkpointReport(for: try app.defaultCollection())?.isResumed == true)
        #expect(try app.defaultCollection().count == 11)
        await listener.stop()
    }
}
