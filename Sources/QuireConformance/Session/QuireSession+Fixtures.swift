import Foundation
import Quire
import QuireFixtureBuilder
import QuireFixtures

extension QuireSession {
    /// The steps on fixtures built, verified and installed.
    func fixtureStep(_ step: Step, in context: StepContext) throws -> SpecValue? {
        switch step {
        case .buildFixture(let build):
            return try buildFixture(build)
        case .verifyFixture(let archive):
            let report = FixtureVerifier(archiveURL: archive).verify()
            return .object([
                "valid": .bool(report.isValid),
                "failures": .array(report.failures.map { .string("\($0.subject): \($0.problem ?? "")") }),
            ])
        case .installFixture(let archive, let name, let ifAbsent):
            let outcome = try FixtureInstaller.install(
                archive: archive, name: name, config: configuration, ifAbsent: ifAbsent, temporaryDirectory: directory)
            return .object(["installed": .bool(outcome == .installed)])
        default: throw EngineError.misrouted(step, to: "fixtureStep")
        }
    }

    func buildFixture(_ build: Step.BuildFixture) throws -> SpecValue {
        var recipe: FixtureRecipe
        switch build.recipe {
        case .file(let url): recipe = try FixtureRecipe.load(from: url)
        case .text(let text, let baseFolder):
            recipe = try FixtureRecipe.parse(Data(text.utf8), fileName: "recipeText", baseFolder: baseFolder)
        }
        if let remoteURL = build.remoteURL {
            guard case .remote = recipe.source else {
                throw QuireError(.invalidParameter, "buildFixture: 'remoteURL' needs a recipe with a remote source")
            }
            recipe = recipe.withRemoteURL(try url(remoteURL))
        }
        let built = try FixtureBuilder(recipe: recipe).build(into: directory.appendingPathComponent("fixtures"))
        var counts: [String: SpecValue] = [:]
        for collection in built.manifest.collections { counts[collection.name] = .int(collection.documentCount) }
        let checkpoints: [SpecValue] = (built.manifest.checkpoints ?? []).map { checkpoint in
            .object([
                "collection": .string(checkpoint.collection), "checkpointID": .string(checkpoint.checkpointID),
                "remoteURL": .string(checkpoint.remoteURL),
            ])
        }
        return .object([
            "archive": .string(built.archiveURL.path), "name": .string(built.manifest.name),
            "collections": .object(counts),
            "checkpoints": .array(checkpoints),
        ])
    }

    /// Puts `given.fixture` in place as database `name`: a `<name>.quire` database folder is
    /// copied (`Database.copy`), a `.quire.zip` archive installed (`FixtureInstaller`), and a
    /// dataset folder (`index.json` beside its JSON Lines files) first built into an archive
    /// with every collection, then installed. Scratch files stay inside `directory`.
    static func install(fixture: URL, as name: String, in directory: URL) throws {
        let manager = FileManager.default
        let path = fixture.path
        let config = DatabaseConfiguration(directory: directory.path)
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw QuireError(.notFound, "fixture \(path) does not exist")
        }
        if isFolder.boolValue, manager.fileExists(atPath: path + "/db.sqlite3") {
            try Database.copy(fromPath: path, toDatabase: name, withConfig: config)
            return
        }
        let scratch = directory.appendingPathComponent(".given-fixture", isDirectory: true)
        try? manager.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? manager.removeItem(at: scratch) }
        if !isFolder.boolValue, path.hasSuffix(".zip") {
            try FixtureInstaller.install(archive: fixture, name: name, config: config, temporaryDirectory: scratch)
            return
        }
        if isFolder.boolValue, manager.fileExists(atPath: path + "/" + DatasetIndex.fileName) {
            let recipeName = FixtureRecipe.isValidName(name) ? name : "fixture"
            let quotedPath = String(decoding: try JSONEncoder().encode(path), as: UTF8.self)
            let recipe = try FixtureRecipe.parse(
                Data("name: \(recipeName)\nsource:\n  dataset: \(quotedPath)\n".utf8), fileName: "given.fixture",
                baseFolder: fixture.deletingLastPathComponent())
            let built = try FixtureBuilder(recipe: recipe).build(into: scratch.appendingPathComponent("built"))
            try FixtureInstaller.install(
                archive: built.archiveURL, name: name, config: config, temporaryDirectory: scratch)
            return
        }
        throw EngineError(
            domain: EngineError.conformanceDomain, code: "unsupported",
            message: "fixture \(path) is none of a database folder (<name>.quire with db.sqlite3), "
                + "a fixture archive (.quire.zip) or a dataset folder (with \(DatasetIndex.fileName))")
    }
}
