import Foundation
import Quire
import Testing

@testable import QuireFixtures

/// The repository's `Fixtures/` folder: its datasets come from the generator, its recipes build.
@Suite struct FixturesFolderTests {
    private static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures", isDirectory: true)

    @Test(arguments: [("names-200", DatasetKind.names, 200), ("travel-20", .travel, 20)])
    func committedDatasetsAreWhatTheGeneratorWrites(name: String, kind: DatasetKind, count: Int) throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        try DatasetGenerator(kind: kind, count: count, seed: 1).write(to: scratch.file(name))
        let committed = Self.fixtures.appendingPathComponent("datasets/\(name)")
        let files = contents(of: committed)
        #expect(files == contents(of: scratch.file(name)))
        for file in files where !file.hasSuffix("Attachments") {
            #expect(
                try Data(contentsOf: committed.appendingPathComponent(file)) == Data(contentsOf: scratch.file("\(name)/\(file)")),
                "\(name)/\(file)")
        }
    }

    @Test(arguments: ["names-200", "travel-20"])
    func committedRecipesBuildAndVerify(name: String) throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let recipe = try FixtureRecipe.load(from: Self.fixtures.appendingPathComponent("recipes/\(name).yaml"))
        #expect(recipe.name == name)
        let report = try withArchiveLock {
            let built = try FixtureBuilder(recipe: recipe).build(into: scratch.url)
            return FixtureVerifier(archiveURL: built.archiveURL).verify()
        }
        #expect(report.isValid, "\(report.text)")
    }
}
