import Foundation
import Testing

@testable import Quire

/// A stored body read by path must answer every lookup as the tape does, in order or not.
@Suite struct StoredJSONTests {
    private func stored(_ text: String) -> DictionaryObject {
        var text = text
        return text.withUTF8 {
            DictionaryObject(stored: StoredJSON(copying: UnsafeRawBufferPointer($0), blobStore: nil), at: 0)
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
    ])
    func answersAsTheTapeDoes(text: String) throws {
        let lazy = stored(text)
        let tape = try taped(text)
        #expect(lazy.keys == tape.keys)
        #expect(lazy.count == tape.count)
        #expect(lazy.toJSON() == tape.toJSON())
        for key in tape.keys + ["missing", "é", "@type"] {
            #expect(
                String(describing: lazy.value(forKey: key)) == String(describing: tape.value(forKey: key)), "\(key)")
            #expect(type(of: lazy.value(forKey: key) as Any) == type(of: tape.value(forKey: key) as Any), "\(key)")
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
