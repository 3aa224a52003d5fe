import Foundation
import Quire
import Testing

@testable import QuireSync

@Suite struct DocumentEndpointTests {
    @Test func putCreatesThenUpdatesWithTheCurrentRevision() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            let created = try await client.put("/db/doc1", ["name": "Ada"])
            #expect(created.status == 201)
            #expect(created.json["ok"] == true)
            #expect(created.json["id"] == "doc1")
            let rev1 = try #require(created.json["rev"]?.stringValue)
            #expect(rev1.hasPrefix("1-"))
            #expect(try harness.collection.document(id: "doc1")?.string(forKey: "name") == "Ada")

            let updated = try await client.put("/db/doc1", ["_rev": .string(rev1), "name": "Grace"])
            #expect(updated.status == 201)
            let rev2 = try #require(updated.json["rev"]?.stringValue)
            #expect(rev2.hasPrefix("2-"))
            #expect(try harness.collection.document(id: "doc1")?.string(forKey: "name") == "Grace")

            let fetched = try await client.get("/db/doc1")
            #expect(fetched.status == 200)
            #expect(fetched.json["_id"] == "doc1")
            #expect(fetched.json["_rev"] == .string(rev2))
            #expect(fetched.json["name"] == "Grace")
            #expect(fetched.json["_revisions"] == nil)

