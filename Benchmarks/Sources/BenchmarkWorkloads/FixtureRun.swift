import BenchmarkCatalog
import Foundation
@_spi(Codec) import Quire
import QuireFixtureBuilder
import QuireFixtures

/// Building a fixture of people or hotels from a generated dataset, or installing and opening
/// one: Quire through `QuireFixtures` (as `quire fixture build` and `quire fixture install`
/// do), the SQLite baseline through ``PlainFixture``. The dataset (and, for installs, the
/// archive) is made once, outside the measurement.
final class FixtureRun: WorkloadRun {
    /// What the fixture holds.
    enum Contents {
        /// ``WorkloadSize/fixtureDocuments`` people (about 300 B) of the `names` dataset.
        case people
        /// ``WorkloadSize/fixtureHotels`` hotels (a few KB) of the `travel` dataset, its
        /// `inventory.hotel` collection alone.
        case hotels

        /// The fixture's name, and the installed database's.
        var name: String {
            switch self {
            case .people: "people"
            case .hotels: "hotels"
            }
        }
    }

    /// Documents per transaction while loading: `quire fixture build`'s default.
    static let batchSize = 1_000

    private let engine: Engine
    private let contents: Contents
    private let install: Bool
    private let folder: URL
    private let recipe: URL
    private let source: URL
    private var archive: URL?
    /// The first document's ID, read after an install.
    private let firstID: String
    private var output: URL?
    private var installed: (database: Database?, connection: RawConnection?) = (nil, nil)

    init(engine: Engine, contents: Contents, install: Bool) throws {
        guard engine == .quire || engine == .sqlite else {
            throw WorkloadFailure("\(engine.rawValue) builds no fixtures")
        }
        self.engine = engine
        self.contents = contents
        self.install = install
        folder = try Scratch.directory(named: "fixture")
        let dataset = folder.appendingPathComponent("dataset", isDirectory: true)
        var recipeText = "name: \(contents.name)\nsource:\n  dataset: dataset\n"
        switch contents {
        case .people:
            try DatasetGenerator(kind: .names, count: WorkloadSize.fixtureDocuments, seed: SampleData.seed).write(
                to: dataset)
            source = dataset.appendingPathComponent("_default.jsonl")
        case .hotels:
            // The travel dataset makes as many hotels as its count (and landmarks, routes...,
            // which the recipe leaves out).
            try DatasetGenerator(kind: .travel, count: WorkloadSize.fixtureHotels, seed: SampleData.seed).write(
                to: dataset)
            source = dataset.appendingPathComponent("inventory.hotel.jsonl")
            recipeText += "collections:\n  - name: inventory.hotel\n"
        }
        recipe = folder.appendingPathComponent("\(contents.name).yaml")
        try Data(recipeText.utf8).write(to: recipe)
        firstID = try Self.firstID(in: source)
        if install { archive = try build(into: folder.appendingPathComponent("archive", isDirectory: true)) }
    }

    /// The `_id` of the first document of the JSON lines file at `url`.
    private static func firstID(in url: URL) throws -> String {
        let data = try Data(contentsOf: url)
        guard let line = data.split(separator: UInt8(ascii: "\n")).first,
            let id = try JSONCodec.parse(line)["_id"]?.stringValue
        else { throw WorkloadFailure("\(url.path) does not start with a document with an _id") }
        return id
    }

    /// Builds the fixture into `output`; returns the archive.
    private func build(into output: URL) throws -> URL {
        switch engine {
        case .quire:
            let builder = FixtureBuilder(recipe: try FixtureRecipe.load(from: recipe), batchSize: Self.batchSize)
            return try builder.build(into: output).archiveURL
        default:
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            return try PlainFixture.build(source: source, into: output, batchSize: Self.batchSize)
        }
    }

    func prepareIteration() throws {
        output = try Scratch.directory(named: install ? "installed" : "built")
    }

    func measured() throws -> Int {
        guard let output else { throw WorkloadFailure("no output folder prepared") }
        guard install, let archive else {
            let built = try build(into: output)
            return Int(try FileManager.default.attributesOfItem(atPath: built.path)[.size] as? Int ?? 0)
        }
        switch engine {
        case .quire:
            let database = try FixtureInstaller.installIfAbsent(
                archive: archive, name: contents.name, config: DatabaseConfiguration(directory: output.path),
                temporaryDirectory: output)
            installed.database = database
            let collection: Quire.Collection? =
                switch contents {
                case .people: try database.defaultCollection()
                case .hotels: try database.collection(name: "hotel", scope: "inventory")
                }
            guard let document = try collection?.document(id: firstID) else {
                throw WorkloadFailure("document \(firstID) not found in the installed fixture")
            }
            return document.count
        default:
            installed.connection = try PlainFixture.install(
                archive: archive, at: output.appendingPathComponent(PlainFixture.fileName), readingID: firstID)
            return 1
        }
    }

    func finishIteration() throws {
        try installed.database?.close()
        installed.connection?.close()
        installed = (nil, nil)
        if let output { try FileManager.default.removeItem(at: output) }
        output = nil
    }

    func tearDown() {
        try? finishIteration()
        try? FileManager.default.removeItem(at: folder)
    }
}
