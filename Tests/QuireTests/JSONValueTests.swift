import Foundation
import Testing

@testable import Quire

@Suite struct JSONValueTests {
    @Test func literalsBuildTheMatchingCases() {
        let value: JSONValue = [
            "null": nil, "flag": true, "count": 3, "ratio": 0.5, "name": "quire",
            "list": [1, "two", [3.0]], "nested": ["inner": false],
        ]
        #expect(value["null"] == .null)
        #expect(value["flag"] == .bool(true))
        #expect(value["count"] == .int(3))
        #expect(value["ratio"] == .double(0.5))
        #expect(value["name"] == .string("quire"))
        #expect(value["list"]?[1] == .string("two"))
        #expect(value["list"]?[2]?[0] == .double(3.0))
        #expect(value["nested"]?["inner"]?.boolValue == false)
        #expect(value["missing"] == nil)
        #expect(value["list"]?[3] == nil)
        #expect(value["list"]?[-1] == nil)
        #expect(value[0] == nil)
    }

    @Test func dictionaryLiteralKeepsTheLastRepeatedKey() {
        let value: JSONValue = ["a": 1, "a": 2]
        #expect(value == .object(["a": .int(2)]))
    }

    @Test func accessorsNeverConvertBetweenKinds() {
        #expect(JSONValue.bool(true).int64Value == nil)
        #expect(JSONValue.int(1).boolValue == nil)
        #expect(JSONValue.string("1").intValue == nil)
        #expect(JSONValue.int(7).doubleValue == 7.0)
        #expect(JSONValue.double(7.0).int64Value == 7)
        #expect(JSONValue.double(7.5).int64Value == nil)
        #expect(JSONValue.double(1e300).int64Value == nil)
        #expect(JSONValue.int(-5).intValue == -5)
        #expect(JSONValue.null.isNull)
        #expect(!JSONValue.int(0).isNull)
        #expect(JSONValue.array([.null]).arrayValue == [.null])
        #expect(JSONValue.object(["k": .null]).objectValue == ["k": .null])
        #expect(JSONValue.string("s").stringValue == "s")
        #expect(JSONValue.string("s").objectValue == nil)
    }

    @Test func trueAndOneStayDistinct() {
        #expect(JSONValue.bool(true) != JSONValue.int(1))
        #expect(JSONValue.int(1) != JSONValue.double(1.0))
        #expect(Set<JSONValue>([.bool(true), .int(1), .double(1.0)]).count == 3)
    }

    @Test func convertsSwiftNatives() throws {
        let any: [String: Any] = [
            "s": "text", "b": false, "i": 42, "i8": Int8(-8), "u16": UInt16(65535),
            "i64": Int64.min, "u64small": UInt64(7), "u64big": UInt64.max, "d": 2.5,
            "f": Float(0.1), "null": NSNull(), "list": [1, "x", [true]] as [Any],
        ]
        let value = try #require(JSONValue(any: any))
        #expect(value["s"] == .string("text"))
        #expect(value["b"] == .bool(false))
        #expect(value["i"] == .int(42))
        #expect(value["i8"] == .int(-8))
        #expect(value["u16"] == .int(65535))
        #expect(value["i64"] == .int(.min))
        #expect(value["u64small"] == .int(7))
        #expect(value["u64big"] == .double(18446744073709551615.0))
        #expect(value["d"] == .double(2.5))
        #expect(value["f"] == .double(0.1))
        #expect(value["null"] == .null)
        #expect(value["list"] == [1, "x", [true]])
    }

    @Test func tellsBooleanNumbersFromIntegers() throws {
        let numbers: [Any] = [
            NSNumber(value: true), NSNumber(value: false), NSNumber(value: 1), NSNumber(value: 0),
            NSNumber(value: Int8(1)), NSNumber(value: 1.5), NSNumber(value: Float(0.25)),
            NSNumber(value: UInt64.max), NSNumber(value: Int64.min),
        ]
        let value = try #require(JSONValue(any: numbers))
        #expect(
            value == [
                .bool(true), .bool(false), .int(1), .int(0), .int(1), .double(1.5), .double(0.25),
                .double(18446744073709551615.0), .int(.min),
            ])
    }

    @Test func readsFoundationCollections() throws {
        let array = NSArray(array: [NSString(string: "a"), NSNumber(value: true)])
        let dictionary = NSDictionary(dictionary: ["k": array])
        #expect(JSONValue(any: dictionary) == ["k": ["a", true]])
    }

    @Test func rejectsValuesWithoutAJSONForm() {
        #expect(JSONValue(any: Date()) == nil)
        #expect(JSONValue(any: Data([1])) == nil)
        #expect(JSONValue(any: Double.nan) == nil)
        #expect(JSONValue(any: Float.infinity) == nil)
        #expect(JSONValue(any: NSNumber(value: Double.infinity)) == nil)
        #expect(JSONValue(any: ["ok": 1, "bad": Date()] as [String: Any]) == nil)
        #expect(JSONValue(any: [1, URL(fileURLWithPath: "/")] as [Any]) == nil)
    }

    @Test func producesSwiftNatives() throws {
        let value: JSONValue = ["i": 1, "d": 1.0, "b": true, "s": "x", "n": nil, "a": [1, 2]]
        let any = try #require(value.anyValue as? [String: Any])
        #expect(any["i"] as? Int == 1)
        #expect(type(of: try #require(any["i"])) == Int.self)
        #expect(type(of: try #require(any["d"])) == Double.self)
        #expect(type(of: try #require(any["b"])) == Bool.self)
        #expect(any["s"] as? String == "x")
        #expect(any["n"] is NSNull)
        #expect(any["a"] as? [Int] == [1, 2])
        #expect(JSONValue(any: value.anyValue) == value)
    }
}
