import Foundation
import Quire
import QuireFixturesTestSupport
import QuireTestSupport
import Testing

@testable import QuireFixtures

/// The `quire` executable's `fixture verify` and `fixture install` on a corpus of hostile
/// archives made here: each is refused with an error that says why, exits non-zero without a
/// crash, and writes nothing outside its temporary folder (which it empties again).
///
/// The child gets `TMPDIR` and its working directory inside a scratch folder, so everything it
/// could write is there to be checked.
@Suite(.offCooperativePool) struct FixtureCommandTests {
    static var quireURL: URL? {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ].compactMap { $0 }
        return candidates.map { $0.appendingPathComponent("quire") }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }

    @Test(arguments: HostileArchiveCorpus.cases.indices, ["verify", "install"])
    func refusesAHostileArchive(index: Int, command: String) throws {
        let quire = try #require(Self.quireURL, "the quire executable is built beside the tests")
        let (name, fragment, make) = HostileArchiveCorpus.cases[index]
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let archive = try scratch.folder("in").appendingPathComponent("fixture.quire.zip")
        try withArchiveLock { try make(scratch, archive) }
        try? FileManager.default.removeItem(at: scratch.file("good"))
        let temporary = try scratch.folder("tmp")
        let workingDirectory = try scratch.folder("cwd")
        let databases = try scratch.folder("apps")
        let before = contents(of: scratch.url)

        let arguments =
            command == "verify"
            ? ["fixture", "verify", archive.path]
            : ["fixture", "install", archive.path, "--name", "travel", "--directory", databases.path]
        let (status, output) = try runCommand(quire, arguments, temporary: temporary, in: workingDirectory)

        #expect(status != 0, "\(name): \(command) accepted it")
        #expect(output.contains(fragment), "\(name): \(command) said: \(output)")
        #expect(!output.contains("Fatal error") && !output.contains("crashed"), "\(name): \(output)")
        #expect(contents(of: temporary).isEmpty, "\(name): \(command) left \(contents(of: temporary)) in TMPDIR")
        #expect(contents(of: scratch.url) == before, "\(name): \(command) wrote outside its temporary folder")
    }

    @Test func aGoodFixtureStillVerifiesAndInstalls() throws {
        let quire = try #require(Self.quireURL, "the quire executable is built beside the tests")
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let archive = try withArchiveLock { try SampleFixture.buildTravel(in: scratch) }
        let temporary = try scratch.folder("tmp")
        let databases = try scratch.folder("apps")
        let verified = try runCommand(
            quire, ["fixture", "verify", archive.path], temporary: temporary, in: scratch.url)
        #expect(verified.status == 0, "\(verified.output)")
        let installed = try runCommand(
            quire, ["fixture", "install", archive.path, "--name", "travel", "--directory", databases.path],
            temporary: temporary, in: scratch.url)
        #expect(installed.status == 0, "\(installed.output)")
        #expect(contents(of: databases).contains("travel.quire/db.sqlite3"))
        #expect(contents(of: temporary).isEmpty)
    }

    /// The README's "Prebuilt databases" section as written, run through the built executable:
    /// generate, build, verify, inspect (text and JSON), install, install again with
    /// `--if-absent`, then open the installed database and query it.
    @Test func theReadmeRoundTripWorksFromTheCommandLine() throws {
        let quire = try #require(Self.quireURL, "the quire executable is built beside the tests")
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let temporary = try scratch.folder("tmp")
        func quireSays(_ arguments: [String]) throws -> String {
            let (status, output) = try runCommand(
                quire, arguments, temporary: temporary, in: scratch.url,
                environment: ["SOURCE_DATE_EPOCH": "1767225600"])
            #expect(status == 0, "quire \(arguments.joined(separator: " ")): \(output)")
            return output
        }

        #expect(
            try quireSays(["fixture", "generate", "travel", "--count", "20", "--seed", "1", "-o", "my-travel"])
                .contains("Wrote dataset"))
        _ = try scratch.write(
            """
            name: my-travel
            source:
              dataset: my-travel                                 # or: jsonl: {_default: people.jsonl}
            collections:                                         # default: every collection of the source
              - name: inventory.hotel
                indexes:
                  - {name: by_city, value: [city]}
                  - {name: reviews, fullText: [description]}
              - name: inventory.route

            """, to: "my-travel.yaml")
        _ = try quireSays(["fixture", "build", "my-travel.yaml", "-o", "out"])
        let archive = "out/my-travel.quire.zip"
        #expect(FileManager.default.fileExists(atPath: scratch.file(archive).path))
        #expect(try quireSays(["fixture", "verify", archive]).contains("matches its manifest"))

        // The counts the dataset holds, one document per JSON line.
        func lines(_ collection: String) throws -> Int {
            try String(contentsOf: scratch.file("my-travel/\(collection).jsonl"), encoding: .utf8)
                .split(separator: "\n").count
        }
        let expected = [
            "inventory.hotel": try lines("inventory.hotel"), "inventory.route": try lines("inventory.route"),
        ]
        #expect(expected.values.allSatisfy { $0 > 0 })

        let text = try quireSays(["fixture", "inspect", archive])
        for (name, count) in expected {
            let line = text.split(separator: "\n").first {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + " ")
            }
            #expect(line?.contains(" \(count) documents, ") == true, "\(name) in: \(text)")
            #expect(line?.contains("(manifest:") == false, "\(name) in: \(text)")
        }
        #expect(text.contains("inventory.hotel/by_city: value on city"))
        let json = try quireSays(["fixture", "inspect", archive, "--json"])
        let inspection = try JSONDecoder().decode(FixtureInspection.self, from: Data(json.utf8))
        let counts = Dictionary(uniqueKeysWithValues: inspection.collections.map { ($0.name, $0.documentCount) })
        let listed = Dictionary(
            uniqueKeysWithValues: inspection.manifest.collections.map { ($0.name, $0.documentCount) })
        for (name, count) in expected {
            #expect(counts[name] == count, "\(name)")
            #expect(listed[name] == count, "\(name)")
        }

        let install = ["fixture", "install", archive, "--name", "travel", "--directory", "Apps"]
        #expect(try quireSays(install).contains("Installed"))
        let config = DatabaseConfiguration(directory: scratch.file("Apps").path)
        do {
            let installed = try Database(name: "travel", config: config)
            try installed.defaultCollection().save(
                document: MutableDocument(id: "only-the-first-copy", data: ["mine": true]))
            try installed.close()
        }
        let again = try quireSays(install + ["--if-absent"])
        #expect(again.contains("left untouched"), "\(again)")

        let database = try Database(name: "travel", config: config)
        defer { try? database.close() }
        #expect(try database.defaultCollection().document(id: "only-the-first-copy")?.boolean(forKey: "mine") == true)
        let hotels = try #require(try database.collection(name: "hotel", scope: "inventory"))
        #expect(hotels.count == (expected["inventory.hotel"] ?? -1))
        let city = try #require(try hotels.document(id: "hotel_1")?.string(forKey: "city"))
        let query = try database.createQuery("SELECT name FROM inventory.hotel WHERE city = $city ORDER BY name")
        let parameters = Parameters()
        parameters.setString(city, forName: "city")
        query.parameters = parameters
        #expect(try !query.execute().map { $0.string(forKey: "name") ?? "" }.isEmpty)
        #expect(try query.explain().contains("by_city"))
        #expect(contents(of: temporary).isEmpty)
    }
}
