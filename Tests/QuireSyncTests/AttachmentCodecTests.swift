import Foundation
import Quire
import Testing
@testable import QuireSync

@Suite struct AttachmentCodecTests {
    /// A codec over a scratch database folder.
    private func withCodec(_ body: (AttachmentCodec) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("codec-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(name: "codec", config: DatabaseConfiguration(directory: directory.path))
        defer { try? database.close() }
        try body(AttachmentCodec(database: database))
    }

    private func blob(_ data: Data, type: String = "text/plain") -> JSONValue {
        ["@type": "blob", "digest": .string(AttachmentCodec.sha1Digest(of: data)), "length": .int(Int64(data.count)), "content_type": .string(type)]
    }

    @Test func findsBlobsByJSONPointer() {
        let data = Data("x".utf8)
        let body: [String: JSONValue] = [
            "photo": blob(data),
            "a/b": ["c~d": blob(data)],
            "list": [1, ["deep": blob(data)]],
            "notblob": ["@type": "blob"],
            "nested": ["@type": "blob", "digest": "sha1-x", "inner": blob(data)],
        ]
        let pointers = Set(AttachmentCodec.blobReferences(in: body).keys)
        #expect(pointers == ["/photo", "/a~1b/c~0d", "/list/1/deep", "/nested"])
    }

    @Test func encodesStubsOrData() throws {
        try withCodec { codec in
            let data = Data("bytes".utf8)
            _ = try codec.save(data, contentType: nil)
            var document = CouchDocument(id: "d", revisionID: "3-c", body: ["photo": blob(data)])
            try codec.encode(&document, includeData: false)
            let stub = try #require(document.attachments?["blob_/photo"])
            #expect(stub["stub"] == true)
            #expect(stub["revpos"] == 3)
            #expect(stub["length"] == 5)
            #expect(stub["data"] == nil)
            try codec.encode(&document, includeData: true)
            #expect(document.attachments?["blob_/photo"]?["data"] == .string(data.base64EncodedString()))
            #expect(document.attachments?["blob_/photo"]?["stub"] == nil)

            var missing = CouchDocument(id: "m", revisionID: "1-a", body: ["photo": blob(Data("absent".utf8))])
            #expect(throws: QuireError.self) { try codec.encode(&missing, includeData: true) }
            var tombstone = CouchDocument(id: "t", revisionID: "2-a", isDeleted: true, body: [:], attachments: ["x": [:]])
            try codec.encode(&tombstone, includeData: true)
            #expect(tombstone.attachments == nil)
        }
    }

    @Test func decodeStoresBytesAndDropsMirrors() throws {
        try withCodec { codec in
            let data = Data("incoming".utf8)
            let document = CouchDocument(
                id: "d", revisionID: "1-a", body: ["photo": blob(data)],
                attachments: [
                    "blob_/photo": ["data": .string(data.base64EncodedString()), "digest": .string(AttachmentCodec.sha1Digest(of: data))],
                    "legacy.txt": ["data": .string(data.base64EncodedString()), "content_type": "text/plain"],
                ])
            let body = try codec.decode(document)
            #expect(body["photo"] == blob(data))
            #expect(body["_attachments"]?.objectValue?.keys.sorted() == ["legacy.txt"])
            #expect(body["_attachments"]?["legacy.txt"]?["stub"] == true)
            #expect(try codec.storedData(digest: AttachmentCodec.sha1Digest(of: data), length: nil) == data)
            // A stub for bytes already here passes, by sha1 digest or by a known attachment.
            let stub = CouchDocument(
                id: "d", revisionID: "2-b", body: [:],
                attachments: ["again.txt": ["stub": true, "digest": "md5-whatever", "length": 8]])
            let known: [String: JSONValue] = ["again.txt": ["digest": .string(AttachmentCodec.sha1Digest(of: data)), "length": 8]]
            #expect(try codec.decode(stub, known: known)["_attachments"]?["again.txt"]?["digest"] == .string(AttachmentCodec.sha1Digest(of: data)))
            #expect(throws: QuireError.self) { try codec.decode(stub) }
        }
    }

    @Test func matchesSHA1AndMD5Digests() {
        let data = Data("abc".utf8)
        #expect(AttachmentCodec.matches(digest: "sha1-qZk+NkcGgWq6PiVxeFDCbJzQ2J0=", data: data))
        #expect(AttachmentCodec.matches(digest: "md5-kAFQmDzST7DWlj99KOF/cg==", data: data))
        #expect(!AttachmentCodec.matches(digest: "md5-AAAAAAAAAAAAAAAAAAAAAA==", data: data))
        #expect(!AttachmentCodec.matches(digest: "crc32-abc", data: data))
    }

    @Test func blobStoreRefusesDigestsThatAreNotBase64() throws {
        try withCodec { codec in
            #expect(!codec.isStored(digest: "sha1-../../etc/passwd"))
            #expect(throws: QuireError.self) { try codec.storedData(digest: "sha1-..%2F..%2Fx", length: nil) }
            #expect(throws: QuireError.self) { try codec.storedData(digest: "md5-abc", length: nil) }
            #expect(throws: QuireError.self) { try codec.storedData(digest: "sha1-AAAAAAAAAAAAAAAAAAAAAAAAAAA=", length: nil) }
        }
    }
}
