import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

@Suite struct URLEndpointListenerStatusTests {
    // covers: URLEndpointListenerTest.testConnectionStatus
    @Test func statusCountsOpenConnectionsAndThoseAnsweringARequest() async throws {
        let stopped = URLEndpointListener(config: URLEndpointListenerConfiguration(collections: []))
        #expect(stopped.status == ConnectionStatus(connectionCount: 0, activeConnectionCount: 0))
        try await ListenerHarness.with { harness async throws in
            let listener = harness.listener
            #expect(listener.status == ConnectionStatus(connectionCount: 0, activeConnectionCount: 0))
            // A longpoll feed holds its connection busy until a change comes.
            let feed = Task {
                try await harness.client.get("/db/_changes?feed=longpoll&since=0&timeout=60000", timeout: 120)
            }
            try await eventually(timeout: 60, "the feed's connection to be active") {
                listener.status == ConnectionStatus(connectionCount: 1, activeConnectionCount: 1)
            }
            try harness.save("doc-1", #"{"n":1}"#)
            let reply = try await feed.value
            #expect(reply.status == 200)
            // Answered: the connection may stay open for the next request, but it is idle.
            try await eventually(timeout: 60, "the connection to be idle") {
                listener.status.activeConnectionCount == 0
            }
            #expect(listener.status.connectionCount <= 1)
            // A replication is counted while it runs, and idle once it is done.
            let local = try SyncTestDatabase()
            let outcome = try await replicate(
                local.collection, with: harness.baseURL.appendingPathComponent("db"), type: .pull)
            #expect(outcome.status.error == nil)
            #expect(local.collection.count == 1)
            #expect(listener.acceptedConnectionCount >= 2)
            try await eventually(timeout: 60, "the replication's connections to be idle") {
                listener.status.activeConnectionCount == 0
            }
            await listener.stop()
            #expect(listener.status == ConnectionStatus(connectionCount: 0, activeConnectionCount: 0))
        }
    }
}
