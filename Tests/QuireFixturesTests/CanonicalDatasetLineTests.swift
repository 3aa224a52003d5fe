import Foundation
import Quire
import QuireFixturesTestSupport
import Testing

@testable import QuireFixtureBuilder
@testable import QuireFixtures

/// The loader's fast way through a dataset line: a line of `_id` and a canonical body is
/// taken as it is, and gives exactly what parsing it and writing it back gives.
@Suite struct CanonicalDatasetLineTests {
    private func fast(_ line: String, blobs: Bool = true) -> CanonicalDatasetLine? {
        CanonicalDatasetLine(ArraySlice(line.utf8), readsBlobReferences: blobs)
    }

    /// The body the full reader makes of `line`: parsed, `_id` removed, written canonical.
    private func slowBody(_ line: String) throws -> String {
        guard case .object(var members) = try JSONReader.parse(line) else {
            throw QuireError(.corruptData, "not an object")
        }
        members.removeValue(forKey: "_id")
        return try JSONWriter.string(.object(members))
    }

    @Test func aCanonicalLineIsTakenAsItIs() throws {
        let line = #"{"_id":"person_1","age":41,"name":{"first":"Ada","last":"Byron"},"tags":["a","b"]}"#
        let taken = try #require(fast(line))
        #expect(taken.id == "person_1")
        #expect(taken.body == #"{"age":41,"name":{"first":"Ada","last":"Byron"},"tags":["a","b"]}"#)
        #expect(taken.body == (try slowBody(line)))
        // An ID alone leaves an empty body.
        #expect(fast(#"{"_id":"only"}"#)?.body == "{}")
        // Keys below `_` in byte order sort before the ID in canonical text, but the body
        // without the ID is canonical either way.
        #expect(fast(#"{"_id":"x","Zed":1}"#)?.body == #"{"Zed":1}"#)
        // Multi-byte characters pass, in the ID and in strings.
        let accents = try #require(fast(#"{"_id":"café","dish":"crème brûlée"}"#))
        #expect(accents.id == "café")
        #expect(accents.body == #"{"dish":"crème brûlée"}"#)
    }

    @Test func everyOtherLineGoesThroughTheFullReader() {
        let refused = [
            #"{ "_id":"a","b":1}"#,  // whitespace
            #"{"_id":"a","b":1 }"#,
            #"{"_id":"a","c":1,"b":2}"#,  // unsorted
            #"{"_id":"a","b":1,"b":2}"#,  // repeated key
            #"{"b":1,"_id":"a"}"#,  // ID not first
            #"{"_id":"a\"b","c":1}"#,  // escape in the ID
            #"{"_id":"","c":1}"#,  // empty ID
            #"{"_id":7,"c":1}"#,  // integer ID
            #"{"_id":"a",}"#,  // trailing comma
            #"{"_id":"a","c":1}x"#,  // text after the object
            #"{"_id":"a","c":1"#,  // unclosed
            #"{"_id":"a","_rev":"1-a"}"#,  // a reserved key
            #"{"_id":"a","_id":"b"}"#,
            #"{"_id":"a","n":1.50}"#,  // not the shortest real
            #"{"_id":"a","s":"\u0041"}"#,  // an escape the writer does not write
            #"{"_id":"a","img":{"@type":"blob","digest":"sha1-x"}}"#,  // a blob reference to collect
        ]
        for line in refused {
            #expect(fast(line) == nil, "\(line)")
        }
        // Without blob references to collect, an `@type` key is just a key.
        #expect(fast(#"{"_id":"a","img":{"@type":"blob"}}"#, blobs: false)?.body == #"{"img":{"@type":"blob"}}"#)
        // An `@` elsewhere is no blob reference.
        #expect(fast(#"{"_id":"a","mail":"a@type.example"}"#) != nil)
    }

    @Test func invalidUTF8GoesThroughTheFullReader() {
        var line = Array(#"{"_id":"a","s":"x"}"#.utf8)
        line[16] = 0xFF
        #expect(CanonicalDatasetLine(ArraySlice(line), readsBlobReferences: true) == nil)
        var id = Array(#"{"_id":"a","s":"x"}"#.utf8)
        id[8] = 0xC3  // a lead byte with no continuation
        #expect(CanonicalDatasetLine(ArraySlice(id), readsBlobReferences: true) == nil)
    }

    /// Every line of generated datasets: the fast way and the full one agree on the ID and the
    /// body, and people (no blobs) all take the fast way.
    @Test func agreesWithTheFullReaderOnGeneratedDatasets() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        var taken = 0
        for kind in [DatasetKind.names, .travel] {
            let folder = scratch.file("\(kind)")
            try DatasetGenerator(kind: kind, count: 60, seed: 9).write(to: folder)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".jsonl")
            {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let line = String(line)
                    guard let fast = fast(line) else {
                        #expect(kind == .travel && line.contains("\"@type\""), "\(line)")
                        continue
                    }
                    taken += 1
                    guard case .object(let members) = try JSONReader.parse(line) else { continue }
                    #expect(members["_id"] == .string(fast.id))
                    #expect(fast.body == (try slowBody(line)))
                }
            }
        }
        #expect(taken > 60)
    }

    /// What the reader hands on: a fast line's document carries its text and parses to the
    /// same body; a refused one names its line.
    @Test func theReaderHandsOnTheSameDocuments() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let url = scratch.file("mixed.jsonl")
        try Data(
            """
            {"_id":"a","n":1}
            {"_id":"b", "n":2}
            {"n":3,"_id":"c"}
            {"_id":"a","n":4}

            """.utf8
        ).write(to: url)
        var documents: [DatasetDocument] = []
        let error = #expect(throws: QuireError.self) {
            try JSONLinesDocumentReader(url: url).forEachDocument { document, _ in documents.append(document) }
        }
        #expect(error?.message == "line 4 of 'mixed.jsonl' repeats _id 'a' (first on line 1)")
        #expect(documents.map(\.id) == ["a", "b", "c"])
        #expect(documents.map { $0.canonicalJSON != nil } == [true, false, false])
        #expect(documents.map { $0.body["n"] } == [.int(1), .int(2), .int(3)])

        try Data(#"{"_id":"a",}"#.utf8).write(to: url)
        let invalid = #expect(throws: QuireError.self) {
            try JSONLinesDocumentReader(url: url).forEachDocument { _, _ in }
        }
        #expect(invalid?.message.hasPrefix("line 1 of 'mixed.jsonl' is not valid JSON") == true)
    }
}
