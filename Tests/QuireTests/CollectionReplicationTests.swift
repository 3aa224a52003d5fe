import Foundation
import Testing

@testable import Quire

/// The store calls the replicator relies on: leaf revisions as documents, unsaved revisions
/// as documents, resolving with a document, listing local documents, and blobs by reference.
@Suite struct CollectionReplicationTests {
    private func makeDatabase() throws -> (TemporaryDirectory, Database, Collection) {
        let directory = TemporaryDirectory()
        let database = try Database(name: "db", config: DatabaseConfiguration(directory: directory.path))
        return (directory, database, try database.defaultCollection())
    }

    @Test func leafRevisionsReadAsDocuments() throws {
        let (directory, database, collection) = try makeDatabase()
        defer { withExtendedLifetime(directory) { try? database.close() } }
        try collection.insert(
            ForeignRevision(documentID: "d", revisionID: "1-a", ancestors: [], isDeleted: false, body: ["v": 1]))
        try collection.insert(
            ForeignRevision(documentID: "d", revisionID: "2-b", ancestors: ["1-a"], isDeleted: false, body: ["v": 2]))
        try collection.insert(
            ForeignRevision(documentID: "d", revisionID: "2-c", ancestors: ["1-a"], isDeleted: true, body: [:]))
        #expect(try collection.document(id: "d", revisionID: "2-b")?.int(forKey: "v") == 2)
        let tombstone = try #require(try collection.document(id: "d", revisionID: "2-c"))
        #expect(tombstone.isDeleted)
        #expect(tombstone.count == 0)
        #expect(try collection.document(id: "d", revisionID: "1-a") == nil)
        #expect(try collection.document(id: "missing", revisionID: "1-a") == nil)
    }

    @Test func unsavedRevisionsReadAsDocumentsWithStoredBlobs() throws {
        let (directory, database, collection) = try makeDatabase()
        defer { withExtendedLifetime(directory) { try? database.close() } }
        let blob = Blob(contentType: "text/plain", data: Data("hello".utf8))
        try database.saveBlob(blob: blob)
        let properties = blob.properties
        let stored = try #require(try database.getBlob(properties: properties))
        #expect(try stored.readContent() == Data("hello".utf8))
        #expect(
            try database.getBlob(properties: ["@type": "blob", "digest": "sha1-AAAAAAAAAAAAAAAAAAAAAAAAAAA="]) == nil)
        #expect(throws: QuireError.self) { try database.getBlob(properties: ["not": "a blob"]) }

        let body = try #require(JSONValue(any: ["photo": properties])?.objectMembers)
        let document = collection.document(
            for: ForeignRevision(documentID: "d", revisionID: "1-a", ancestors: [], isDeleted: false, body: body))
        #expect(document.revisionID == "1-a")
        #expect(try document.blob(forKey: "photo")?.readContent() == Data("hello".utf8))
        #expect(try collection.revisionInfo(id: "d") == nil)
    }

    @Test func resolvingWithADocumentStoresItsBlobsAndBody() throws {
        let (directory, database, collection) = try makeDatabase()
        defer { withExtendedLifetime(directory) { try? database.close() } }
        try collection.insert(
            ForeignRevision(documentID: "d", revisionID: "1-a", ancestors: [], isDeleted: false, body: ["v": 1]))
        try collection.insert(
            ForeignRevision(documentID: "d", revisionID: "1-b", ancestors: [], isDeleted: false, body: ["v": 2]))
        let merged = MutableDocument(id: "d")
        merged.setValue(3, forKey: "v")
        merged.setValue(Blob(contentType: "text/plain", data: Data("merged".utf8)), forKey: "note")
        try collection.resolveConflict(id: "d", with: merged)
        let current = try #require(try collection.document(id: "d"))
        #expect(current.int(forKey: "v") == 3)
        #expect(try current.blob(forKey: "note")?.readContent() == Data("merged".utf8))
        #expect(try collection.conflictingRevisionIDs(id: "d").isEmpty)

        try collection.insert(
            ForeignRevision(documentID: "e", revisionID: "1-a", ancestors: [], isDeleted: false, body: ["v": 1]))
        try collection.insert(
            ForeignRevision(documentID: "e", revisionID: "1-b", ancestors: [], isDeleted: false, body: ["v": 2]))
        try collection.resolveConflict(id: "e", with: nil)
        #expect(try collection.document(id: "e") == nil)
        #expect(try collection.revisionInfo(id: "e")?.isDeleted == true)
    }

    @Test func localDocumentIDsAreListedSorted() throws {
        let (directory, database, collection) = try makeDatabase()
        defer { withExtendedLifetime(directory) { try? database.close() } }
        #expect(try collection.localDocumentIDs().isEmpty)
        try collection.setLocalDocument(id: "b", body: ["x": 1])
        try collection.setLocalDocument(id: "a", body: ["x": 2])
        #expect(try collection.localDocumentIDs() == ["a", "b"])
        let other = try database.createCollection(name: "other", scope: "s")
        #expect(try other.localDocumentIDs().isEmpty)
    }
}
