import Foundation
import Testing

@testable import Quire

/// The tape must agree with the values JSONReader builds and with the bytes JSONWriter writes:
/// revision IDs depend on every save writing the same canonical body, whichever path wrote it.
@Suite struct JSONTapeTests {
    private func tape(_ text: String) throws -> JSONTape {
        var text = text
        return try text.withUTF8 { try JSONTape(copying: UnsafeRawBufferPointer($0)) }
    }

    @Test(arguments: JSONSamples.corpus)
    func buildsTheValuesTheReaderBuilds(text: String) throws {
        let tape = try tape(text)
        let built = tape.read { $0.value(at: 0) }
        #expect(built.isIdentical(to: try JSONReader.parse(text)))
    }

    @Test(arguments: JSONSamples.corpus)
    func writesTheBytesTheWriterWrites(text: String) throws {
        let tape = try tape(text)
        let expected = try JSONWriter.bytes(try JSONReader.parse(text))
        if let written = tape.canonicalBytes(at: 0) {
            #expect(written == expected, "\(text)")
        } else {
            // Only objects with escaped, non-ASCII or repeated keys take the full build.
            #expect(!tape.hasPlainKeys)
        }
    }

    @Test func randomValuesWriteTheSameCanonicalBytesBothWays() throws {
        var generator = SeededGenerator(seed: 0x7A9E)
        var viaTape = 0
        for _ in 0..<500 {
            let value = JSONValue.random(using: &generator)
            // Unsorted, spaced input, so the tape has to reorder and drop whitespace.
            let text = try JSONWriter.string(value, sortedKeys: false)
                .replacingOccurrences(of: ",\"", with: ", \"")
            let tape = try tape(text)
            guard let written = tape.canonicalBytes(at: 0) else { continue }
            viaTape += 1
            #expect(written == (try JSONWriter.bytes(try JSONReader.parse(text))), "\(text)")
        }
        #expect(viaTape > 100)
    }

    @Test func marksPlainAndSortedKeys() throws {
        #expect(try tape(#"{"a":1,"b":{"c":2,"d":3}}"#).hasPlainKeys)
        #expect(try tape(#"{"b":1,"a":2}"#).hasPlainKeys)
        #expect(try !tape(#"{"a":1,"a":2}"#).hasPlainKeys)
        #expect(try !tape(#"{"\u0061":1}"#).hasPlainKeys)
        #expect(try !tape(#"{"é":1}"#).hasPlainKeys)
        #expect(try !tape(#"[{"x":1},{"y":{"é":1}}]"#).hasPlainKeys)
    }

    @Test func rejectsWhatTheReaderRejects() throws {
        for text in ["", "{", #"{"a":}"#, "[1,]", #"{"a" 1}"#, "\"\u{01}\"", "01", "[1] x", #"{"a":1,}"#] {
            var reader: QuireError?
            do { _ = try JSONReader.parse(text) } catch let error as QuireError { reader = error }
            var tapeError: QuireError?
            do { _ = try tape(text) } catch let error as QuireError { tapeError = error }
            #expect(reader != nil, "\(text)")
            #expect(tapeError?.message == reader?.message, "\(text)")
        }
    }

    // MARK: Documents read lazily

    @Test func lazyDictionariesAnswerAsBuiltOnesDo() throws {
        let text =
            #"{"name":{"first":"Ada","last":"Lovelace"},"n":3,"x":1.5,"ok":true,"none":null,"tags":["a","b"],"#
            + #""esc":"a\"b\u00e9","blob":{"@type":"blob","digest":"sha1-x","length":3}}"#
        let tape = try tape(text)
        let lazy = DictionaryObject(tape: tape, at: 0)
        guard case .object(let members) = try JSONReader.parse(text) else {
            Issue.record("not an object")
            return
        }
        let built = DictionaryObject(members, blobStore: nil)
        #expect(lazy.count == built.count)
        #expect(lazy.keys == built.keys)
        #expect(lazy.jsonObject == built.jsonObject)
        #expect(lazy == built)
        #expect(lazy.toJSON() == built.toJSON())
        #expect(lazy.dictionary(forKey: "name")?.string(forKey: "last") == "Lovelace")
        #expect(lazy["name"]["first"].string == "Ada")
        #expect(lazy.int(forKey: "n") == 3)
        #expect(lazy.double(forKey: "x") == 1.5)
        #expect(lazy.boolean(forKey: "ok"))
        #expect(lazy.value(forKey: "none") is NSNull)
        #expect(lazy.array(forKey: "tags")?.string(at: 1) == "b")
        #expect(lazy.string(forKey: "esc") == "a\"bé")
        #expect(lazy.blob(forKey: "blob")?.digest == "sha1-x")
        #expect(lazy.value(forKey: "missing") == nil)
        #expect(!lazy.contains(key: "nam"))
    }

    @Test func lazyLookupsCompareKeyBytes() throws {
        // Repeated keys: the last value wins.
        let repeated = DictionaryObject(tape: try tape(#"{"k":1,"k":2}"#), at: 0)
        #expect(repeated.int(forKey: "k") == 2)
        #expect(repeated.count == 1)
        // Keys that differ only in Unicode normalisation are two keys, as in fleece, which
        // compares keys as bytes; an escaped spelling is the same key as the plain one.
        let nfcAndNFD = DictionaryObject(tape: try tape(#"{"\u00e9":1,"e\u0301":2,"é":3}"#), at: 0)
        #expect(nfcAndNFD.int(forKey: "\u{E9}") == 3)
        #expect(nfcAndNFD.int(forKey: "e\u{301}") == 2)
        #expect(nfcAndNFD.count == 2)
        #expect(Set(nfcAndNFD.keys.map { Array($0.utf8) }) == [Array("e\u{301}".utf8), Array("\u{E9}".utf8)])
        #expect(nfcAndNFD.toJSON().utf8.elementsEqual("{\"e\u{301}\":2,\"\u{E9}\":3}".utf8))
        // The Kelvin sign is canonically equivalent to the letter K, but another key.
        let kelvin = DictionaryObject(tape: try tape(#"{"K":7}"#), at: 0)
        #expect(kelvin.value(forKey: "\u{212A}") == nil)
        #expect(kelvin.int(forKey: "K") == 7)
    }
}
