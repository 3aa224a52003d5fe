import Foundation
import Testing

@testable import Quire

/// Object keys are told apart by their UTF-8 bytes, as fleece tells them apart (fleece
/// Fleece/Core/Dict.cc `compareKeys` compares the key's slice; Encoder.cc `compareKeysByIndex`
/// sorts keys with `FLSlice_Compare`; Fleece/Mutable/HeapDict.hh keys a mutable dict's members
/// by their slice): `"caf\u{E9}"` (NFC) and `"cafe\u{301}"` (NFD) are two keys, never merged
/// and never normalised.
@Suite struct JSONObjectTests {
    private let nfc = "caf\u{E9}"
    private let nfd = "cafe\u{301}"

    @Test func keysCompareAndHashByBytes() {
        #expect(nfc == nfd)  // Swift's String equality: canonical equivalence.
        #expect(JSONKey(nfc) != JSONKey(nfd))
        #expect(Set([JSONKey(nfc), JSONKey(nfd), JSONKey(nfc)]).count == 2)
        #expect(JSONKey(nfd) < JSONKey(nfc))  // 'e' (0x65) before 0xC3
        #expect(JSONKey("a") < JSONKey("ab"))
        #expect(!(JSONKey("") < JSONKey("")))
        #expect(JSONKey("K") != JSONKey("\u{212A}"))  // the Kelvin sign is another key
    }

    @Test func anObjectKeepsBothSpellings() throws {
        var object: JSONObject = [nfc: 1, nfd: 2]
        #expect(object.count == 2)
        #expect(object[nfc] == .int(1))
        #expect(object[nfd] == .int(2))
        #expect(object.keys.contains(nfd))
        #expect(!object.keys.contains("cafe"))
        object[nfd] = 3
        #expect(object[nfc] == .int(1))
        #expect(object.removeValue(forKey: nfc) == .int(1))
        #expect(object.count == 1)
        #expect(object[nfd] == .int(3))
        #expect(JSONValue.object([nfc: 1]) != JSONValue.object([nfd: 1]))
    }

    @Test func canonicalWritingOrdersBothSpellingsByBytes() throws {
        let value: JSONValue = ["z": 0, nfc: 1, nfd: 2, "a": ["x": [nfc: true, nfd: false]]]
        let written = try JSONWriter.string(value)
        let expected =
            "{\"a\":{\"x\":{\"cafe\u{301}\":false,\"caf\u{E9}\":true}},\"cafe\u{301}\":2,\"caf\u{E9}\":1,\"z\":0}"
        #expect(Array(written.utf8) == Array(expected.utf8))
        #expect(try JSONReader.parse(written) == value)
    }

    @Test func mutableDictionarySetsAndRemovesByExactKey() throws {
        let dictionary = MutableDictionaryObject()
        dictionary.setValue(1, forKey: nfc)
        dictionary.setValue(2, forKey: nfd)
        #expect(dictionary.count == 2)
        #expect(dictionary.int(forKey: nfc) == 1)
        #expect(dictionary.int(forKey: nfd) == 2)
        #expect(dictionary.keys.map { Array($0.utf8) } == [Array(nfd.utf8), Array(nfc.utf8)])
        dictionary.removeValue(forKey: nfd)
        #expect(dictionary.count == 1)
        #expect(dictionary.int(forKey: nfc) == 1)
        #expect(dictionary.value(forKey: nfd) == nil)
    }

    @Test func anEditedDocumentSavesBothSpellings() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "keys", config: DatabaseConfiguration(directory: directory.path))
        let collection = try database.defaultCollection()
        let json = "{\"\(nfc)\":1,\"\(nfd)\":2,\"menu\":{\"\(nfc)\":\"a\",\"\(nfd)\":\"b\"}}"
        try collection.save(document: try MutableDocument(id: "d", json: json))
        let mutable = try #require(try collection.document(id: "d")).toMutable()
        mutable.setValue(3, forKey: "other")
        mutable.dictionary(forKey: "menu")?.setValue("A", forKey: nfc)
        try collection.save(document: mutable)
        let read = try #require(try collection.document(id: "d"))
        let expected =
            "{\"cafe\u{301}\":2,\"caf\u{E9}\":1,\"menu\":{\"cafe\u{301}\":\"b\",\"caf\u{E9}\":\"A\"},\"other\":3}"
        #expect(Array(read.toJSON().utf8) == Array(expected.utf8))
        #expect(read.int(forKey: nfd) == 2)
        #expect(read.dictionary(forKey: "menu")?.string(forKey: nfd) == "b")
    }

    /// The same ASCII body gives the same canonical bytes and revision digest as before keys
    /// were compared as bytes: stored data and replication peers see no change.
    @Test func asciiBodiesKeepTheirCanonicalBytes() throws {
        let value: JSONValue = ["b": [1, 2.5, "x"], "a": ["d": nil, "c": true], "_attachments": [:]]
        #expect(try JSONWriter.string(value) == #"{"_attachments":{},"a":{"c":true,"d":null},"b":[1,2.5,"x"]}"#)
    }
}
