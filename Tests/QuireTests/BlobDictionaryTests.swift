import Foundation
import Testing

@testable import Quire

/// Which dictionaries are blobs: `Blob.isBlob` as Couchbase Lite's (testGetBlobWithInvalidProps),
/// and the dictionaries a document reads as blobs, as Couchbase Lite's Fleece layer makes them.
@Suite struct BlobDictionaryTests {
    private let digest = "sha1-CEwPl0kqx0i9PuDMljrQmZkv1sk="

    @Test func isBlobChecksThePropertyTypes() {
        #expect(
            Blob.isBlob(properties: ["@type": "blob", "digest": digest, "content_type": "text/plain", "length": 5]))
        #expect(Blob.isBlob(properties: ["@type": "blob", "digest": digest, "length": 5.0]))
        #expect(!Blob.isBlob(properties: ["@type": "blob", "digest": digest, "content_type": 1234]))
        #expect(!Blob.isBlob(properties: ["@type": "blob", "digest": digest, "length": "12"]))
        #expect(!Blob.isBlob(properties: ["@type": "bl0b", "digest": digest]))
        #expect(!Blob.isBlob(properties: ["type": "blob", "digest": digest]))
    }

    @Test(arguments: [
        #"{"b":{"@type":"blob","content_type":"text/plain"}}"#,
        #"{"b":{"digest":"sha1-CEwPl0kqx0i9PuDMljrQmZkv1sk=","revpos":1,"stub":true,"length":5}}"#,
    ])
    func blobDictionariesReadAsBlobs(json: String) throws {
        let document = try MutableDocument(id: "d", json: json)
        #expect(document.blob(forKey: "b") != nil, "\(json)")
        #expect(document.dictionary(forKey: "b") == nil)
        let directory = TemporaryDirectory()
        let database = try Database(name: "blobs", config: DatabaseConfiguration(directory: directory.path))
        defer { try? database.close() }
        let collection = try database.defaultCollection()
        try collection.save(document: try MutableDocument(id: "d", json: json))
        let stored = try #require(try collection.document(id: "d"))
        #expect(stored.blob(forKey: "b") != nil, "stored \(json)")
    }

    @Test(arguments: [
        #"{"b":{"digest":"sha1-CEwPl0kqx0i9PuDMljrQmZkv1sk=","length":5}}"#,
        #"{"b":{"@type":"bl0b","digest":"sha1-CEwPl0kqx0i9PuDMljrQmZkv1sk="}}"#,
    ])
    func otherDictionariesStayDictionaries(json: String) throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "blobs", config: DatabaseConfiguration(directory: directory.path))
        defer { try? database.close() }
        let collection = try database.defaultCollection()
        try collection.save(document: try MutableDocument(id: "d", json: json))
        let stored = try #require(try collection.document(id: "d"))
        #expect(stored.blob(forKey: "b") == nil)
        #expect(stored.dictionary(forKey: "b") != nil)
    }
}
