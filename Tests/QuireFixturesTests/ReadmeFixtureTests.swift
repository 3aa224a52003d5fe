import Foundation
import Quire
import QuireFixturesTestSupport
import Testing

@testable import QuireFixtureBuilder
@testable import QuireFixtures

/// The README's fixture round trip as code: generate, build, verify, install, open, query.
@Suite struct ReadmeFixtureTests {
    @Test func theRoundTripWorks() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let dataset = scratch.file("my-travel")
        _ = try DatasetGenerator(kind: .travel, count: 20, seed: 1).write(to: dataset)
        let recipe = try FixtureRecipe.parse(
            Data(
                """
                name: my-travel
                source:
                  dataset: my-travel
                collections:
                  - name: inventory.hotel
                    indexes:
                      - {name: by_city, value: [city]}
                      - {name: reviews, fullText: [description]}
                  - name: inventory.route
                """.utf8), fileName: "my-travel.yaml", baseFolder: scratch.url)
        try withArchiveLock {
            let built = try FixtureBuilder(recipe: recipe).build(into: scratch.file("out"))
            #expect(FixtureVerifier(archiveURL: built.archiveURL).verify().isValid)

            let database = try FixtureInstaller.installIfAbsent(
                archive: built.archiveURL, name: "travel",
                config: DatabaseConfiguration(directory: scratch.file("Apps").path))
            defer { try? database.close() }
            let hotels = try #require(try database.collection(name: "hotel", scope: "inventory"))
            let city = try #require(try hotels.document(id: "hotel_1")?.string(forKey: "city"))
            let query = try database.createQuery("SELECT name FROM inventory.hotel WHERE city = $city ORDER BY name")
            let parameters = Parameters()
            parameters.setString(city, forName: "city")
            query.parameters = parameters
            let names = try query.execute().map { $0.string(forKey: "name") ?? "" }
            #expect(!names.isEmpty)
            #expect(try query.explain().contains("by_city"))
        }
    }
}
