import Foundation
import Quire
import QuireFixturesTestSupport
import Testing

@testable import QuireFixtureBuilder
@testable import QuireFixtures

@Suite struct DatasetReaderTests {
    @Test func readsAGeneratedTravelDataset() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let folder = scratch.file("travel")
        try DatasetGenerator(kind: .travel, count: 12, seed: 42).write(to: folder)
        let reader = try DatasetReader(folder: folder)
        #expect(reader.index.name == "travel-12")
        #expect(reader.index.fullCollectionNames == TravelGenerator.collections)

        var counts: [String: Int] = [:]
        var references: Set<DatasetBlobReference> = []
        var sawAccents = false
        var hotelSizes: [Int] = []
        for collection in reader.index.fullCollectionNames {
            try reader.forEachDocument(in: collection) { document in
                counts[collection, default: 0] += 1
                #expect(document.line == counts[collection])
                #expect(document.properties["_id"] == nil)
                references.formUnion(document.blobReferences)
                if collection == "inventory.hotel" {
                    let json = try JSONSerialization.data(withJSONObject: document.properties)
                    hotelSizes.append(json.count)
                    let text = String(decoding: json, as: UTF8.self)
                    if text.contains("crème brûlée") || text.contains("café") { sawAccents = true }
                }
            }
        }
        #expect(
            counts == [
                "inventory.airline": 2, "inventory.airport": 6, "inventory.hotel": 12, "inventory.landmark": 12,
                "inventory.route": 24,
            ])
        #expect(sawAccents)
        #expect(hotelSizes.allSatisfy { $0 > 1500 })
        #expect(references.count == 4)
        #expect(
            try reader.blobDigests() == references.map(\.digest).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        for reference in references {
            #expect(reference.contentType == "image/png")
            #expect(try reader.verifyBlob(digest: reference.digest) == reference.length)
            let png = try Data(contentsOf: reader.blobURL(forDigest: reference.digest))
            #expect(png.prefix(8) == Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
        }
    }

    @Test func readsTheDefaultCollectionOfNames() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let folder = scratch.file("names")
        try DatasetGenerator(kind: .names, count: 400, seed: 1).write(to: folder)
        let reader = try DatasetReader(folder: folder)
        #expect(reader.index.collections == ["_default"])
        var washington = 0
        var total = 0
        try reader.forEachDocument(in: "_default") { document in
            total += 1
            let contact = document.properties["contact"] as? [String: Any]
            let address = contact?["address"] as? [String: Any]
            if address?["state"] as? String == "WA" { washington += 1 }
            #expect(document.id.hasPrefix("person_"))
        }
        #expect(total == 400)
        #expect(washington > 60)
        #expect(try reader.blobDigests().isEmpty)
    }

    private func dataset(
        _ scratch: ScratchFolder, index: String = #"{"name":"t","collections":["_default","s.c"]}"#, lines: String
    ) throws -> DatasetReader {
        _ = try scratch.write(index, to: "ds/index.json")
        _ = try scratch.write(lines, to: "ds/_default._default.jsonl")
        _ = try scratch.write("", to: "ds/s.c.jsonl")
        return try DatasetReader(folder: scratch.file("ds"))
    }

    @Test func reportsLineNumbers() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        func expectLineError(_ lines: String, _ fragments: [String]) throws {
            let reader = try dataset(scratch, lines: lines)
            expectQuireError(.corruptData, containing: fragments) {
                try reader.forEachDocument(in: "_default") { _ in }
            }
        }
        try expectLineError(
            "{\"_id\":\"a\"}\n\n{\"_id\":\"b\"}\r\n{oops}\n", ["line 4 of '_default._default.jsonl'", "not valid JSON"])
        try expectLineError("{\"_id\":\"a\"}\n[1]\n", ["line 2", "not a JSON object"])
        try expectLineError("{\"x\":1}", ["line 1", "no \"_id\" string"])
        try expectLineError("{\"_id\":\"a\"}\n{\"_id\":\"a\"}", ["line 2", "repeats _id 'a' (first on line 1)"])
        try expectLineError(
            #"{"_id":"a","img":{"@type":"blob","digest":"sha1-bad"}}"#, ["line 1", "document 'a'", "digest"])
    }

    @Test func readsLinesWithoutATrailingNewlineAndAcrossBufferBoundaries() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let long = String(repeating: "x", count: 200_000)
        let reader = try dataset(scratch, lines: "{\"_id\":\"a\",\"t\":\"\(long)\"}\n{\"_id\":\"b\"}")
        var ids: [String] = []
        try reader.forEachDocument(in: "_default._default") { ids.append($0.id) }
        #expect(ids == ["a", "b"])
    }

    @Test func refusesABadIndex() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        expectQuireError(.corruptData, containing: ["'bad name'"]) {
            _ = try dataset(scratch, index: #"{"name":"t","collections":["bad name"]}"#, lines: "")
        }
        expectQuireError(.corruptData, containing: ["index.json"]) {
            _ = try dataset(scratch, index: #"{"name":1}"#, lines: "")
        }
        _ = try scratch.write(#"{"name":"t","collections":["x.y"]}"#, to: "ds2/index.json")
        expectQuireError(.notFound, containing: ["'x.y'", "x.y.jsonl"]) {
            _ = try DatasetReader(folder: scratch.file("ds2"))
        }
    }

    @Test func readsCouchbasesLayoutWithEntriesAsFileNames() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let datasets = try CouchbaseDatasets.write(in: scratch)
        let todo = try DatasetReader(folder: datasets.todo)
        #expect(todo.index.fullCollectionNames == ["_default._default", "_default.lists", "_default.tasks"])
        var ids: [String] = []
        for collection in ["_default", "lists", "_default.tasks"] {
            try todo.forEachDocument(in: collection) { ids.append($0.id) }
        }
        #expect(ids == ["user_1", "list_1", "task_1", "task_2"])
        let travel = try DatasetReader(folder: datasets.travel)
        var hotels = 0
        var references: [DatasetBlobReference] = []
        try travel.forEachDocument(in: "travel.hotels") { document in
            hotels += 1
            references += document.blobReferences
        }
        #expect(hotels == 1)
        #expect(references.count == 1)
        for reference in references { #expect(try travel.verifyBlob(digest: reference.digest) == reference.length) }
    }

    @Test func aGitLFSPointerInsteadOfABlobIsNamedAsSuch() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let datasets = try CouchbaseDatasets.write(in: scratch)
        let reader = try DatasetReader(folder: datasets.travel)
        let digest = try reader.blobDigests()[0]
        // The pointer Couchbase's repository holds for 3ppFYLm0lhEXssMhhJm_20MYcns=.blob (131 bytes).
        let pointer =
            "version https://git-lfs.github.com/spec/v1\n"
            + "oid sha256:bc3a9ffd115f225cc4e441c1be845230719828016663dfed2473c6713ed08f53\nsize 156725\n"
        #expect(pointer.utf8.count == 131)
        try Data(pointer.utf8).write(to: try reader.blobURL(forDigest: digest))
        expectQuireError(.corruptData, containing: ["is a Git LFS pointer, not the blob; fetch the LFS objects"]) {
            try reader.verifyBlob(digest: digest)
        }
        // Any other wrong content is still a digest mismatch.
        try Data("not the picture".utf8).write(to: try reader.blobURL(forDigest: digest))
        expectQuireError(.corruptData, containing: ["hashes to"]) { try reader.verifyBlob(digest: digest) }
    }

    @Test func blobFileNamesAreFilesystemSafe() throws {
        let digest = "sha1-qZk+NkcGgWq6PiVxeFDCbJzQ2J0="
        #expect(DatasetBlobName.digest(of: Data("abc".utf8)) == digest)
        #expect(try DatasetBlobName.fileName(forDigest: digest) == "qZk-NkcGgWq6PiVxeFDCbJzQ2J0=.blob")
        #expect(DatasetBlobName.digest(forFileName: "qZk-NkcGgWq6PiVxeFDCbJzQ2J0=.blob") == digest)
        #expect(DatasetBlobName.digest(forFileName: "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=.blob") == digest)
        let slashy = "sha1-" + Data([0xff, 0xff, 0xff] + [UInt8](repeating: 0xfe, count: 17)).base64EncodedString()
        #expect(slashy.contains("/"))
        let names = try DatasetBlobName.candidateFileNames(forDigest: slashy)
        #expect(names.allSatisfy { !$0.contains("/") })
        #expect(names.compactMap(DatasetBlobName.digest(forFileName:)) == [slashy, slashy])
        expectQuireError(.invalidParameter, containing: ["'sha1-short'"]) {
            _ = try DatasetBlobName.fileName(forDigest: "sha1-short")
        }
    }
}
