import Foundation
import QuireFixturesTestSupport
import Testing

@testable import Quire
@testable import QuireFixtureBuilder
@testable import QuireFixtures

/// Fixture format 2 (document tables keyed by sequence) and format 1 (`WITHOUT ROWID`) side
/// by side: both verify and install, a build writes 2, and a format-2 file stays close to a
/// plain table of the same bodies.
@Suite struct FixtureFormatTests {
    private static let archives = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/archives", isDirectory: true)

    /// Every document of every collection (ID, revision, body) and the content of every blob
    /// the manifest lists.
    private func contents(of database: Database, blobs: [String]) throws -> (
        documents: [String: String], blobs: [String: Data]
    ) {
        var documents: [String: String] = [:]
        for scope in try database.scopes() {
            for collection in try database.collections(scope: scope.name) {
                for change in try collection.changes(since: 0) {
                    let body = try collection.document(id: change.documentID)?.toJSON() ?? "deleted"
                    documents["\(collection.fullName)/\(change.documentID)"] = "\(change.revisionID) \(body)"
                }
            }
        }
        var contents: [String: Data] = [:]
        for digest in blobs {
            contents[digest] = try database.getBlob(properties: ["@type": "blob", "digest": digest])?.content
        }
        return (documents, contents)
    }

    private func schemaVersion(_ database: Database) throws -> Int64? {
        try database.read { try $0.scalarInt("PRAGMA user_version") }
    }

    @Test func anOldFormatFixtureVerifiesInstallsAndIsUpgradedWithEveryDocumentAndBlob() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let old = Self.archives.appendingPathComponent("format-1/travel-20.quire.zip")
        let new = Self.archives.appendingPathComponent("travel-20.quire.zip")
        let (oldReport, oldManifest, newManifest) = try withArchiveLock {
            (
                FixtureVerifier(archiveURL: old).verify(), try FixtureInspector.inspect(archive: old).manifest,
                try FixtureInspector.inspect(archive: new).manifest
            )
        }
        #expect(oldReport.isValid, "\(oldReport.text)")
        #expect(oldReport.text.contains("schema: version 2 (fixture format 1)"), "\(oldReport.text)")
        #expect(oldManifest.formatVersion == 1)
        #expect(newManifest.formatVersion == QuireFixtures.formatVersion)

        let config = DatabaseConfiguration(directory: scratch.file("apps").path)
        let upgraded = try withArchiveLock {
            try FixtureInstaller.installIfAbsent(archive: old, name: "old", config: config)
        }
        defer { try? upgraded.close() }
        let current = try withArchiveLock {
            try FixtureInstaller.installIfAbsent(archive: new, name: "new", config: config)
        }
        defer { try? current.close() }
        #expect(try schemaVersion(upgraded) == 7)
        #expect(try schemaVersion(current) == 7)
        let before = try contents(of: upgraded, blobs: oldManifest.blobs)
        let after = try contents(of: current, blobs: newManifest.blobs)
        #expect(before.documents.count == 92)
        #expect(before.documents == after.documents)
        #expect(before.blobs.count == 4)
        #expect(before.blobs.values.allSatisfy { !$0.isEmpty })
        #expect(before.blobs == after.blobs)
        #expect(try upgraded.read { try $0.integrityProblems() } == [])
    }

    @Test func aManifestWhoseFormatDoesNotMatchItsDatabaseFailsVerification() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let report = try withArchiveLock { () throws -> FixtureVerificationReport in
            let built = try SampleFixture.buildTravel(in: scratch)
            let mislabelled = scratch.file("mislabelled.quire.zip")
            try SampleFixture.repack(built, to: mislabelled) { folder in
                try SampleFixture.editManifest(in: folder) { $0.formatVersion = 1 }
            }
            return FixtureVerifier(archiveURL: mislabelled).verify()
        }
        #expect(!report.isValid)
        #expect(report.text.contains("version 7 does not match format 1, which holds schema 1 to 2"), "\(report.text)")
    }

    /// Issue 14's target: a built fixture of 1,000 hotels (a few KB each) is at most 1.15×
    /// the size of a plain rowid table holding the same bodies under a unique key.
    @Test func aBuiltFixtureOfAThousandHotelsIsWithinFifteenPercentOfAPlainTable() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        try DatasetGenerator(kind: .travel, count: 1000, seed: 1).write(to: scratch.file("data/travel"))
        let recipeURL = try scratch.write(
            "name: hotels\nsource:\n  dataset: ../data/travel\ncollections:\n  - name: inventory.hotel\n",
            to: "recipes/hotels.yaml")
        let built = try withArchiveLock {
            try FixtureBuilder(recipe: try FixtureRecipe.load(from: recipeURL)).build(into: scratch.file("out"))
        }
        #expect(built.manifest.collections.first { $0.name == "inventory.hotel" }?.documentCount == 1000)
        let database = try #require(built.manifest.entries.first { $0.path.hasSuffix("db.sqlite3") })

        // The same bodies, as a careful engineer would store them by hand.
        let folder = try withArchiveLock {
            try SafeArchiveReader(archiveURL: built.archiveURL).extract(nextTo: scratch.file("x"))
        }
        let rows = try Database.withReadOnlyConnection(path: folder.appendingPathComponent(database.path).path) {
            connection in
            let id = try #require(
                try connection.scalarInt(
                    "SELECT id FROM quire_collections WHERE scope = 'inventory' AND name = 'hotel'"))
            return try connection.query("SELECT key, body FROM docs_\(id) ORDER BY sequence") {
                ($0.text(at: 0) ?? "", $0.text(at: 1) ?? "")
            }
        }
        #expect(rows.count == 1000)
        let plainPath = scratch.file("plain.sqlite3").path
        let plain = try Connection(path: plainPath, role: .writer, options: Connection.Options())
        try plain.execute("CREATE TABLE docs (key TEXT NOT NULL UNIQUE, body TEXT NOT NULL)")
        try plain.transaction {
            for (key, body) in rows {
                try plain.run("INSERT INTO docs (key, body) VALUES (?, ?)", [.text(key), .text(body)])
            }
        }
        try plain.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try plain.execute("VACUUM")
        plain.close()
        let plainSize = try #require(try FileManager.default.attributesOfItem(atPath: plainPath)[.size] as? Int64)
        let ratio = Double(database.size) / Double(plainSize)
        let jsonBytes = rows.reduce(0) { $0 + $1.1.utf8.count }
        print(
            "1,000 hotels (\(jsonBytes / rows.count) B of JSON each): fixture database \(database.size) bytes, "
                + "plain rowid table \(plainSize) bytes, ratio \(String(format: "%.3f", ratio))")
        #expect(ratio <= 1.15, "fixture \(database.size) bytes against \(plainSize) bytes for a plain table")
    }
}
