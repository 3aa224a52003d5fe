import Foundation
import Quire
import QuireFixtures
import QuireFixturesTestSupport
import QuireTestSupport
import Testing

/// `quire fixture build` on datasets in Couchbase's own layout.
@Suite(.offCooperativePool) struct DatasetCommandTests {
    @Test func quireFixtureBuildBuildsCouchbasesNamesTodoAndTravelLayouts() throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let datasets = try CouchbaseDatasets.write(in: scratch)
        let expected: [(URL, [String: Int])] = [
            (datasets.names, ["_default._default": 2]),
            (datasets.todo, ["_default._default": 1, "_default.lists": 1, "_default.tasks": 2]),
            // The manifest lists every collection of the database, the empty default one too.
            (datasets.travel, ["_default._default": 0, "travel.airlines": 1, "travel.hotels": 1]),
        ]
        for (folder, counts) in expected {
            let name = folder.lastPathComponent
            let recipe = try scratch.write("name: \(name)\nsource:\n  dataset: \(name)\n", to: "\(name).yaml")
            let output = try scratch.folder("out-\(name)")
            let result = try runCommand(
                quire, ["fixture", "build", recipe.path, "-o", output.path], temporary: try scratch.folder("tmp"),
                in: scratch.url)
            #expect(result.status == 0, "\(name): \(result.output)")
            let archive = output.appendingPathComponent("\(name).quire.zip")
            let manifest = try withArchiveLock { try FixtureInspector.inspect(archive: archive).manifest }
            var built: [String: Int] = [:]
            for collection in manifest.collections { built[collection.name] = collection.documentCount }
            #expect(built == counts, "\(name)")
            #expect(withArchiveLock { FixtureVerifier(archiveURL: archive).verify().isValid }, "\(name)")
        }
    }
}
