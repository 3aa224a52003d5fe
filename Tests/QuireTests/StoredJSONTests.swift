import Foundation
import Testing

@testable import Quire

/// A stored body read by path must answer every lookup as the tape of the JSON it was written
/// from does. The store holds canonical JSON (keys unique and in byte order), so a lookup stops
/// at the first key that is not before the one asked for.
@Suite struct StoredJSONTests {
    private let nfc = "caf\u{E9}"
    private let nfd = "cafe\u{301}"

    private func stored(_ text: String) -> DictionaryObject {
        var text = text
        return text.withUTF8 {
            DictionaryObject(stored: StoredJSON.make(copying: UnsafeRawBufferPointer($0), blobStore: nil), at: 0)
        }
    }

    private func taped(_ text: String) throws -> DictionaryObject {
        var text = text
        return DictionaryObject(tape: try text.withUTF8 { try JSONTape(copying: UnsafeRawBufferPointer($0)) }, at: 0)
    }

    @Test(arguments: [
        #"{"a":1,"b":{"c":[1,{"d":"x"}],"e":"\"}{]["},"f":null,"g":true,"h":-2.5e3}"#,
        #"{"z":1,"a":2,"m":{"y":3,"b":4}}"#,
        #"{ "b" : 1 , "a" : [ {"x": "y"} ] , "a": 7 }"#,
        #"{"att":{"digest":"sha1-x","length":3,"revpos":1,"stub":true},"img":{"@type":"blob","digest":"sha1-y","length":2}}"#,
        #"{"half":{"digest":"sha1-x","length":3},"typed":{"@type":"other","digest":"d"}}"#,
        #"{"\u0061":1,"é":2,"b":{"\u00e9":3}}"#,
        "{\"caf\u{E9}\":1,\"cafe\u{301}\":2,\"cafe\":3,\"m\":{\"cafe\u{301}\":\"d\",\"caf\u{E9}\":\"c\"}}",
        #"{"a\"b":1,"a\\b":2,"a\u0001":3,"ab":{"x\ty":4,"x":5},"a":6,"\u00e9\"":7}"#,
        #"{"":1,"@type":"blob","digest":"d","length":1}"#,
        #"{"!":1,"digest":"d","length":1,"revpos":1,"stub":true,"z":0}"#,
        #"{"digest":"d","length":1,"stub":true}"#,
    ])
    func answersAsTheTapeDoes(text: String) throws {
        // Stored as the store writes bodies: canonical.
        let canonical = try taped(text).toJSON()
        let lazy = stored(canonical)
        let tape = try taped(text)
        #expect(lazy.keys == tape.keys)
        #expect(lazy.count == tape.count)
        #expect(lazy.toJSON() == tape.toJSON())
        for key in tape.keys + ["missing", "é", "@type", "", "a", "zzz", nfc, nfd, "cafe", "a\"b", "a\\b"] {
            #expect(
                String(describing: lazy.value(forKey: key)) == String(describing: tape.value(forKey: key)), "\(key)")
            #expect(type(of: lazy.value(forKey: key) as Any) == type(of: tape.value(forKey: key) as Any), "\(key)")
            // The typed getters read a stored body in place; they answer as the value does.
            #expect(lazy.string(forKey: key) == tape.string(forKey: key), "\(key)")
            #expect((lazy.dictionary(forKey: key) == nil) == (tape.dictionary(forKey: key) == nil), "\(key)")
            if let inner = tape.dictionary(forKey: key) {
                let lazyInner = try #require(lazy.dictionary(forKey: key))
                for innerKey in inner.keys + ["zzz"] {
                    #expect(
                        String(describing: lazyInner.value(forKey: innerKey))
                            == String(describing: inner.value(forKey: innerKey)), "\(key).\(innerKey)")
                }
            }
        }
        #expect((lazy.blob(forKey: "att") == nil) == (tape.blob(forKey: "att") == nil))
        #expect((lazy.blob(forKey: "img") == nil) == (tape.blob(forKey: "img") == nil))
        var stored = canonical
        let storedIsBlob = stored.withUTF8 {
            StoredJSON.make(copying: UnsafeRawBufferPointer($0), blobStore: nil).isBlob(at: 0)
        }
        var original = text
        let tapeIsBlob = try original.withUTF8 { try JSONTape(copying: UnsafeRawBufferPointer($0)) }.read {
            $0.isBlob(at: 0)
        }
        #expect(storedIsBlob == tapeIsBlob)
    }

    /// `"caf\u{E9}"` (NFC) and `"cafe\u{301}"` (NFD) are two keys, compared by their UTF-8
    /// bytes as ``JSONKey`` compares them; neither is found by the other's spelling.
    @Test func keysInNFCAndNFDAreTwoKeys() throws {
        let body: JSONValue = [nfc: 1, nfd: 2, "menu": [nfd: "b", nfc: "a", "z": ["x": [nfc: true]]]]
        let lazy = stored(try JSONWriter.string(body))
        #expect(lazy.int(forKey: nfc) == 1)
        #expect(lazy.int(forKey: nfd) == 2)
        #expect(lazy.value(forKey: "cafe") == nil)
        #expect(lazy.value(forKey: "caf") == nil)
        let menu = try #require(lazy.dictionary(forKey: "menu"))
        #expect(menu.string(forKey: nfc) == "a")
        #expect(menu.string(forKey: nfd) == "b")
        #expect(menu.dictionary(forKey: "z")?.dictionary(forKey: "x")?.boolean(forKey: nfc) == true)
        #expect(menu.dictionary(forKey: "z")?.dictionary(forKey: "x")?.value(forKey: nfd) == nil)
    }

    /// Keys with escapes are compared decoded, in the order of their decoded bytes, as the
    /// writer sorts them: `"a\"b"` (0x22) before `"a\\b"` (0x5C) before `"ab"`.
    @Test func escapedKeysCompareDecoded() throws {
        let body: JSONValue = ["a\"b": 1, "a\\b": 2, "a\u{1}": 3, "ab": ["t\tk": 4], "b": 5]
        let text = try JSONWriter.string(body)
        #expect(text == #"{"a\u0001":3,"a\"b":1,"a\\b":2,"ab":{"t\tk":4},"b":5}"#)
        let lazy = stored(text)
        #expect(lazy.int(forKey: "a\"b") == 1)
        #expect(lazy.int(forKey: "a\\b") == 2)
        #expect(lazy.int(forKey: "a\u{1}") == 3)
        #expect(lazy.dictionary(forKey: "ab")?.int(forKey: "t\tk") == 4)
        #expect(lazy.int(forKey: "b") == 5)
        #expect(lazy.value(forKey: "a") == nil)
        #expect(lazy.value(forKey: "a\\") == nil)
    }

    /// The lookup reads no further than the key it finds, or the first key after the place the
    /// name would have: what follows is not even looked at.
    @Test func aLookupStopsAtItsKey() {
        let lazy = stored(#"{"a":1,"b":{"c":2,"e":3,"#)
        #expect(lazy.int(forKey: "a") == 1)
        #expect(lazy.dictionary(forKey: "b")?.int(forKey: "c") == 2)
        #expect(lazy.dictionary(forKey: "b")?.value(forKey: "d") == nil)
        #expect(lazy.dictionary(forKey: "b")?.int(forKey: "e") == 3)
    }

    /// A document saved and read back through a database reads by path as the text it was made
    /// from: NFC and NFD keys, escaped keys, nested paths.
    @Test func documentsReadByPathFromTheStore() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "stored", config: DatabaseConfiguration(directory: directory.path))
        let collection = try database.defaultCollection()
        let body: JSONValue = ["z": [nfd: ["q\"": [1, [nfc: "deep"]]]], nfc: 1, nfd: 2, "a\\": 3]
        let json = try JSONWriter.string(body, sortedKeys: false)
        try collection.save(document: try MutableDocument(id: "d", json: json))
        let read = try #require(try collection.document(id: "d"))
        #expect(read.int(forKey: nfc) == 1)
        #expect(read.int(forKey: nfd) == 2)
        #expect(read.int(forKey: "a\\") == 3)
        let inner = read.dictionary(forKey: "z")?.dictionary(forKey: nfd)
        #expect(inner?.array(forKey: "q\"")?.dictionary(at: 1)?.string(forKey: nfc) == "deep")
        #expect(read.dictionary(forKey: "z")?.value(forKey: nfc) == nil)
        #expect(read.value(forKey: "missing") == nil)
    }

    @Test func textThatIsNotJSONReadsAsMissing() {
        for text in [#"{"a":"#, #"{"a":1"#, #"{"a" 1}"#, "{", #"{"a":[1,2"#] {
            let lazy = stored(text)
            #expect(lazy.value(forKey: "b") == nil)
            _ = lazy.value(forKey: "a")
            #expect(lazy.count == 0)
        }
    }
}
