import Foundation
import Quire
import QuireFixturesTestSupport
import Testing

@testable import QuireFixtureBuilder
@testable import QuireFixtures

@Suite struct FixtureBuilderTests {
    private let timestamp = FixtureTimestamp(secondsSinceEpoch: 1_900_000_000)

    /// The private and public UUIDs in an archive's database.
    private func identity(of archive: URL, scratch: ScratchFolder) throws -> [String] {
        let folder = try SafeArchiveReader(archiveURL: archive).extract(nextTo: scratch.file("peek"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try #require(contents(of: folder).first { $0.hasSuffix("/db.sqlite3") })
        return try Database.withReadOnlyConnection(path: folder.appendingPathComponent(file).path) { connection in
            try connection.query("SELECT value FROM quire_info WHERE key IN ('privateUUID', 'publicUUID') ORDER BY key")
            {
                $0.text(at: 0) ?? ""
            }
        }
    }

    @Test func twoBuildsAreByteIdenticalWhateverTheTimeZoneAndBatchSize() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let timestamp = timestamp
        let (first, second) = try await onOwnThread {
            let recipe = try withArchiveLock { try SampleFixture.travelRecipe(in: scratch) }
            let first = try withTimeZone("UTC") {
                try FixtureBuilder(recipe: recipe, timestamp: timestamp).build(into: scratch.file("a")).archiveURL
            }
            let second = try withTimeZone("Pacific/Kiritimati") {
                try FixtureBuilder(recipe: recipe, timestamp: timestamp, batchSize: 3).build(into: scratch.file("b"))
                    .archiveURL
            }
            return (first, second)
        }
        let bytes = try Data(contentsOf: first)
        #expect(bytes.count > 1_000)
        #expect(bytes == (try Data(contentsOf: second)))
        #expect(contents(of: scratch.file("a")) == ["travel.quire.zip"])
    }

    @Test func theUUIDsFollowTheInputsAndTheTimestamp() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        try withArchiveLock {
            let recipe = try SampleFixture.travelRecipe(in: scratch)
            let base = try identity(
                of: FixtureBuilder(recipe: recipe, timestamp: timestamp).build(into: scratch.file("a")).archiveURL,
                scratch: scratch)
            let again = try identity(
                of: FixtureBuilder(recipe: recipe, timestamp: timestamp).build(into: scratch.file("b")).archiveURL,
                scratch: scratch)
            let later = try identity(
                of: FixtureBuilder(recipe: recipe, timestamp: FixtureTimestamp(secondsSinceEpoch: 1_900_000_002))
                    .build(into: scratch.file("c")).archiveURL, scratch: scratch)
            // One changed document line changes the identity too.
            let hotels = scratch.file("data/travel/inventory.hotel.jsonl")
            var text = try String(contentsOf: hotels, encoding: .utf8)
            text = text.replacingOccurrences(of: "\"type\":\"hotel\"", with: "\"type\":\"inn\"")
            try Data(text.utf8).write(to: hotels)
            let edited = try identity(
                of: FixtureBuilder(recipe: recipe, timestamp: timestamp).build(into: scratch.file("d")).archiveURL,
                scratch: scratch)

            #expect(base.count == 2 && base[0] != base[1])
            #expect(base == again)
            #expect(later != base && edited != base)
            for uuid in base + later + edited {
                let characters = Array(uuid)
                #expect(characters.count == 36 && characters[14] == "8" && "89AB".contains(characters[19]))
                #expect(UUID(uuidString: uuid) != nil)
            }
        }
    }

