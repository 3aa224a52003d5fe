import Foundation
import Quire
import QuireTestSupport
import Testing

/// `quire db export` → `quire fixture build` → `quire fixture install` → `quire db ls` on a
/// generated travel dataset, every step through the built executable: every document and
/// every blob comes back byte for byte; `quire db import` of the export gives the same.
@Suite(.offCooperativePool) struct DbRoundTripTests {
    @Test func exportBuildInstallListGivesBackEveryDocumentAndBlob() throws {
        let scratch = try DbScratchFolder()
        defer { scratch.cleanUp() }
        let quire = DbCommandRunner(
            executable: try #require(DbCommandRunner.quireURL, "the quire executable is built beside the tests"),
            directory: scratch.url)
        let epoch = ["SOURCE_DATE_EPOCH": "1767225600"]

        // The original: a generated dataset, built and installed as Apps/a.quire.
        _ = try quire.succeed(["fixture", "generate", "travel", "--count", "12", "--seed", "3", "-o", "generated"])
        _ = try scratch.write("name: travel-a\nsource:\n  dataset: generated\n", to: "a.yaml")
        _ = try quire.succeed(["fixture", "build", "a.yaml", "-o", "out"], environment: epoch)
        _ = try quire.succeed(["fixture", "install", "out/travel-a.quire.zip", "--name", "a", "--directory", "Apps"])

        // Export: the same documents, line for line, and the same blob files as generated.
        let exported = try quire.succeed(["db", "export", "Apps/a.quire", "exported", "--name", "travel"])
        #expect(exported.hasPrefix("Exported "), "\(exported)")
        let generatedIndex = try JSONReader.parse(try Data(contentsOf: scratch.file("generated/index.json")))
        let exportedIndex = try JSONReader.parse(try Data(contentsOf: scratch.file("exported/index.json")))
        let collections = try #require(generatedIndex["collections"]?.arrayValue?.compactMap { $0.stringValue })
        #expect(collections.count == 5)
        #expect(
            Set(exportedIndex["collections"]?.arrayValue?.compactMap(\.stringValue) ?? [])
                == Set(collections + ["_default"]))
        for collection in collections {
            let original = try Self.lines(scratch.file("generated/\(collection).jsonl"))
            let copy = try Self.lines(scratch.file("exported/\(collection).jsonl"))
            #expect(!original.isEmpty && copy == original.sorted { $0.lexicographicallyPrecedes($1) }, "\(collection)")
        }
        let blobs = try Self.files(in: scratch.file("generated/Attachments"))
        #expect(!blobs.isEmpty)
        #expect(try Self.files(in: scratch.file("exported/Attachments")) == blobs)

        // Build and install the export as Apps/b.quire: ls gives the same bodies, export the same bytes.
        _ = try scratch.write("name: travel-b\nsource:\n  dataset: exported\n", to: "b.yaml")
        _ = try quire.succeed(["fixture", "build", "b.yaml", "-o", "out"], environment: epoch)
        _ = try quire.succeed(["fixture", "install", "out/travel-b.quire.zip", "--name", "b", "--directory", "Apps"])
        for collection in collections {
            let before = try Self.listing(quire, "Apps/a.quire", collection)
            let after = try Self.listing(quire, "Apps/b.quire", collection)
            #expect(
                before.split(separator: "\n").count
                    == (try Self.lines(scratch.file("generated/\(collection).jsonl"))).count)
            #expect(after == before, "\(collection)")
        }
        // Import the export into a new database: the same documents, every blob present.
        _ = try quire.succeed(["db", "create", "imported"])
        #expect(
            try quire.succeed(["db", "import", "imported", "exported"]).hasSuffix(
                " and \(blobs.count) blobs from exported\n"))
        _ = try quire.succeed(["db", "check", "imported"])
        for collection in collections {
            let before = try Self.listing(quire, "Apps/a.quire", collection)
            #expect(try Self.listing(quire, "imported", collection) == before, "\(collection)")
        }
        _ = try quire.succeed(["db", "export", "Apps/b.quire", "exported-again", "--name", "travel"])
        let first = try Self.files(in: scratch.file("exported"))
        #expect(try Self.files(in: scratch.file("exported-again")) == first)
        #expect(first.keys.contains("index.json") && first.count == collections.count + 2 + blobs.count)
    }

    /// `quire db ls --body --json` of a collection without each row's `sequence`: a sequence
    /// belongs to the database a document is stored in, not to the document.
    static func listing(_ quire: DbCommandRunner, _ database: String, _ collection: String) throws -> String {
        let listed = try quire.succeed(["db", "ls", database, collection, "--body", "--json"])
        return listed.replacingOccurrences(of: #","sequence":[0-9]+"#, with: "", options: .regularExpression)
    }

    /// The non-blank lines of a file, as bytes.
    static func lines(_ url: URL) throws -> [[UInt8]] {
        [UInt8](try Data(contentsOf: url)).split(separator: 0x0a).map(Array.init)
    }

    /// Every file under `folder` (relative path) with its bytes.
    static func files(in folder: URL) throws -> [String: Data] {
        var found: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let url = folder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                found[name] = try Data(contentsOf: url)
            }
        }
        return found
    }
}
