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

    @Test func lazyLookupsFollowStringEquality() throws {
        // Repeated keys: the last value wins. Canonically equivalent keys are one key.
        let repeated = DictionaryObject(tape: try tape(#"{"k":1,"k":2}"#), at: 0)
        #expect(repeated.int(forKey: "k") == 2)
        #expect(repeated.count == 1)
        let equivalent = DictionaryObject(tape: try tape(#"{"\u00e9":1,"e\u0301":2}"#), at: 0)
        #expect(equivalent.int(forKey: "é") == 2)
        #expect(equivalent.int(forKey: "e\u{301}") == 2)
        #expect(equivalent.count == 1)
        // The Kelvin sign is canonically equivalent to the letter K.
        let kelvin = DictionaryObject(tape: try tape(#"{"K":7}"#), at: 0)
        #expect(kelvin.int(forKey: "\u{212A}") == 7)
    }
}
