import Foundation
import Quire
import QuireFixtures
import Testing

/// What an app that ships a prebuilt database does, with nothing but `Quire` and the install
/// side of `QuireFixtures`: install the committed travel fixture on first launch, open it,
/// read its documents and blobs, and leave it alone on the next launch.
///
/// The target's dependencies are the point: `Tests/Scripts/install-only-dependencies` fails
/// when anything it links reaches the replicator, the listener, Hummingbird, NIO or YAML.
@Suite struct PrebuiltDatabaseTests {
    private static let archive = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/archives/travel-20.quire.zip")

    @Test func anAppInstallsThePrebuiltDatabaseOnceAndReadsIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "quire-install-only-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = DatabaseConfiguration(directory: directory.path)

        let report = FixtureVerifier(archiveURL: Self.archive).verify()
        #expect(report.isValid, "\(report.text)")
        let manifest = try FixtureInspector.inspect(archive: Self.archive).manifest

        let database = try FixtureInstaller.installIfAbsent(archive: Self.archive, name: "travel", config: config)
        var counts: [String: Int] = [:]
        for scope in try database.scopes() {
            for collection in try scope.collections() { counts[collection.fullName] = Int(collection.count) }
        }
        let expected = Dictionary(uniqueKeysWithValues: manifest.collections.map { ($0.name, $0.documentCount) })
        #expect(counts == expected)
        #expect(counts["inventory.hotel"] == 20)

        let hotels = try #require(try database.collection(name: "hotel", scope: "inventory"))
        let hotel = try #require(try hotels.document(id: "hotel_1"))
        #expect(hotel.string(forKey: "city") == "Edinburgh")
        let image = try #require(hotel.blob(forKey: "image"))
        let png = try #require(image.content)
        #expect(png.count == Int(image.length))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))

        // The app writes; the next launch finds the database and keeps what it wrote.
        let note = MutableDocument(id: "note_1")
        note.setString("kept", forKey: "state")
        try hotels.save(document: note)
        try database.close()

        let outcome = try FixtureInstaller.install(
            archive: Self.archive, name: "travel", config: config, ifAbsent: true)
        #expect(outcome == .alreadyPresent)
        let reopened = try FixtureInstaller.installIfAbsent(archive: Self.archive, name: "travel", config: config)
        defer { try? reopened.close() }
        let kept = try #require(try reopened.collection(name: "hotel", scope: "inventory"))
        #expect(try kept.document(id: "note_1")?.string(forKey: "state") == "kept")
        #expect(kept.count == 21)
    }

    @Test func aDamagedArchiveIsRefusedAndNothingIsInstalled() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "quire-install-only-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var bytes = try Data(contentsOf: Self.archive)
        bytes.removeLast(bytes.count / 2)
        let damaged = directory.appendingPathComponent("damaged.quire.zip")
        try bytes.write(to: damaged)

        let databases = directory.appendingPathComponent("databases")
        #expect(throws: QuireError.self) {
            try FixtureInstaller.install(
                archive: damaged, name: "travel", config: DatabaseConfiguration(directory: databases.path))
        }
        #expect(!Database.exists(withName: "travel", inDirectory: databases.path))
    }
}
