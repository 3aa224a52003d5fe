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
        [
            "@type": "blob", "digest": .string(AttachmentCodec.sha1Digest(of: data)), "length": .int(Int64(data.count)),
            "content_type": .string(type),
        ]
    }

    @Test func findsBlobsByJSONPointer() {
        let data = Data("x".utf8)
        let body: JSONObject = [
            "photo": blob(data),
            "a/b": ["c~d": blob(data)],
            "list": [1, ["deep": blob(data)]],
            "notblob": ["@type": "blob"],
            "nested": ["@type": "blob", "digest": "sha1-x", "inner": blob(data)],
        ]
        let pointers = Set(AttachmentCodec.blobReferences(in: body).keys.map(\.text))
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
            var tombstone = CouchDocument(
                id: "t", revisionID: "2-a", isDeleted: true, body: [:], attachments: ["x": [:]])
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
                    "blob_/photo": [
                        "data": .string(data.base64EncodedString()),
                        "digest": .string(AttachmentCodec.sha1Digest(of: data)),
                    ],
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
            let known: JSONObject = [
                "again.txt": ["digest": .string(AttachmentCodec.sha1Digest(of: data)), "length": 8]
            ]
            #expect(
                try codec.decode(stub, known: known)["_attachments"]?["again.txt"]?["digest"]
                    == .string(AttachmentCodec.sha1Digest(of: data)))
            #expect(throws: QuireError.self) { try codec.decode(stub) }
        }
    }

    /// CouchDB computes the digest of inline data (couch_att:inline_from_json) and ignores a
    /// sender's digest it cannot check, such as PouchDB 2.2.3's `md5-<hex>`; a checkable
    /// digest (`sha1-` or `md5-` over Base64) that does not match is still refused.
    @Test func inlineDataKeepsItsRealDigestWhateverFormTheSenderUsed() throws {
        try withCodec { codec in
            let data = Data("pouch bytes".utf8)
            let hex = MD5.hash(data).map { String(format: "%02x", $0) }.joined()
            for given in ["md5-\(hex)", "crc32-1234", "sha1-not-base64"] {
                let document = CouchDocument(
                    id: "p", revisionID: "1-a", body: [:],
                    attachments: [
                        "att.txt": [
                            "data": .string(data.base64EncodedString()), "digest": .string(given),
                            "content_type": "text/plain",
                        ]
                    ])
                let body = try codec.decode(document)
                #expect(
                    body["_attachments"]?["att.txt"]?["digest"] == .string(AttachmentCodec.sha1Digest(of: data)),
                    "\(given)")
                #expect(body["_attachments"]?["att.txt"]?["length"] == .int(Int64(data.count)))
            }
            #expect(try codec.storedData(digest: AttachmentCodec.sha1Digest(of: data), length: nil) == data)

            let wrong = "md5-" + DigestText.base64(MD5.hash(Data("other".utf8)))
            let mismatched = CouchDocument(
                id: "p", revisionID: "1-b", body: [:],
                attachments: [
                    "att.txt": ["data": .string(data.base64EncodedString()), "digest": .string(wrong), "length": 11]
                ])
            let error = #expect(throws: QuireError.self) { try codec.decode(mismatched) }
            #expect(error?.message.contains("does not match its digest '\(wrong)'") == true)
            #expect(error?.message.contains("string(") == false)
            let badLength = CouchDocument(
                id: "p", revisionID: "1-c", body: [:],
                attachments: ["att.txt": ["data": .string(data.base64EncodedString()), "length": 3]])
            let lengthError = #expect(throws: QuireError.self) { try codec.decode(badLength) }
            #expect(lengthError?.message.contains("'length' says 3 but the data has 11 bytes") == true)
        }
    }

    /// PouchDB 2.2.3 pushing a document with an inline attachment through `_bulk_docs`: it is
    /// stored under its real digest and served back; a later stub naming bytes that are not
    /// stored is still refused.
    @Test func bulkDocsAcceptsPouchDBsInlineAttachments() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            let data = Data("attached by PouchDB".utf8)
            let hex = MD5.hash(data).map { String(format: "%02x", $0) }.joined()
            let document: JSONValue = [
                "_id": "pouch", "_rev": "1-aaaa", "_revisions": ["start": 1, "ids": ["aaaa"]], "title": "x",
                "_attachments": [
                    "note.txt": [
                        "content_type": "text/plain", "data": .string(data.base64EncodedString()),
                        "digest": .string("md5-\(hex)"),
                    ]
                ],
            ]
            let reply = try await client.post("/db/_bulk_docs", ["docs": [document], "new_edits": false])
            #expect(reply.status == 201, "\(reply.text)")
            #expect(!reply.text.contains("error"), "\(reply.text)")
            let stored = try await client.get("/db/pouch?attachments=true")
            #expect(stored.json["_attachments"]?["note.txt"]?["data"] == .string(data.base64EncodedString()))
            #expect(
                stored.json["_attachments"]?["note.txt"]?["digest"] == .string(AttachmentCodec.sha1Digest(of: data)))
            let raw = try await client.get("/db/pouch/note.txt")
            #expect(raw.body == data)

            let missing = "sha1-" + DigestText.base64(SHA1.hash(data: Data("never stored".utf8)))
            let stub: JSONValue = [
                "_id": "pouch", "_rev": "2-bbbb", "_revisions": ["start": 2, "ids": ["bbbb", "aaaa"]],
                "_attachments": ["other.txt": ["stub": true, "digest": .string(missing), "length": 12]],
            ]
            let refused = try await client.post("/db/_bulk_docs", ["docs": [stub], "new_edits": false])
            #expect(refused.text.contains("missing_stub"), "\(refused.text)")
            #expect(try harness.collection.revisionInfo(id: "pouch")?.revisionID == "1-aaaa")
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
            #expect(throws: QuireError.self) {
                try codec.storedData(digest: "sha1-AAAAAAAAAAAAAAAAAAAAAAAAAAA=", length: nil)
            }
        }
    }
}
