import Quire
import Testing

@testable import QuireTestServer

@Suite struct KeyPathTests {
    @Test func parsesPropertiesIndexesAndEscapes() throws {
        #expect(try KeyPath("name.last").components == [.key("name"), .key("last")])
        #expect(try KeyPath("$.addresses[10].city").components == [.key("addresses"), .index(10), .key("city")])
        #expect(try KeyPath(#"a\.b[0][1]"#).components == [.key("a.b"), .index(0), .index(1)])
        #expect(throws: TestServerError.self) { try KeyPath("a[100001]") }
        #expect(throws: TestServerError.self) { try KeyPath("a[99999999999999999999999]") }
        #expect(throws: TestServerError.self) { try KeyPath("a[]") }
    }

    @Test func setCreatesPadsAndRefusesKindMismatch() throws {
        var body: [String: JSONValue] = ["name": ["first": "John"], "addresses": [["city": "SF"]]]
        try KeyPath("name.last").set("Doe", in: &body)
        try KeyPath("addresses[2].city").set("San Mateo", in: &body)
        try KeyPath("phones[1]").set("650", in: &body)
        #expect(body["name"] == ["first": "John", "last": "Doe"])
        #expect(body["addresses"] == [["city": "SF"], nil, ["city": "San Mateo"]])
        #expect(body["phones"] == [nil, "650"])
        #expect(throws: TestServerError.self) { try KeyPath("name.first.value").set("x", in: &body) }
        #expect(throws: TestServerError.self) { try KeyPath("name[0]").set("x", in: &body) }
    }

    @Test func removeIgnoresMissingPaths() throws {
        var body: [String: JSONValue] = ["people": ["a", "b", "c"], "x": ["y": 1]]
        try KeyPath("people[1]").remove(from: &body)
        try KeyPath("people[9]").remove(from: &body)
        try KeyPath("x.z.w").remove(from: &body)
        try KeyPath("x.y").remove(from: &body)
        #expect(body == ["people": ["a", "c"], "x": [:]])
    }
}
