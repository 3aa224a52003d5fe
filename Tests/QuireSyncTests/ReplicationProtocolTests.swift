import Foundation
import Quire
import Testing

@testable import QuireSync

/// A client that knows only the CouchDB replication protocol as documented, talking to the
/// listener over HTTP: it pushes and pulls documents with a conflict, a tombstone and blobs.
@Suite struct ReplicationProtocolTests {
    private static let blobBytes = Data("binary \u{0} blob bytes".utf8)
    private static let noteBytes = Data("a CouchDB attachment".utf8)

    /// What the client holds before pushing: leaf revisions with their ancestry, CouchDB-style.
    private static var sourceRevisions: [JSONValue] {
        let blobDigest = AttachmentCodec.sha1Digest(of: blobBytes)
        return [
            ["_id": "plain", "_rev": "2-b2", "_revisions": ["start": 2, "ids": ["b2", "a1"]], "name": "plain"],
            ["_id": "conflicted", "_rev": "2-x2", "_revisions": ["start": 2, "ids": ["x2", "r1"]], "side": "x"],
            ["_id": "conflicted", "_rev": "2-y2", "_revisions": ["start": 2, "ids": ["y2", "r1"]], "side": "y"],
            [
                "_id": "withblob", "_rev": "1-f1", "_revisions": ["start": 1, "ids": ["f1"]],
                "photo": [
                    "@type": "blob", "digest": .string(blobDigest), "length": .int(Int64(blobBytes.count)),
                    "content_type": "application/octet-stream",
                ],
                "_attachments": [
                    "blob_/photo": [
                        "content_type": "application/octet-stream", "revpos": 1,
                        "digest": .string(blobDigest), "data": .string(blobBytes.base64EncodedString()),
                    ]
                ],
            ],
            [
                "_id": "legacy", "_rev": "1-l1", "_revisions": ["start": 1, "ids": ["l1"]], "title": "notes",
                "_attachments": [
                    "notes.txt": [
                        "content_type": "text/plain", "revpos": 1,
                        "digest": .string("md5-" + DigestText.base64(MD5.hash(noteBytes))),
                        "data": .string(noteBytes.base64EncodedString()),
                    ]
                ],
            ],
            ["_id": "gone", "_rev": "2-d2", "_revisions": ["start": 2, "ids": ["d2", "d1"]], "_deleted": true],
        ]
    }

    @Test func pushWithRevsDiffBulkDocsAndACheckpoint() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            // 1. Both sides' database information.
            let info = try await client.get("/db")
            #expect(info.status == 200)
            #expect(info.json["update_seq"] == "0")
            // 2. No checkpoint yet: a full replication.
            #expect(try await client.get("/db/_local/push-rep").status == 404)
            // 3. Which revisions does the target lack?
            let documents = try Self.sourceRevisions.map { try CouchDocument(json: $0) }
            var wanted: [JSONKey: [String]] = [:]
            for document in documents { wanted[JSONKey(document.id), default: []].append(document.revisionID ?? "") }
            let diffReply = try await client.post("/db/_revs_diff", RevsDiff.Request(revisions: wanted).json)
            let diff = try RevsDiff.Response(json: diffReply.json)
            #expect(Set(diff.entries.keys) == Set(wanted.keys))
            #expect(Set(diff.entries[JSONKey("conflicted")]?.missing ?? []) == ["2-x2", "2-y2"])
            // 4. Upload them as they are.
            let upload = try await client.post(
                "/db/_bulk_docs", ["docs": .array(Self.sourceRevisions), "new_edits": false])
            #expect(upload.status == 201)
            let results = try BulkDocsRequest.results(json: upload.json)
            #expect(results.count == 6)
            // The second branch of "conflicted" would make a conflict: refused with 409
            // `conflict`, as Couchbase Lite's listener refuses incoming conflicts; the rest is
            // written.
            for (index, result) in results.enumerated() {
                if index == 2 {
                    guard case .error(let id, _, let kind, _) = result else {
                        Issue.record("the conflicting revision was written: \(result)")
                        continue
                    }
                    #expect(id == "conflicted" && kind == "conflict")
                } else {
                    guard case .ok = result else {
                        Issue.record("revision \(index) was refused: \(result)")
                        continue
                    }
                }
            }
            // 5. Commit, 6. checkpoint.
            #expect(try await client.send("POST", "/db/_ensure_full_commit", bytes: Data()).status == 201)
            let checkpoint = CheckpointDocument(
                sessionID: "session-1", sourceLastSequence: ChangesSequence(6),
                history: [
                    .init(sessionID: "session-1", recordedSequence: ChangesSequence(6), extra: ["docs_written": 6])
                ])
            #expect(try await client.put("/db/_local/push-rep", checkpoint.json).status == 201)
            // Nothing is missing any more, and pushing again changes nothing.
            let after = try RevsDiff.Response(
                json: try await client.post("/db/_revs_diff", RevsDiff.Request(revisions: wanted).json).json)
            #expect(after.entries.keys.map(\.text) == ["conflicted"])
            #expect(after.entries[JSONKey("conflicted")]?.missing == ["2-y2"])
            let sequence = try harness.collection.lastSequence()
            let again = try await client.post(
                "/db/_bulk_docs", ["docs": .array(Self.sourceRevisions), "new_edits": false])
            #expect(again.status == 201)
            #expect(try harness.collection.lastSequence() == sequence)

