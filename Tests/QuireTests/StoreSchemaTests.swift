import Foundation
import QuireTestSupport
import Testing

@testable import Quire

/// Migration 3: `WITHOUT ROWID` document tables (schema 1–2) rewritten as tables keyed by
/// sequence, in place, with nothing lost.
@Suite(.offCooperativePool) struct StoreSchemaTests {
    /// The schema as it was before migration 3.
    static let legacyMigrator = SchemaMigrator(
        StoreSchema.migrator.migrations.filter { $0.version < StoreSchema.sequenceKeyedVersion })

    /// Everything a file holds that the upgrade must keep, read through the public API.
    struct Snapshot: Equatable {
        var changes: [String: [ChangeEntry]] = [:]
        var revisions: [String: RevisionInfo] = [:]
        var leaves: [String: [LeafRevision]] = [:]
        var bodies: [String: String] = [:]
        var expirations: [String: Date] = [:]
        var localDocuments: [String: JSONObject] = [:]
        var lastSequences: [String: UInt64] = [:]
        var indexes: [String: [String]] = [:]
        var queryRows: [String] = []
        var fullTextRows: [String] = []
        var blob: Data?
    }

    /// Writes an old-format database with Quire's own API: two collections (one in a scope of
    /// its own, created after the file exists), saves and updates of 300 B to 5 KB bodies,
    /// tombstones, a purge, expirations, conflicts and closed branches from replication,
    /// local checkpoint documents, a value and a full-text index, and a blob.
    static func writeLegacyDatabase(directory: TemporaryDirectory) throws {
        let config = DatabaseConfiguration(directory: directory.path)
        let database = try Database(name: "old", config: config, migrator: legacyMigrator)
        let people = try database.defaultCollection()
        let hotels = try database.createCollection(name: "hotels", scope: "travel")
        try database.inBatch {
            for index in 0..<120 {
                let document = MutableDocument(id: "p\(index)")
                document.setString("Person \(index)", forKey: "name")
                document.setString(["WA", "OR", "CA"][index % 3], forKey: "state")
                document.setString(
                    String(repeating: "note \(index) ", count: index % 4 == 0 ? 400 : 25), forKey: "notes")
                try people.save(document: document)
            }
            for index in 0..<40 {
                let document = MutableDocument(id: "hotel_\(index)")
                document.setString("The \(["Harbor", "Garden", "Castle", "Lake"][index % 4]) Inn", forKey: "name")
                document.setString(
                    index % 2 == 0 ? "Pool and breakfast by the harbor" : "Quiet rooms", forKey: "description")
                document.setString(String(repeating: "review text ", count: 300), forKey: "reviews")
                try hotels.save(document: document)
            }
        }
        // Updates move documents to new sequences; deletes leave tombstones; a purge leaves nothing.
        for index in stride(from: 0, to: 120, by: 7) {
            let document = try #require(try people.document(id: "p\(index)")).toMutable()
            document.setInt(index, forKey: "updated")
            try people.save(document: document)
        }
        for index in stride(from: 3, to: 120, by: 11) {
            try people.delete(document: try #require(try people.document(id: "p\(index)")))
        }
        try people.purge(id: "p5")
        try people.setDocumentExpiration(id: "p1", expiration: Date(timeIntervalSince1970: 4_102_444_800))
        try hotels.setDocumentExpiration(id: "hotel_2", expiration: Date(timeIntervalSince1970: 4_102_444_801))
        // A conflict (two live branches) and a closed branch.
        try people.insert(
            ForeignRevision(documentID: "r", revisionID: "1-aa", ancestors: [], isDeleted: false, body: ["n": 1]))
        try people.insert(
            ForeignRevision(documentID: "r", revisionID: "2-bb", ancestors: ["1-aa"], isDeleted: false, body: ["n": 2]))
        try people.insert(
            ForeignRevision(documentID: "r", revisionID: "2-cc", ancestors: ["1-aa"], isDeleted: false, body: ["n": 3]))
        try people.insert(
            ForeignRevision(
                documentID: "r", revisionID: "3-dd", ancestors: ["2-bb", "1-aa"], isDeleted: true, body: [:]))
        try people.setLocalDocument(
            id: "checkpoint-1", body: ["lastSequence": "42", "history": .array([.object(["session_id": "s1"])])])
        try hotels.setLocalDocument(id: "checkpoint-2", body: ["lastSequence": "7"])
        try hotels.createIndex(withName: "byName", config: ValueIndexConfiguration(["name"]))
        try hotels.createIndex(withName: "text", config: FullTextIndexConfiguration(["description"]))
        let blob = Blob(contentType: "text/plain", data: Data("a blob kept through the upgrade".utf8))
        try people.save(document: MutableDocument(id: "with-blob").setBlob(blob, forKey: "file"))
        try database.close()
    }

    static func snapshot(_ database: Database) throws -> Snapshot {
        var snapshot = Snapshot()
        let collections = [
            try database.defaultCollection(), try #require(try database.collection(name: "hotels", scope: "travel")),
        ]
        for collection in collections {
            let name = collection.fullName
            let changes = try collection.changes(since: 0)
            snapshot.changes[name] = changes
            snapshot.lastSequences[name] = try collection.lastSequence()
            snapshot.indexes[name] = try collection.indexes()
            for change in changes {
                let key = "\(name)/\(change.documentID)"
                snapshot.revisions[key] = try collection.revisionInfo(id: change.documentID)
                snapshot.leaves[key] = try collection.leaves(id: change.documentID)
                if let document = try collection.document(id: change.documentID) {
                    snapshot.bodies[key] = document.toJSON()
                }
                if let expiration = try collection.getDocumentExpiration(id: change.documentID) {
                    snapshot.expirations[key] = expiration
                }
            }
            for id in try collection.localDocumentIDs() {
                snapshot.localDocuments["\(name)/\(id)"] = try collection.localDocument(id: id)
            }
        }
        snapshot.queryRows = try database.createQuery(
            "SELECT meta().id, name FROM travel.hotels WHERE name = 'The Lake Inn' ORDER BY meta().id"
        ).rows()
        snapshot.fullTextRows = try database.createQuery(
            "SELECT meta().id FROM travel.hotels WHERE MATCH(text, 'harbor') ORDER BY meta().id"
        ).rows()
        snapshot.blob = try database.defaultCollection().document(id: "with-blob")?.blob(forKey: "file")?.content
        return snapshot
    }

    /// The layout of every document table, by name: true for the old `WITHOUT ROWID` one.
    static func layouts(_ database: Database) throws -> [String: Bool] {
        try database.read { connection in
            let tables = try connection.query(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB 'docs_[0-9]*' AND name NOT LIKE '%_fts_%'"
            ) {
                $0.text(at: 0) ?? ""
            }
            return Dictionary(
                uniqueKeysWithValues: try tables.map {
                    ($0, try StoreSchema.isLegacyDocumentTable(connection, table: $0))
                })
        }
    }

    /// The snapshot of the old file, read with the old schema (the database object is gone
    /// when this returns, so the next open makes a core that migrates).
    static func readLegacy(config: DatabaseConfiguration) throws -> Snapshot {
        let old = try Database(name: "old", config: config, migrator: legacyMigrator)
        #expect(try old.read { try $0.scalarInt("PRAGMA user_version") } == 2)
        #expect(try layouts(old).values.allSatisfy { $0 })
        let snapshot = try self.snapshot(old)
        try old.close()
        return snapshot
    }

    @Test func anOldFormatDatabaseIsUpgradedInPlaceWithNothingLost() throws {
        let directory = TemporaryDirectory("quire-schema")
        try Self.writeLegacyDatabase(directory: directory)
        let config = DatabaseConfiguration(directory: directory.path)

        // Read the old file as it is, without migrating it.
        let before = try Self.readLegacy(config: config)
        #expect(before.changes["_default._default"]?.count == 121)
        #expect(before.leaves["_default._default/r"]?.count == 2)
        #expect(before.expirations.count == 2)
        #expect(before.localDocuments.count == 2)
        #expect(before.queryRows.count == 10)
        #expect(before.fullTextRows.count == 20)
        #expect(before.blob != nil)

        let upgraded = try Database(name: "old", config: config)
        #expect(try upgraded.read { try $0.scalarInt("PRAGMA user_version") } == StoreSchema.migrator.latestVersion)
        #expect(try Self.layouts(upgraded) == ["docs_1": false, "docs_2": false])
        #expect(try upgraded.read { try $0.integrityProblems() } == [])
        #expect(
            try upgraded.read { try $0.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'quire_rekey_%'") }
                == 0)
        let after = try Self.snapshot(upgraded)
        #expect(after == before)

        // The indexes were rebuilt: the planner uses the value index, and the full-text
        // triggers follow new writes.
        let hotels = try #require(try upgraded.collection(name: "hotels", scope: "travel"))
        #expect(
            try upgraded.createQuery("SELECT meta().id FROM travel.hotels WHERE name = 'The Lake Inn'").explain()
                .contains("_vi_byName"))
        let moved = try #require(try hotels.document(id: "hotel_1")).toMutable()
        moved.setString("Now by the harbor", forKey: "description")
        try hotels.save(document: moved)
        #expect(try hotels.document(id: "hotel_1")?.sequence ?? 0 > before.lastSequences["travel.hotels"] ?? .max)
        let matches = try upgraded.createQuery("SELECT meta().id FROM travel.hotels WHERE MATCH(text, 'harbor')").rows()
        #expect(matches.count == 21)
        let fresh = try upgraded.createCollection(name: "fresh")
        try fresh.save(document: MutableDocument(id: "n", data: ["x": 1]))
        #expect(try Self.layouts(upgraded)["docs_3"] == false)
        try upgraded.close()
    }

