import Foundation
import Testing

@testable import Quire

@Suite struct ScopeTests {
    private func open(_ directory: TemporaryDirectory, name: String = "scopes") throws -> Database {
        try Database(name: name, config: DatabaseConfiguration(directory: directory.path))
    }

    @Test func theDefaultScopeAndCollectionAlwaysExist() throws {
        let directory = TemporaryDirectory()
        let database = try open(directory)
        #expect(Database.defaultScopeName == "_default")
        #expect(Database.defaultCollectionName == "_default")
        let collection = try database.defaultCollection()
        #expect(collection.fullName == "_default._default")
        #expect(try database.defaultScope().name == "_default")
        #expect(try database.scopes().map(\.name) == ["_default"])
        #expect(try database.collections().map(\.name) == ["_default"])
        let error = #expect(throws: QuireError.self) { try database.deleteCollection(name: "_default") }
        #expect(error?.code == .invalidParameter)
        #expect(try database.defaultCollection() == collection)
    }

    @Test func createCollectionCreatesTheScopeAndReturnsTheExistingOne() throws {
        let directory = TemporaryDirectory()
        let database = try open(directory)
        #expect(try database.scope(name: "scopeA") == nil)
        let first = try database.createCollection(name: "colA", scope: "scopeA")
        try first.save(document: MutableDocument(id: "doc"))
        let again = try database.createCollection(name: "colA", scope: "scopeA")
        #expect(again == first)
        #expect(again.count == 1)
        let scope = try #require(try database.scope(name: "scopeA"))
        #expect(try scope.collections().map(\.name) == ["colA"])
        #expect(try scope.collection(name: "colA") == first)
        #expect(try scope.collection(name: "other") == nil)
        #expect(try database.collection(name: "missing", scope: "scopeA") == nil)
    }

    @Test func aScopeVanishesWithItsLastCollection() throws {
        let directory = TemporaryDirectory()
        let database = try open(directory)
        try database.createCollection(name: "colA", scope: "scopeA")
        try database.createCollection(name: "colB", scope: "scopeA")
        let scope = try #require(try database.scope(name: "scopeA"))
        try database.deleteCollection(name: "colA", scope: "scopeA")
        #expect(try scope.collections().map(\.name) == ["colB"])
        try database.deleteCollection(name: "colB", scope: "scopeA")
        #expect(try database.scope(name: "scopeA") == nil)
        #expect(try scope.collections().isEmpty)
        #expect(try scope.collection(name: "colA") == nil)
        #expect(try database.scopes().map(\.name) == ["_default"])
        try database.deleteCollection(name: "never", scope: "scopeA")
    }

    @Test func aDeletedCollectionsObjectThrowsNotOpen() throws {
        let directory = TemporaryDirectory()
        let database = try open(directory)
        let collection = try database.createCollection(name: "colA", scope: "scopeA")
        try collection.save(document: MutableDocument(id: "doc"))
        try database.deleteCollection(name: "colA", scope: "scopeA")
        for operation in [
            { _ = try collection.document(id: "doc") },
            { try collection.save(document: MutableDocument(id: "new")) },
            { try collection.purge(id: "doc") },
        ] as [() throws -> Void] {
            let error = #expect(throws: QuireError.self, performing: operation)
            #expect(error?.code == .notOpen)
        }
        #expect(collection.count == 0)
        let recreated = try database.createCollection(name: "colA", scope: "scopeA")
        #expect(recreated.count == 0)
        let stale = #expect(throws: QuireError.self) { _ = try collection.document(id: "doc") }
        #expect(stale?.code == .notOpen)
    }

    @Test func everyObjectOfAClosedOrDeletedDatabaseThrowsNotOpen() throws {
        let directory = TemporaryDirectory()
        let database = try open(directory)
        let collection = try database.createCollection(name: "colA", scope: "scopeA")
        let scope = try #require(try database.scope(name: "scopeA"))
        try database.close()
        for operation in [
            { _ = try collection.document(id: "x") },
            { _ = try scope.collections() },
            { _ = try database.collections() },
            { _ = try database.createCollection(name: "b") },
            { try database.inBatch {} },
        ] as [() throws -> Void] {
            let error = #expect(throws: QuireError.self, performing: operation)
            #expect(error?.code == .notOpen)
        }

        let second = try open(directory, name: "deleted")
        let secondCollection = try second.defaultCollection()
        try second.delete()
        #expect(!Database.exists(withName: "deleted", inDirectory: directory.path))
        let error = #expect(throws: QuireError.self) { _ = try secondCollection.document(id: "x") }
        #expect(error?.code == .notOpen)
    }

    @Test func deletingWhileAnotherObjectHasTheDatabaseOpenIsBusy() throws {
        let directory = TemporaryDirectory()
        let first = try open(directory, name: "shared")
        let second = try open(directory, name: "shared")
        let byPath = Database(path: first.filePath)
        try first.defaultCollection().save(document: MutableDocument(id: "kept"))
        for attempt in [
            { try first.delete() }, { try Database.delete(withName: "shared", inDirectory: directory.path) },
        ] {
            let error = #expect(throws: QuireError.self, performing: attempt)
            #expect(error?.code == .busy)
        }
        #expect(try second.defaultCollection().document(id: "kept") != nil)
        try second.close()
        try byPath.close()
        try first.delete()
        #expect(!Database.exists(withName: "shared", inDirectory: directory.path))
        let error = #expect(throws: QuireError.self) { _ = try second.defaultCollection() }
        #expect(error?.code == .notOpen)
    }

    @Test func everythingSurvivesCloseAndReopen() throws {
        let directory = TemporaryDirectory()
        var database = try open(directory)
        let collection = try database.createCollection(name: "colA", scope: "scopeA")
        try collection.save(document: MutableDocument(id: "doc", data: ["n": 1]))
        let uuid = try database.publicUUID()
        try database.close()
        database = try open(directory)
        #expect(try database.publicUUID() == uuid)
        let reopened = try #require(try database.collection(name: "colA", scope: "scopeA"))
        #expect(try reopened.document(id: "doc")?.int(forKey: "n") == 1)
        #expect(try database.scopes().map(\.name) == ["_default", "scopeA"])
    }
}
