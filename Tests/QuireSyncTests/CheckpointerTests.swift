import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

extension EndToEnd {
    @Suite(.serialized) struct CheckpointerTests {
        /// A read-only listener refuses `_local` writes (issue 20); pulling from it still works,
        /// with the checkpoint kept on the pulling side only, and a second run starts over
        /// without transferring anything again.
        @Test func pullingFromAReadOnlyListenerKeepsTheCheckpointLocally() async throws {
            let served = try SyncTestDatabase(name: "served")
            for index in 0..<5 { try served.save("d\(index)", #"{"n":\#(index)}"#) }
            let listener = URLEndpointListener(
                config: URLEndpointListenerConfiguration(
                    collections: [served.collection], networkInterface: "127.0.0.1", readOnly: true))
            try await listener.start()
            let url = try #require(URL(string: "http://127.0.0.1:\(listener.port ?? 0)/served"))

            let local = try SyncTestDatabase()
            let first = try await replicate(local.collection, with: url, type: .pull)
            #expect(first.status.error == nil, "\(String(describing: first.status.error))")
            #expect(first.pulled.count == 5)
            #expect(local.collection.count == 5)
            #expect(try served.collection.localDocumentIDs().isEmpty)
            #expect(try local.collection.localDocumentIDs().count == 1)

            let second = try await replicate(local.collection, with: url, type: .pull)
            #expect(second.status.error == nil)
            #expect(second.report?.outcome == .noRemoteCheckpoint)
            #expect(second.pulled.isEmpty)
            await listener.stop()
        }
    }
}