    @Test func aNewDatabaseIsKeyedBySequenceAndAnOldOneMakesOldTables() throws {
        let directory = TemporaryDirectory("quire-schema")
        let config = DatabaseConfiguration(directory: directory.path)
        let database = try Database(name: "new", config: config)
        try database.createCollection(name: "more")
        #expect(try Self.layouts(database) == ["docs_1": false, "docs_2": false])
        try database.close()
        let old = try Database(name: "old", config: config, migrator: Self.legacyMigrator)
        try old.createCollection(name: "more")
        #expect(try Self.layouts(old) == ["docs_1": true, "docs_2": true])
        try old.close()
    }

    /// SIGKILL at varying moments of the upgrade (a file with thousands of 1–2 KB documents, so
    /// the rewrite takes a while): the upgrade is one transaction, so every kill leaves either
    /// the old file, readable as it was, or the finished upgrade; opening it afterwards gives
    /// the same documents, revisions, tombstones, expirations, checkpoints, indexes and blobs.
    /// `QUIRE_UPGRADE_KILLS` sets the number of kills (6 by default).
    @Test func aKillDuringTheUpgradeLeavesTheOldFormatReadable() throws {
        let helper = try #require(
            CrashConsistencyTests.helperURL, "the quire-test-helper executable is built beside the tests")
        let runs = Int(ProcessInfo.processInfo.environment["QUIRE_UPGRADE_KILLS"] ?? "") ?? 6
        let pristine = TemporaryDirectory("quire-upgrade-pristine")
        try Self.writeLegacyDatabase(directory: pristine)
        do {
            let old = try Database(
                name: "old", config: DatabaseConfiguration(directory: pristine.path), migrator: Self.legacyMigrator)
            let bulk = try old.createCollection(name: "bulk")
            try old.inBatch {
                for index in 0..<4000 {
                    try bulk.save(
                        document: MutableDocument(
                            id: "b\(index)",
                            data: ["i": index, "text": String(repeating: "lorem ipsum ", count: 80 + index % 80)]))
                }
            }
            try old.close()
        }
        let before = try Self.readLegacy(config: DatabaseConfiguration(directory: pristine.path))
        let fileName = "old.\(Database.folderExtension)"
        var random = SeededGenerator(seed: 0x0B5E)
        var outcomes: [Int64: Int] = [:]
        var insideUpgrade = 0
        for run in 0..<runs {
            let work = TemporaryDirectory("quire-upgrade")
            try FileManager.default.copyItem(atPath: pristine.file(fileName), toPath: work.file(fileName))
            let process = Process()
            process.executableURL = helper
            process.arguments = ["upgrade", work.path, "old"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var seen = ""
            while !seen.contains("opening") {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                seen += String(decoding: data, as: UTF8.self)
            }
            // Spread the kills from the file's opening to past the commit.
            usleep(UInt32(random.next() % 400_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            seen += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

            // The file as the kill left it, read without changing it. A WAL with frames in it
            // at the old version means the kill landed inside the upgrade's transaction (the
            // pristine file was closed with an empty WAL; the rewrite spills pages to it).
            let file = work.file("\(fileName)/\(Database.fileName)")
            let walBytes = (try? FileManager.default.attributesOfItem(atPath: file + "-wal")[.size] as? Int) ?? 0
            let version = try Database.withReadOnlyConnection(path: file) { connection -> Int64 in
                #expect(try connection.integrityProblems() == [], "run \(run)")
                #expect(
                    try connection.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'quire_rekey_%'") == 0)
                let version = try connection.scalarInt("PRAGMA user_version") ?? 0
                let legacy = try StoreSchema.isLegacyDocumentTable(connection, table: "docs_1")
                #expect(legacy == (version < StoreSchema.sequenceKeyedVersion), "run \(run): version \(version)")
                #expect(try connection.scalarInt("SELECT count(*) FROM docs_3") == 4000, "run \(run)")
                return version
            }
            #expect(version == 2 || version == StoreSchema.migrator.latestVersion, "run \(run): version \(version)")
            #expect(version == StoreSchema.migrator.latestVersion || !seen.contains("upgraded"), "run \(run)")
            outcomes[version, default: 0] += 1
            if version == 2, walBytes > 0 { insideUpgrade += 1 }
            if version == 2 {
                // Still the old format, and Quire of that format still reads all of it.
                #expect(
                    try Self.readLegacy(config: DatabaseConfiguration(directory: work.path)) == before, "run \(run)")
            }
            let upgraded = try Database(name: "old", config: DatabaseConfiguration(directory: work.path))
            #expect(try Self.snapshot(upgraded) == before, "run \(run)")
            #expect(try upgraded.collection(name: "bulk")?.count == 4000)
            try upgraded.close()
        }
        print(
            "upgrade kills: \(runs) SIGKILLs; left at schema version: \(outcomes.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")); \(insideUpgrade) inside the upgrade's transaction"
        )
    }
}
