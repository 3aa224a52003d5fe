import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

extension EndToEnd {
    /// Blobs travel as attachments with inline data, both ways.
    @Suite(.serialized) struct ReplicatorBlobTests {
        private let bytes = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

        @Test func blobsArePushedAndReadableOnTheRemote() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            let document = MutableDocument(id: "photo")
            document.setValue(Blob(contentType: "image/png", data: bytes), forKey: "image")
            document.setValue([["thumb": Blob(contentType: "image/png", data: Data("small".utf8))]], forKey: "sizes")
            try local.collection.save(document: document)

            let outcome = try await replicate(local.collection, with: remote.url, type: .push)
            #expect(outcome.status.error == nil)
            let copy = try #require(try remote.collection.document(id: "photo"))
            let blob = try #require(copy.blob(forKey: "image"))
            #expect(try blob.readContent() == bytes)
            #expect(blob.contentType == "image/png")
            #expect(copy.value(forKey: "_attachments") == nil)
            await remote.stop()
        }

        @Test func blobsArePulledStoredAndVerified() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            let document = MutableDocument(id: "photo")
            document.setValue(Blob(contentType: "image/png", data: bytes), forKey: "image")
            try remote.collection.save(document: document)

            let outcome = try await replicate(local.collection, with: remote.url, type: .pull)
            #expect(outcome.status.error == nil)
            let copy = try #require(try local.collection.document(id: "photo"))
            #expect(try copy.blob(forKey: "image")?.readContent() == bytes)
            #expect(copy.value(forKey: "_attachments") == nil)

            // The same blob in a later revision is not needed again, and still readable.
            let edited = try #require(try remote.collection.document(id: "photo")).toMutable()
            edited.setValue("caption", forKey: "title")
            try remote.collection.save(document: edited)
            let second = try await replicate(local.collection, with: remote.url, type: .pull)
            #expect(second.status.error == nil)
            #expect(try local.collection.document(id: "photo")?.blob(forKey: "image")?.readContent() == bytes)
            await remote.stop()
        }

        @Test func aDocumentTooLargeForTheRemoteFailsAloneAndTheRestArrive() async throws {
            let local = try SyncTestDatabase()
            let store = try SyncTestDatabase(name: "small")
            var config = URLEndpointListenerConfiguration(
                collections: [store.collection], networkInterface: "127.0.0.1")
            config.maxRequestBodySize = 16_000
            let listener = URLEndpointListener(config: config)
            try await listener.start()
            let url = try #require(URL(string: "http://127.0.0.1:\(listener.port ?? 0)/small"))
            try local.save("a", #"{"n": 1}"#)
            let big = MutableDocument(id: "big")
            big.setValue(
                Blob(contentType: "application/octet-stream", data: Data(repeating: 7, count: 40_000)), forKey: "data")
            try local.collection.save(document: big)
            try local.save("z", #"{"n": 2}"#)

            let outcome = try await replicate(local.collection, with: url, type: .push)
            #expect(outcome.status.error == nil)
            #expect(try store.collection.document(id: "a") != nil)
            #expect(try store.collection.document(id: "z") != nil)
            #expect(try store.collection.document(id: "big") == nil)
            #expect(outcome.pushed.first { $0.id == "big" }?.error?.code == .httpEntityTooLarge)
            #expect(outcome.pushed.filter { $0.error == nil }.map(\.id).sorted() == ["a", "z"])
            await listener.stop()
        }
    }
}
