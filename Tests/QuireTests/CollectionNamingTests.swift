import Foundation
import Testing

@testable import Quire

@Suite struct CollectionNamingTests {
    static let validNames = ["a", "A", "0", "-", "abcXYZ019-_%", String(repeating: "x", count: 251)]
    static let invalidNames =
        ["_", "%", "_a", "%a", "", String(repeating: "x", count: 252)]
        + "!@#$^&*()+={}[]<>,.?/:;\"'\\|`~".map { "a\($0)z" }

    @Test(arguments: validNames)
    func validNamesAreAccepted(name: String) throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "naming", config: DatabaseConfiguration(directory: directory.path))
        let collection = try database.createCollection(name: name, scope: name)
        #expect(collection.name == name)
        #expect(collection.scope.name == name)
        #expect(collection.fullName == "\(name).\(name)")
        #expect(try database.collection(name: name, scope: name) == collection)
    }

    @Test(arguments: invalidNames)
    func invalidNamesAreRejected(name: String) throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "naming", config: DatabaseConfiguration(directory: directory.path))
        let asCollection = #expect(throws: QuireError.self) { try database.createCollection(name: name, scope: "s") }
        #expect(asCollection?.code == .invalidParameter)
        let asScope = #expect(throws: QuireError.self) { try database.createCollection(name: "c", scope: name) }
        #expect(asScope?.code == .invalidParameter)
        #expect(throws: QuireError.self) { try database.collection(name: name, scope: "s") }
    }

    @Test func namesAreCaseSensitive() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "case", config: DatabaseConfiguration(directory: directory.path))
        let upper = try database.createCollection(name: "colA", scope: "scopeA")
        let lower = try database.createCollection(name: "cola", scope: "scopeA")
        let otherScope = try database.createCollection(name: "colA", scope: "scopea")
        #expect(upper != lower)
        #expect(upper != otherScope)
        try upper.save(document: MutableDocument(id: "d1"))
        #expect(upper.count == 1)
        #expect(lower.count == 0)
        #expect(otherScope.count == 0)
        #expect(try database.collections(scope: "scopeA").map(\.name) == ["colA", "cola"])
        #expect(try database.scopes().map(\.name) == ["_default", "scopeA", "scopea"])
    }
}
