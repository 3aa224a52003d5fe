import Foundation
import Quire
import QuireFixturesTestSupport
import Testing

@testable import QuireFixtureBuilder
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
                try Data(contentsOf: committed.appendingPathComponent(file))
                    == Data(contentsOf: scratch.file("\(name)/\(file)")),
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

    /// The one committed archive, which a spec installs through `given: {fixture: ...}`, still
    /// verifies and describes what its recipe builds today: the same manifest apart from the
    /// database file's hash and size, which depend on the SQLite library, and the build date.
    @Test func theCommittedArchiveIsWhatItsRecipeBuilds() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let committed = Self.fixtures.appendingPathComponent("archives/travel-20.quire.zip")
        let recipe = try FixtureRecipe.load(from: Self.fixtures.appendingPathComponent("recipes/travel-20.yaml"))
        let (report, fresh) = try withArchiveLock {
            (
                FixtureVerifier(archiveURL: committed).verify(),
                try FixtureBuilder(recipe: recipe).build(into: scratch.url).manifest
            )
        }
        #expect(report.isValid, "\(report.text)")
        let stored = try withArchiveLock { try FixtureInspector.inspect(archive: committed).manifest }
        func comparable(_ manifest: FixtureManifest) -> FixtureManifest {
            var copy = manifest.canonicalized()
            copy.entries = copy.entries.map { .init(path: $0.path, sha256: "", size: 0) }
            copy.buildTimestamp = ""
            return copy
        }
        #expect(
            comparable(stored) == comparable(fresh),
            "rebuild with: quire fixture build Fixtures/recipes/travel-20.yaml -o Fixtures/archives (SOURCE_DATE_EPOCH unset)"
        )
    }
}
