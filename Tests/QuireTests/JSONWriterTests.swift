import Foundation
import Testing

@testable import Quire

@Suite struct JSONWriterTests {
    @Test func writesCompactJSON() throws {
        let value: JSONValue = ["b": [1, true, nil, "x"], "a": ["c": 2.5]]
        #expect(try JSONWriter.string(value) == #"{"a":{"c":2.5},"b":[1,true,null,"x"]}"#)
        #expect(try JSONWriter.string([]) == "[]")
        #expect(try JSONWriter.string([:]) == "{}")
        #expect(try JSONWriter.string("") == #""""#)
    }

    /// Keys sort by their UTF-8 bytes, which is code point order: upper case before lower
    /// case, prefixes first, non-ASCII after ASCII, astral characters last.
    @Test func sortsKeysByUTF8Bytes() throws {
        let value: JSONValue = ["😀": 1, "é": 2, "a": 3, "B": 4, "aa": 5, "": 6, "_": 7, "\u{FFFD}": 8, "b": 9]
        #expect(try JSONWriter.string(value) == #"{"":6,"B":4,"_":7,"a":3,"aa":5,"b":9,"é":2,"�":8,"😀":1}"#)
    }

    @Test func equalBodiesGiveEqualBytes() throws {
        var first: [String: JSONValue] = [:]
        var second: [String: JSONValue] = [:]
        let keys = (0..<200).map { "key\($0)" }
        for key in keys { first[key] = .string(key) }
        for key in keys.reversed() { second[key] = .string(key) }
        second.reserveCapacity(4096)
        let a = try JSONWriter.bytes(["outer": .object(first), "list": [.object(first)]])
        let b = try JSONWriter.bytes(["list": [.object(second)], "outer": .object(second)])
        #expect(a == b)
    }

    @Test func unsortedOutputParsesBackEqual() throws {
        let value: JSONValue = ["z": 1, "y": ["x": [1, 2], "w": nil], "v": "text"]
        let text = try JSONWriter.string(value, sortedKeys: false)
        #expect(try JSONReader.parse(text) == value)
    }

    @Test func escapesOnlyWhatJSONRequires() throws {
        var control = ""
        for scalar in 0..<0x20 { control.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        let written = try JSONWriter.string(.string("\"\\/" + control + "\u{7F}é€😀"))
        let expected =
            #""\"\\/\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f"#
            + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f"#
            + "\u{7F}é€😀\""
        #expect(written == expected)
        #expect(try JSONWriter.string(["k\"\n": 1]) == #"{"k\"\n":1}"#)
    }

    @Test(arguments: [
        (JSONValue.int(0), "0"),
        (.int(-7), "-7"),
        (.int(.max), "9223372036854775807"),
        (.int(.min), "-9223372036854775808"),
        (.double(2.0), "2.0"),
        (.double(-0.0), "-0.0"),
        (.double(0.0), "0.0"),
        (.double(0.1), "0.1"),
        (.double(1.5), "1.5"),
        (.double(1e16), "1e+16"),
        (.double(1e100), "1e+100"),
        (.double(1e-7), "1e-07"),
        (.double(.leastNonzeroMagnitude), "5e-324"),
        (.double(1.7976931348623157e308), "1.7976931348623157e+308"),
        (.double(9007199254740992.0), "9007199254740992.0"),
        (.double(123456789012345680.0), "1.2345678901234568e+17"),
    ])
    func writesNumbers(value: JSONValue, expected: String) throws {
        let text = try JSONWriter.string(value)
        #expect(text == expected)
        #expect(try JSONReader.parse(text).isIdentical(to: value), "\(text) reads back differently")
    }

    @Test func rejectsNonFiniteNumbersNamingThem() {
        let cases: [(JSONValue, String)] = [
            (.double(.nan), "cannot write JSON: the number nan has no JSON form at $"),
            (["a": [1, .double(.infinity)]], "cannot write JSON: the number inf has no JSON form at $.a[1]"),
            (
                ["odd key": ["x": .double(-.infinity)]],
                #"cannot write JSON: the number -inf has no JSON form at $["odd key"].x"#
            ),
        ]
        for (value, message) in cases {
            let error = #expect(throws: QuireError.self) { try JSONWriter.bytes(value) }
            #expect(error?.code == .invalidParameter)
            #expect(error?.message == message)
        }
    }

    @Test func rejectsNestingTheReaderCouldNotReadBack() throws {
        var value: JSONValue = 1
        for _ in 0..<JSONReader.maximumDepth { value = [value] }
        let text = try JSONWriter.string(value)
        #expect(try JSONReader.parse(text) == value)
        let error = #expect(throws: QuireError.self) { try JSONWriter.bytes(["k": value]) }
        #expect(error?.message.hasPrefix("cannot write JSON: nesting deeper than 512 levels at $.k") == true)
    }

    @Test func appendsAndLeavesOutputAloneOnError() throws {
        var output = Array("prefix:".utf8)
        try JSONWriter.write([1, 2], into: &output)
        #expect(String(decoding: output, as: UTF8.self) == "prefix:[1,2]")
        #expect(throws: QuireError.self) { try JSONWriter.write([1, .double(.nan)], into: &output) }
        #expect(String(decoding: output, as: UTF8.self) == "prefix:[1,2]")
    }

    @Test func convenienceMethodsMatchTheWriter() throws {
        let value: JSONValue = ["b": 1, "a": [true]]
        #expect(try value.jsonString() == #"{"a":[true],"b":1}"#)
        #expect(try value.jsonBytes() == JSONWriter.bytes(value))
    }

    // MARK: Round trips

    @Test(arguments: JSONSamples.corpus)
    func corpusRoundTrips(text: String) throws {
        let value = try JSONReader.parse(text)
        let canonical = try JSONWriter.bytes(value)
        let reread = try JSONReader.parse(canonical)
        #expect(reread.isIdentical(to: value))
        #expect(try JSONWriter.bytes(reread) == canonical, "canonical form is a fixed point")
    }

    @Test func canonicalTextIsReproducedExactly() throws {
        let texts = [
            #"{"a":[1,-2,3.5,-0.0,1e+16,"\u0001\n"],"b":{"c":null,"d":true,"e":false},"é":"😀"}"#,
            #"[9223372036854775807,-9223372036854775808,1.7976931348623157e+308,5e-324]"#,
        ]
        for text in texts {
            #expect(try JSONWriter.string(JSONReader.parse(text)) == text)
        }
    }

    @Test func randomValuesRoundTrip() throws {
        var generator = SeededGenerator(seed: 2024)
        for _ in 0..<3_000 {
            let value = JSONValue.random(using: &generator)
            let bytes = try JSONWriter.bytes(value)
            let reread = try JSONReader.parse(bytes)
            #expect(reread.isIdentical(to: value), "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    /// Foundation reads what we write to the same values (numbers compared by value).
    @Test func foundationReadsOurOutput() throws {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let value: JSONValue = ["v": JSONValue.random(using: &generator)]
            let bytes = try JSONWriter.bytes(value)
            let object = try JSONSerialization.jsonObject(with: Data(bytes))
            let theirs = try #require(JSONValue(any: object))
            #expect(JSONReaderTests.sameByValue(value, theirs), "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

}