            let withRevs = try await client.get("/db/doc1?revs=true")
            let revisions = try RevisionsField(json: try #require(withRevs.json["_revisions"]))
            #expect(revisions.revisionIDs == [rev2, rev1])
        }
    }

    @Test func staleOrMissingRevisionsConflict() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            let rev1 = try #require(try await client.put("/db/doc", ["v": 1]).json["rev"]?.stringValue)
            _ = try await client.put("/db/doc", ["_rev": .string(rev1), "v": 2])
            let stale = try await client.put("/db/doc", ["_rev": .string(rev1), "v": 3])
            #expect(stale.status == 409)
            #expect(stale.json["error"] == "conflict")
            #expect(try await client.put("/db/doc", ["v": 3]).status == 409)
            #expect(try await client.put("/db/new", ["_rev": "1-abc", "v": 1]).status == 409)
            #expect(try harness.collection.document(id: "doc")?.int(forKey: "v") == 2)
            #expect(try harness.collection.document(id: "new") == nil)
        }
    }

    @Test func badBodiesAre400() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            #expect(try await client.put("/db/doc", ["_id": "other", "v": 1]).status == 400)
            #expect(try await client.put("/db/doc", ["_rev": "nonsense", "v": 1]).status == 400)
            #expect(try await client.put("/db/doc", ["_deleted": "yes"]).status == 400)
            #expect(try await client.put("/db/doc", ["_revisions": ["start": 0, "ids": []]]).status == 400)
            #expect(try await client.put("/db/doc?new_edits=false", ["v": 1]).status == 400)
            #expect(try await client.put("/db/doc?new_edits=maybe", ["v": 1]).status == 400)
            #expect(harness.collection.count == 0)
        }
    }

    @Test func deleteWritesATombstone() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            let rev1 = try #require(try await client.put("/db/doc", ["v": 1]).json["rev"]?.stringValue)
            #expect(try await client.send("DELETE", "/db/doc").status == 409)
            #expect(try await client.send("DELETE", "/db/doc?rev=1-wrong").status == 409)
            let deleted = try await client.send("DELETE", "/db/doc?rev=\(rev1)")
            #expect(deleted.status == 200)
            let tombstone = try #require(deleted.json["rev"]?.stringValue)
            #expect(tombstone.hasPrefix("2-"))
            let gone = try await client.get("/db/doc")
            #expect(gone.status == 404)
            #expect(gone.json == ["error": "not_found", "reason": "deleted"])
            let old = try await client.get("/db/doc?rev=\(tombstone)")
            #expect(old.status == 200)
            #expect(old.json["_deleted"] == true)
            #expect(try await client.send("DELETE", "/db/missing?rev=1-abc").status == 404)
            // A deleted document can be created again.
            #expect(try await client.put("/db/doc", ["v": 2]).status == 201)
        }
    }

    @Test func missingDocumentsAre404() async throws {
        try await ListenerHarness.with { harness async throws in
            let missing = try await harness.client.get("/db/nothing")
            #expect(missing.status == 404)
            #expect(missing.json == ["error": "not_found", "reason": "missing"])
            try harness.save("doc", #"{"a":1}"#)
            #expect(try await harness.client.get("/db/doc?rev=9-nope").status == 404)
            #expect(try await harness.client.get("/db/doc?open_revs=nonsense").status == 400)
            #expect(try await harness.client.get("/db/doc?open_revs=%7B%7D").status == 400)
        }
    }

    @Test func newEditsFalseRefusesConflictsAndOpenRevsListsThem() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            let base: JSONValue = ["_id": "c", "_rev": "1-aaa", "v": 0]
            #expect(try await client.put("/db/c?new_edits=false", base).status == 201)
            let left: JSONValue = ["_rev": "2-bbb", "_revisions": ["start": 2, "ids": ["bbb", "aaa"]], "v": 1]
            let right: JSONValue = ["_rev": "2-ccc", "_revisions": ["start": 2, "ids": ["ccc", "aaa"]], "v": 2]
            #expect(try await client.put("/db/c?new_edits=false", left).json["rev"] == "2-bbb")
            // A second live branch is a conflict, refused as Couchbase Lite's listener refuses it.
            let refused = try await client.put("/db/c?new_edits=false", right)
            #expect(refused.status == 409)
            #expect(refused.json["error"] == "conflict")
            // A conflict made locally (a replicator's pull does this) is listed.
            try harness.collection.insert(
                ForeignRevision(
                    documentID: "c", revisionID: "2-ccc", ancestors: ["1-aaa"], isDeleted: false, body: ["v": 2]))
            // CouchDB's winner: same generation, higher revision ID.
            let current = try await client.get("/db/c?conflicts=true")
            #expect(current.json["_rev"] == "2-ccc")
            #expect(current.json["_conflicts"] == ["2-bbb"])

            let all = try await client.get("/db/c?open_revs=all&revs=true")
            #expect(all.status == 200)
            let revs = Set((all.json.arrayValue ?? []).compactMap { $0["ok"]?["_rev"]?.stringValue })
            #expect(revs == ["2-bbb", "2-ccc"])

            let some = try await client.get(#"/db/c?open_revs=%5B%222-bbb%22,%221-aaa%22,%229-zzz%22%5D&latest=true"#)
            let items = some.json.arrayValue ?? []
            #expect(items.count == 3)
            #expect(items.first?["ok"]?["_rev"] == "2-bbb")
            #expect(items.dropFirst().first?["ok"]?["_rev"] != nil)  // 1-aaa → a leaf descending from it
            #expect(items.last == ["missing": "9-zzz"])
            let exact = try await client.get(#"/db/c?open_revs=%5B%221-aaa%22%5D"#)
            #expect(exact.json == [["missing": "1-aaa"]])
        }
    }

    @Test func blobsTravelAsAttachments() async throws {
        try await ListenerHarness.with { harness async throws in
            let bytes = Data("picture bytes".utf8)
            let document = MutableDocument(id: "pic")
            document.setValue(Blob(contentType: "image/png", data: bytes), forKey: "photo")
            document.setValue("cat", forKey: "name")
            try harness.collection.save(document: document)
            let digest = try #require(document.blob(forKey: "photo")?.digest)

            let stubbed = try await harness.client.get("/db/pic")
            let stub = try #require(stubbed.json["_attachments"]?["blob_/photo"])
            #expect(stub["stub"] == true)
            #expect(stub["digest"] == .string(digest))
            #expect(stub["length"] == .int(Int64(bytes.count)))
            #expect(stub["content_type"] == "image/png")
            #expect(stubbed.json["photo"]?["@type"] == "blob")

            let inline = try await harness.client.get("/db/pic?attachments=true")
            let data = try #require(inline.json["_attachments"]?["blob_/photo"]?["data"]?.stringValue)
            #expect(Data(base64Encoded: data) == bytes)

            let raw = try await harness.client.get("/db/pic/blob_/photo")
            #expect(raw.status == 200)
            #expect(raw.body == bytes)
            #expect(raw.header("Content-Type") == "image/png")
            #expect(try await harness.client.get("/db/pic/blob_%2Fphoto").body == bytes)
            #expect(try await harness.client.get("/db/pic/blob_/nothing").status == 404)
        }
    }

    @Test func attachmentsWithDataBecomeBlobs() async throws {
        try await ListenerHarness.with { harness async throws in
            let bytes = Data("hello attachment".utf8)
            let sha1 = AttachmentCodec.sha1Digest(of: bytes)
            let body: JSONValue = [
                "photo": [
                    "@type": "blob", "digest": .string(sha1), "length": .int(Int64(bytes.count)),
                    "content_type": "text/plain",
                ],
                "_attachments": [
                    "blob_/photo": ["content_type": "text/plain", "data": .string(bytes.base64EncodedString())],
                    "notes.txt": [
                        "content_type": "text/plain", "data": .string(bytes.base64EncodedString()),
                        "digest": .string("md5-" + DigestText.base64(MD5.hash(bytes))),
                    ],
                ],
            ]
            let reply = try await harness.client.put("/db/doc", body)
            #expect(reply.status == 201)
            let stored = try #require(try harness.collection.document(id: "doc"))
            #expect(try stored.blob(forKey: "photo")?.readContent() == bytes)
            // The mirror is dropped; the other attachment stays, as a stub with a sha1 digest.
            let leaves = try harness.collection.leaves(id: "doc")
            let kept = try #require(leaves.first?.body["_attachments"]?.objectValue)
            #expect(Set(kept.keys) == ["notes.txt"])
            #expect(kept["notes.txt"]?["digest"] == .string(sha1))
            #expect(kept["notes.txt"]?["stub"] == true)
            #expect(try await harness.client.get("/db/doc/notes.txt").body == bytes)
        }
    }

    @Test func wrongOrMissingAttachmentBytesAreRefused() async throws {
        try await ListenerHarness.with { harness async throws in
            let bytes = Data("content".utf8)
            let client = harness.client
            let wrongDigest: JSONValue = [
                "_attachments": [
                    "a.txt": ["data": .string(bytes.base64EncodedString()), "digest": "md5-AAAAAAAAAAAAAAAAAAAAAA=="]
                ]
            ]
            #expect(try await client.put("/db/d1", wrongDigest).status == 400)
            let wrongLength: JSONValue = [
                "_attachments": ["a.txt": ["data": .string(bytes.base64EncodedString()), "length": 99]]
            ]
            #expect(try await client.put("/db/d2", wrongLength).status == 400)
            let badBase64: JSONValue = ["_attachments": ["a.txt": ["data": "!!!"]]]
            #expect(try await client.put("/db/d3", badBase64).status == 400)
            let unknownStub: JSONValue = ["_attachments": ["a.txt": ["stub": true, "digest": "md5-xyz", "length": 3]]]
            #expect(try await client.put("/db/d4", unknownStub).status == 404)
            let danglingBlob: JSONValue = [
                "photo": ["@type": "blob", "digest": "sha1-AAAAAAAAAAAAAAAAAAAAAAAAAAA=", "length": 3]
            ]
            #expect(try await client.put("/db/d5", danglingBlob).status == 400)
            let mismatch: JSONValue = [
                "photo": ["@type": "blob", "digest": "sha1-AAAAAAAAAAAAAAAAAAAAAAAAAAA=", "length": 7],
                "_attachments": ["blob_/photo": ["data": .string(bytes.base64EncodedString())]],
            ]
            #expect(try await client.put("/db/d6", mismatch).status == 400)
            #expect(harness.collection.count == 0)
            for id in ["d1", "d2", "d3", "d4", "d5", "d6"] {
                #expect(try harness.collection.leaves(id: id).isEmpty)
            }
        }
    }

    /// Keys that differ only in Unicode normalisation stay two keys through the document
    /// endpoints: a normal edit, a replicated revision (`new_edits=false`) and the reads.
    @Test func bodiesKeepBothSpellingsOfAKey() async throws {
        try await ListenerHarness.with { harness async throws in
            let (nfc, nfd) = ("caf\u{E9}", "cafe\u{301}")
            let client = harness.client
            let edit = "{\"\(nfc)\": 1, \"\(nfd)\": 2}"
            #expect(try await client.send("PUT", "/db/edited", bytes: Data(edit.utf8)).status == 201)
            let replicated = "{\"_rev\": \"1-abc\", \"\(nfc)\": 3, \"\(nfd)\": 4}"
            let put = try await client.send("PUT", "/db/replicated?new_edits=false", bytes: Data(replicated.utf8))
            #expect(put.status == 201)
            for (id, values) in [("edited", (1, 2)), ("replicated", (3, 4))] {
                let stored = try #require(try harness.collection.document(id: id), "\(id)")
                #expect(stored.int(forKey: nfc) == values.0, "\(id)")
                #expect(stored.int(forKey: nfd) == values.1, "\(id)")
                let read = try await client.get("/db/\(id)?revs=true")
                #expect(read.json[nfc] == .int(Int64(values.0)), "\(id)")
                #expect(read.json[nfd] == .int(Int64(values.1)), "\(id)")
            }
        }
    }
}