    @Test func loadsJSONLinesWithAnIDFieldAndExpirations() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        _ = try scratch.write(
            #"""
            {"email":"ann@example.com","n":1,"expires":"2031-01-01T00:00:00Z"}

            {"email":"bob@example.com","n":2.0,"expires":1956528000000}
            {"email":"cy@example.com","n":3}
            """#, to: "people.jsonl")
        _ = try scratch.write(#"{"_id":"note","text":"hi"}"# + "\n", to: "notes.jsonl")
        let url = try scratch.write(
            """
            name: people
            source:
              jsonl: {app.people: people.jsonl, _default: notes.jsonl}
            collections:
              - {name: app.people, id: email, expiration: {field: expires}}
              - {name: _default, expiration: {after: 2d}}
            """, to: "people.yaml")
        let archive = try withArchiveLock {
            try FixtureBuilder(recipe: FixtureRecipe.load(from: url), timestamp: timestamp).build(
                into: scratch.file("out"))
        }
        #expect(archive.manifest.collections.map(\.documentCount) == [1, 3])
        try withArchiveLock {
            try FixtureInstaller.install(
                archive: archive.archiveURL, name: "people",
                config: DatabaseConfiguration(directory: scratch.file("apps").path))
        }
        let database = try Database(
            name: "people",
            config: DatabaseConfiguration(
                directory: scratch.file("apps").path, clock: ManualClock(start: timestamp.date)))
        defer { try? database.close() }
        let people = try #require(try database.collection(name: "people", scope: "app"))
        #expect(people.count == 3)
        let ann = try #require(try people.document(id: "ann@example.com"))
        #expect(ann.string(forKey: "email") == "ann@example.com")
        #expect(ann.value(forKey: "n") as? Int == 1)
        #expect(try people.document(id: "bob@example.com")?.value(forKey: "n") as? Double == 2.0)
        #expect(try people.getDocumentExpiration(id: "ann@example.com") == Date(timeIntervalSince1970: 1_924_992_000))
        #expect(try people.getDocumentExpiration(id: "bob@example.com") == Date(timeIntervalSince1970: 1_956_528_000))
        #expect(try people.getDocumentExpiration(id: "cy@example.com") == nil)
        let notes = try database.defaultCollection()
        #expect(try notes.document(id: "note")?.value(forKey: "_id") == nil)
        #expect(try notes.getDocumentExpiration(id: "note") == Date(timeIntervalSince1970: 1_900_000_000 + 2 * 86_400))
    }

    @Test func blobsGoIntoTheDatabaseAndTheManifest() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let result = try withArchiveLock {
            try FixtureBuilder(recipe: try SampleFixture.travelRecipe(in: scratch)).build(into: scratch.file("out"))
        }
        let dataset = try DatasetReader(folder: scratch.file("data/travel"))
        #expect(result.manifest.blobs == (try dataset.blobDigests()))
        #expect(!result.manifest.blobs.isEmpty)
        #expect(result.manifest.entries.map(\.path) == ["travel.quire/db.sqlite3"])
        #expect(result.manifest.collections.first?.name == "_default._default")

        try withArchiveLock {
            try FixtureInstaller.install(
                archive: result.archiveURL, name: "t",
                config: DatabaseConfiguration(directory: scratch.file("apps").path))
        }
        let database = try Database(name: "t", config: DatabaseConfiguration(directory: scratch.file("apps").path))
        defer { try? database.close() }
        let hotel = try #require(try database.collection(name: "hotel", scope: "inventory")?.document(id: "hotel_1"))
        let blob = try #require(hotel.blob(forKey: "image"))
        let content = try blob.readContent()
        #expect(content.prefix(4) == Data([0x89, 0x50, 0x4e, 0x47]))
        #expect(blob.digest.map(result.manifest.blobs.contains) == true)
    }

    @Test func indexesGoThroughTheIndexerAndIntoTheManifest() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let recipe = try SampleFixture.travelRecipe(
            in: scratch,
            collectionsYAML: """
                collections:
                  - name: inventory.hotel
                    indexes:
                      - {name: hotel_city, value: [city]}
                      - {name: hotel_text, fullText: [description], ignoreAccents: true}
                """)
        try withArchiveLock {
            let result = try FixtureBuilder(recipe: recipe).build(into: scratch.file("out"))
            #expect(
                result.manifest.indexes == [
                    .init(collection: "inventory.hotel", name: "hotel_city", kind: .value, expressions: ["city"]),
                    .init(
                        collection: "inventory.hotel", name: "hotel_text", kind: .fullText,
                        expressions: ["description"],
                        ignoreAccents: true),
                ])
            #expect(result.manifest.collections.map(\.name) == ["_default._default", "inventory.hotel"])
            #expect(FixtureVerifier(archiveURL: result.archiveURL).verify().isValid)

            // The indexes are real: installed, the database answers with them.
            let apps = scratch.file("apps").path
            try FixtureInstaller.install(
                archive: result.archiveURL, name: "t", config: DatabaseConfiguration(directory: apps))
            let database = try Database(name: "t", config: DatabaseConfiguration(directory: apps))
            defer { try? database.close() }
            let hotels = try #require(try database.collection(name: "hotel", scope: "inventory"))
            #expect(try hotels.indexes() == ["hotel_city", "hotel_text"])
            let plan = try database.createQuery("SELECT meta().id FROM inventory.hotel WHERE city = 'Paris'").explain()
            #expect(plan.contains("hotel_city"))
        }
    }

    @Test func badDocumentsAreReportedWithTheirFileAndLine() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        func build(_ lines: String, collection: String = "") throws {
            _ = try scratch.write(lines, to: "docs.jsonl")
            let url = try scratch.write(
                "name: bad\nsource: {jsonl: {_default: docs.jsonl}}\n" + collection, to: "bad.yaml")
            try withArchiveLock {
                try FixtureBuilder(recipe: FixtureRecipe.load(from: url), timestamp: timestamp).build(
                    into: scratch.file("out"))
            }
        }
        expectQuireError(.corruptRevisionData, containing: ["line 2 of 'docs.jsonl', document 'b'", "_rev"]) {
            try build("{\"_id\":\"a\"}\n{\"_id\":\"b\",\"_rev\":\"1-x\"}\n")
        }
        expectQuireError(.corruptData, containing: ["line 1 of 'docs.jsonl'", "not valid JSON"]) {
            try build("{nope\n")
        }
        expectQuireError(
            .invalidParameter, containing: ["line 1 of 'docs.jsonl', document 'a'", "jsonl source has no blobs"]
        ) {
            try build(#"{"_id":"a","img":{"@type":"blob","digest":"sha1-qZk+NkcGgWq6PiVxeFDCbJzQ2J0=","length":3}}"#)
        }
        expectQuireError(
            .invalidParameter, containing: ["document 'a'", "not after the build timestamp 2030-03-17T17:46:40Z"]
        ) {
            try build(
                #"{"_id":"a","until":"2029-01-01T00:00:00Z"}"#,
                collection: "collections: [{name: _default, expiration: {field: until}}]\n")
        }
        expectQuireError(.invalidParameter, containing: ["expiration field 'until' holds 'soon'"]) {
            try build(
                #"{"_id":"a","until":"soon"}"#,
                collection: "collections: [{name: _default, expiration: {field: until}}]\n")
        }
        #expect(contents(of: scratch.file("out")).isEmpty)
    }

    @Test func progressGoesThroughEveryStage() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let seen = ProgressLog()
        let result = try withArchiveLock {
            try FixtureBuilder(recipe: try SampleFixture.travelRecipe(in: scratch), batchSize: 5) { seen.add($0) }
                .build(into: scratch.file("out"))
        }
        let reports = seen.reports
        let total = result.manifest.collections.reduce(0) { $0 + $1.documentCount }
        #expect(reports.allSatisfy { $0.documentsTotal == total })
        #expect(reports.first?.stage == .loading(collection: "inventory.airline"))
        #expect(reports.suffix(4).map(\.stage) == [.indexing, .compacting, .packing, .finished])
        #expect(reports.last?.documentsLoaded == total)
        let loaded = reports.map(\.documentsLoaded)
        #expect(loaded == loaded.sorted())

        let recorder = TextLog()
        let bar = TerminalProgressBar(width: 10) { recorder.add($0) }
        for report in reports { bar.update(report) }
        let drawn = recorder.texts
        #expect(drawn.count < reports.count + 1)
        #expect(drawn.first?.hasPrefix("\r[") == true)
        #expect(drawn.last?.contains("[##########] 100%") == true)
        #expect(drawn.last?.hasSuffix("done\u{1b}[K\n") == true)
        #expect(!TerminalProgressBar.isWanted(environment: ["CI": "true"], isTerminal: true))
        #expect(!TerminalProgressBar.isWanted(environment: [:], isTerminal: false))
        #expect(TerminalProgressBar.isWanted(environment: [:], isTerminal: true))
    }
}

/// Progress reports collected from the building thread.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [FixtureBuildProgress] = []
    func add(_ report: FixtureBuildProgress) { lock.withLock { items.append(report) } }
    var reports: [FixtureBuildProgress] { lock.withLock { items } }
}

/// Text written by a progress bar.
final class TextLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ text: String) { lock.withLock { items.append(text) } }
    var texts: [String] { lock.withLock { items } }
}
