import Testing

@testable import QuireConformance

@Suite struct ValueMatcherTests {
    @Test func numbersCompareByValue() {
        #expect(ValueMatcher.equal(1, 1.0))
        #expect(!ValueMatcher.equal(1, 1.5))
        #expect(!ValueMatcher.equal(1, "1"))
        #expect(!ValueMatcher.equal(true, 1))
    }

    @Test func exactMatchingReportsThePathOfTheFirstDifference() {
        let mismatch = ValueMatcher.mismatch(
            expected: ["a": ["b": [1, 2]]], actual: ["a": ["b": [1, 3]]], partial: false)
        #expect(mismatch?.description == "at a.b.1: expected 2, found 3")
        let extra = ValueMatcher.mismatch(expected: ["a": 1], actual: ["a": 1, "b": 2], partial: false)
        #expect(extra?.description == "at b: expected no such key, found 2")
    }

    @Test func partialMatchingChecksOnlyListedKeysButWholeArrays() {
        #expect(
            ValueMatcher.mismatch(expected: ["a": ["b": 1]], actual: ["a": ["b": 1, "c": 2], "d": 3], partial: true)
                == nil)
        let missing = ValueMatcher.mismatch(expected: ["x": 1], actual: ["a": 1], partial: true)
        #expect(missing?.description == "at x: expected 1, found no such key")
        let short = ValueMatcher.mismatch(expected: [1], actual: [1, 2], partial: true)
        #expect(short?.description == "expected 1 element, found 2: [1,2]")
    }

    @Test func jsonRoundTripsAndRendersDeterministically() throws {
        let value = try JSONText.parse(#"{"b": [1, 2.5, true, null, "x\n"], "a": {}}"#)
        #expect(value == ["a": [:], "b": [1, 2.5, true, nil, "x\n"]])
        #expect(value.description == #"{"a":{},"b":[1,2.5,true,null,"x\n"]}"#)
        #expect(JSONText.render(["a": [1]], pretty: true) == "{\n  \"a\": [\n    1\n  ]\n}")
        #expect(JSONText.quote("\u{1}") == "\"\\u0001\"")
    }
}