            // What the target now holds.
            let collection = harness.collection
            #expect(try collection.revisionInfo(id: "plain")?.history == ["1-a1"])
            let leaves = try collection.leaves(id: "conflicted")
            #expect(leaves.map(\.revisionID) == ["2-x2"])
            #expect(try collection.conflictingRevisionIDs(id: "conflicted").isEmpty)
            let withBlob = try #require(try collection.document(id: "withblob"))
            #expect(try withBlob.blob(forKey: "photo")?.readContent() == Self.blobBytes)
            #expect(try collection.leaves(id: "withblob").first?.body["_attachments"] == nil)
            let legacy = try #require(try collection.leaves(id: "legacy").first)
            #expect(
                legacy.body["_attachments"]?["notes.txt"]?["digest"]
                    == .string(AttachmentCodec.sha1Digest(of: Self.noteBytes)))
            #expect(try await client.get("/db/legacy/notes.txt").body == Self.noteBytes)
            #expect(try collection.revisionInfo(id: "gone")?.isDeleted == true)
            let saved = try CheckpointDocument(
                json: .object(try #require(try collection.localDocument(id: "push-rep"))))
            #expect(saved.sourceLastSequence.localSequence == 6)
            #expect(saved.history.first?.extra["docs_written"] == 6)
        }
    }

    @Test func pullWithChangesBulkGetAndOpenRevs() async throws {
        try await ListenerHarness.with { harness async throws in
            // The server's data, made through the store API.
            let collection = harness.collection
            let photo = MutableDocument(id: "p1")
            photo.setValue(Blob(contentType: "image/jpeg", data: Self.blobBytes), forKey: "photo")
            try collection.save(document: photo)
            for (rev, ancestors) in [("1-a", [String]()), ("2-b", ["1-a"]), ("2-c", ["1-a"])] {
                try collection.insert(
                    ForeignRevision(
                        documentID: "p2", revisionID: rev, ancestors: ancestors, isDeleted: false,
                        body: ["at": .string(rev)]))
            }
            let doomed = try harness.save("p3", #"{"v":1}"#)
            try collection.delete(document: doomed)

            let client = harness.client
            #expect(try await client.get("/db").json["update_seq"] == "6")
            #expect(try await client.get("/db/_local/pull-rep").status == 404)
            // The changes since the start, every leaf.
            let feed = try ChangesResponse(json: try await client.get("/db/_changes?style=all_docs&since=0").json)
            #expect(feed.results.map(\.id) == ["p1", "p2", "p3"])
            #expect(Set(feed.results[1].revisionIDs) == ["2-b", "2-c"])
            #expect(feed.results[2].isDeleted)

            // Fetch every listed revision with its history and attachment bytes.
            let items = feed.results.flatMap { entry in
                entry.revisionIDs.map { BulkGetRequest.Item(id: entry.id, revisionID: $0) }
            }
            let fetched = try await client.post(
                "/db/_bulk_get?revs=true&attachments=true", BulkGetRequest(items: items).json)
            #expect(fetched.status == 200)
            let documents = try BulkGetResponse(json: fetched.json).results.flatMap(\.docs).map {
                item -> CouchDocument in
                guard case .ok(let json) = item else { throw QuireError(.notFound, "bulk_get error \(item)") }
                return try CouchDocument(json: json)
            }
            #expect(documents.count == 4)
            let blobDocument = try #require(documents.first { $0.id == "p1" })
            let attachment = try #require(blobDocument.attachments?["blob_/photo"])
            let data = try #require(attachment["data"]?.stringValue.flatMap { Data(base64Encoded: $0) })
            #expect(data == Self.blobBytes)
            #expect(attachment["digest"] == blobDocument.body["photo"]?["digest"])
            #expect(AttachmentCodec.matches(digest: attachment["digest"]?.stringValue ?? "", data: data))
            let conflict = documents.filter { $0.id == "p2" }
            #expect(Set(conflict.compactMap(\.revisionID)) == ["2-b", "2-c"])
            #expect(conflict.allSatisfy { $0.revisions?.ancestors == ["1-a"] })
            let tombstone = try #require(documents.first { $0.id == "p3" })
            #expect(tombstone.isDeleted)
            #expect(tombstone.revisions?.start == 2)

            // Older clients fetch per document with open_revs.
            let open = try await client.get("/db/p2?revs=true&open_revs=all&latest=true")
            let leaves = try (open.json.arrayValue ?? []).map { try CouchDocument(json: #require($0["ok"])) }
            #expect(Set(leaves.compactMap(\.revisionID)) == ["2-b", "2-c"])

            // Record the checkpoint, then an incremental pull sees only what changed since.
            let checkpoint = CheckpointDocument(sessionID: "pull-1", sourceLastSequence: feed.lastSequence)
            #expect(try await client.put("/db/_local/pull-rep", checkpoint.json).status == 201)
            let stored = try CheckpointDocument(json: try await client.get("/db/_local/pull-rep").json)
            let edited = try #require(try collection.document(id: "p1")).toMutable()
            edited.setValue("new", forKey: "caption")
            try collection.save(document: edited)
            let since = stored.sourceLastSequence.parameter
            let next = try ChangesResponse(
                json: try await client.get("/db/_changes?style=all_docs&since=\(since)").json)
            #expect(next.results.map(\.id) == ["p1"])
        }
    }
}
