import Quire
import Testing

@testable import QuireTestServer

@Suite struct PropertyPathTests {
    @Test func parsesPropertiesIndexesAndEscapes() throws {
        #expect(try PropertyPath("name.last").components == [.key("name"), .key("last")])
        #expect(try PropertyPath("$.addresses[10].city").components == [.key("addresses"), .index(10), .key("city")])
        #expect(try PropertyPath(#"a\.b[0][1]"#).components == [.key("a.b"), .index(0), .index(1)])
        #expect(throws: TestServerError.self) { try PropertyPath("a[100001]") }
        #expect(throws: TestServerError.self) { try PropertyPath("a[99999999999999999999999]") }
        #expect(throws: TestServerError.self) { try PropertyPath("a[]") }
    }

    @Test func setCreatesPadsAndRefusesKindMismatch() throws {
        var body: [String: JSONValue] = ["name": ["first": "John"], "addresses": [["city": "SF"]]]
        try PropertyPath("name.last").set("Doe", in: &body)
        try PropertyPath("addresses[2].city").set("San Mateo", in: &body)
        try PropertyPath("phones[1]").set("650", in: &body)
        #expect(body["name"] == ["first": "John", "last": "Doe"])
        #expect(body["addresses"] == [["city": "SF"], nil, ["city": "San Mateo"]])
        #expect(body["phones"] == [nil, "650"])
        #expect(throws: TestServerError.self) { try PropertyPath("name.first.value").set("x", in: &body) }
        #expect(throws: TestServerError.self) { try PropertyPath("name[0]").set("x", in: &body) }
    }

    @Test func removeIgnoresMissingPaths() throws {
        var body: [String: JSONValue] = ["people": ["a", "b", "c"], "x": ["y": 1]]
        try PropertyPath("people[1]").remove(from: &body)
        try PropertyPath("people[9]").remove(from: &body)
        try PropertyPath("x.z.w").remove(from: &body)
        try PropertyPath("x.y").remove(from: &body)
        #expect(body == ["people": ["a", "c"], "x": [:]])
    }
}
