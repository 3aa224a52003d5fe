import Foundation
import Testing

@testable import Quire

/// Text that `CanonicalJSON` accepts is stored and digested as it came, so it must be the
/// very bytes the writer makes of it; anything else goes the full way.
@Suite struct CanonicalJSONTests {
    private func isCanonical(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { CanonicalJSON.isCanonicalObject($0) }
    }

    @Test(arguments: JSONSamples.corpus)
    func acceptsOnlyWhatTheWriterWritesAlike(text: String) throws {
        if isCanonical(text) {
            #expect(Array(text.utf8) == (try JSONWriter.bytes(try JSONReader.parse(text))), "\(text)")
        }
        // The writer's own output is canonical, unless a key needs the full path.
        let written = try JSONWriter.string(try JSONReader.parse(text))
        let plainKeys = written.hasPrefix("{") && !written.contains("\\u") && written.utf8.allSatisfy { $0 < 0x80 }
        if plainKeys, !written.contains(#"{"_"#) {
            #expect(isCanonical(written) || written.contains(#"\""#), "\(written)")
        }
    }

    @Test func randomObjectsAreCanonicalExactlyWhenWrittenSo() throws {
        var generator = SeededGenerator(seed: 0xC0FE)
        var accepted = 0
        for _ in 0..<500 {
            let value = JSONValue.object(["v": JSONValue.random(using: &generator), "w": .int(1)])
            let canonical = try JSONWriter.string(value)
            if isCanonical(canonical) {
                accepted += 1
                #expect(Array(canonical.utf8) == (try JSONWriter.bytes(try JSONReader.parse(canonical))))
            }
            // Unsorted or spaced forms of the same value are never taken as they are.
            let unsorted = try JSONWriter.string(value, sortedKeys: false)
            if unsorted != canonical { #expect(!isCanonical(unsorted), "\(unsorted)") }
            #expect(!isCanonical(canonical.replacingOccurrences(of: ":", with: ": ")) || !canonical.contains(":"))
        }
        #expect(accepted > 300)
    }

    @Test func refusesWhatTheWriterWouldWriteOtherwise() {
        #expect(isCanonical(#"{"a":1,"b":[true,false,null,"x",1.5,-2,{}],"c":{"d":"\"\\\n\u001f"}}"#))
        #expect(isCanonical(#"{"a":{"_id":1}}"#))
        for text in [
            #"{"b":1,"a":2}"#, #"{"a":1,"a":2}"#, #"{ "a":1}"#, #"{"a":1 }"#, #"{"a" :1}"#, "{\"a\":[1, 2]}",
            #"{"a":-0}"#, #"{"a":1.0e5}"#, #"{"a":1E2}"#, #"{"a":0.10}"#, #"{"a":9223372036854775808}"#,
            #"{"a":"\/"}"#, #"{"a":"\u0041"}"#, #"{"a":"\u000a"}"#, #"{"a":"\u001F"}"#, #"{"\u0061":1}"#,
            #"{"é":1}"#, #"{"_attachments":{}}"#, #"{"_id":"x"}"#, "[1]", #""a""#, "{}x", #"{"a":1"#, "",
            #"{"a":tru}"#,
        ] {
            #expect(!isCanonical(text), "\(text)")
        }
    }

    /// Reals are checked after the scan, which lists them: more than fit its first list are
    /// all checked too.
    @Test func everyRealIsCheckedHoweverMany() {
        for count in [1, 32, 33, 200] {
            let reals = (0..<count).map { "\(Double($0) + 0.5)" }
            #expect(isCanonical(#"{"a":["# + reals.joined(separator: ",") + "]}"), "\(count)")
            var spoiled = reals
            spoiled[count - 1] = "\(Double(count - 1) + 0.5)0"
            #expect(!isCanonical(#"{"a":["# + spoiled.joined(separator: ",") + "]}"), "\(count)")
        }
        #expect(isCanonical(#"{"a":-0.0,"b":1e-07,"c":1.7976931348623157e+308}"#))
        #expect(!isCanonical(#"{"a":1e400}"#))
        #expect(!isCanonical(#"{"a":1.5e+308,"b":2e+308}"#))
    }

    /// Nesting is accepted as deep as the reader accepts it.
    @Test func nestingUpToTheReadersLimit() {
        let limit = JSONReader.maximumDepth
        let (open, close) = (String(repeating: "[", count: limit - 1), String(repeating: "]", count: limit - 1))
        let deepest = #"{"a":"# + open + close + "}"
        #expect(isCanonical(deepest))
        let tooDeep = #"{"a":"# + open + "[1]" + close + "}"
        #expect(!isCanonical(tooDeep))
    }

    @Test func aDocumentFromCanonicalTextGetsTheSameBodyAndRevision() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "canonical", config: DatabaseConfiguration(directory: directory.path))
        let collection = try database.defaultCollection()
        let canonical = #"{"a":[1,2.5,"x\n"],"b":{"c":null,"d":true},"e":"é"}"#
        #expect(isCanonical(canonical))
        let spaced = #"{ "e": "\u00e9", "b": {"d": true, "c": null}, "a": [1, 2.5, "x\n"] }"#
        let fromCanonical = try MutableDocument(id: "one", json: canonical)
        let fromSpaced = try MutableDocument(id: "two", json: spaced)
        let fromData = MutableDocument(
            id: "three", data: ["a": [1, 2.5, "x\n"], "b": ["c": NSNull(), "d": true], "e": "é"])
        for document in [fromCanonical, fromSpaced, fromData] { try collection.save(document: document) }
        #expect(fromCanonical.revisionID == fromSpaced.revisionID)
        #expect(fromCanonical.revisionID == fromData.revisionID)
        let stored = try #require(try collection.document(id: "one"))
        #expect(stored.toJSON() == canonical)
        #expect(try #require(try collection.document(id: "two")).toJSON() == canonical)
        // The canonical document still reads and edits as any other.
        #expect(fromCanonical.dictionary(forKey: "b")?.boolean(forKey: "d") == true)
        fromCanonical.setValue(2, forKey: "f")
        try collection.save(document: fromCanonical)
        #expect(try #require(try collection.document(id: "one")).int(forKey: "f") == 2)
        // A reserved key in canonical text is still refused.
        #expect(throws: QuireError.self) {
            try collection.save(document: MutableDocument(id: "r", json: #"{"_rev":"1-a"}"#))
        }
    }
}
