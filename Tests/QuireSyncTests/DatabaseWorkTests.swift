import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// The listener runs database work off Swift concurrency's cooperative threads: writes held
/// open do not keep other requests from being answered.
@Suite struct DatabaseWorkTests {
    /// Writes held open at the start of their transaction until released, by the test or,
    /// as a safety net, by a watchdog.
    final class WriteHold: Sendable {
        private struct State {
            var entered = 0
            var releasedBy: String?
            var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?
        }

        private let state = Locked(State())
        private let gate = DispatchGroup()

        init() {
            gate.enter()
        }

        /// The write hook: counts the write, then blocks its thread until release.
        func hold() {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.entered += 1
                guard let waiter = state.waiter, state.entered >= waiter.count else { return nil }
                state.waiter = nil
                return waiter.continuation
            }
            waiter?.resume()
            gate.wait()
        }

        /// Returns once `count` writes are held.
        func waitForHeld(_ count: Int) async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if state.entered >= count { return true }
                    state.waiter = (count, continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        }

        /// Lets every held write go on; true when this call is the one that released them.
        @discardableResult
        func release(by releaser: String) -> Bool {
            let first = state.withLock { state -> Bool in
                guard state.releasedBy == nil else { return false }
                state.releasedBy = releaser
                return true
            }
            if first { gate.leave() }
            return first
        }
    }

    @Test func answersRootAndReadsWhileTwoBulkDocsHoldTheirWrites() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quire-work-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = DatabaseConfiguration(directory: directory.path)
        // Two files, so each `_bulk_docs` holds a writer of its own and both are in their
        // transaction at once.
        let first = try Database(name: "first", config: configuration)
        let second = try Database(name: "second", config: configuration)
        defer {
            try? first.close()
            try? second.close()
        }
        try first.defaultCollection().save(document: MutableDocument(id: "present", data: ["kept": true]))
        let listener = URLEndpointListener(
            config: URLEndpointListenerConfiguration(
                collections: [try first.defaultCollection(), try second.defaultCollection()],
                networkInterface: "127.0.0.1"))
        try await listener.start()
        let client = TestHTTPClient(baseURL: URL(string: "http://127.0.0.1:\(listener.port ?? 0)")!)

        let hold = WriteHold()
        first.setWriteTransactionHook { hold.hold() }
        second.setWriteTransactionHook { hold.hold() }
        // Only a safety net: on a listener that blocks its cooperative threads, nothing else
        // could ever let the writes go.
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { hold.release(by: "watchdog") }

        let writes = ["first", "second"].map { name in
            Task { try await client.post("/\(name)/_bulk_docs", ["docs": [["_id": "written", "n": 1]]]) }
        }
        await hold.waitForHeld(2)
        let root = try await client.get("/", timeout: 60)
        let read = try await client.get("/first/present", timeout: 60)
        // Both answers came while the writes were still held: nobody had released them yet.
        #expect(hold.release(by: "test"), "GET / and the read were answered only after the writes were released")
        #expect(root.status == 200)
        #expect(root.json["couchdb"] == "Welcome")
        #expect(read.status == 200)
        #expect(read.json["kept"] == true)

        for write in writes {
            let reply = try await write.value
            #expect(reply.status == 201)
        }
        first.setWriteTransactionHook(nil)
        second.setWriteTransactionHook(nil)
        #expect(try first.defaultCollection().document(id: "written") != nil)
        #expect(try second.defaultCollection().document(id: "written") != nil)
        await listener.stop()
    }

    @Test func workerThreadsRunWorkBesideBlockedWorkAndRefuseItAfterShutdown() async throws {
        let threads = WorkerThreads(name: "test", limit: 2)
        let order = Locked([String]())
        let gate = DispatchSemaphore(value: 0)
        let blocked = Task {
            try await threads.run {
                // The timeout is only a safety net: the second job is what lets this one go.
                _ = gate.wait(timeout: .now() + 30)
                order.withLock { $0.append("blocked") }
            }
        }
        try await threads.run {
            order.withLock { $0.append("beside") }
            gate.signal()
        }
        try await blocked.value
        #expect(order.withLock { $0 } == ["beside", "blocked"])

        let sum = try await withThrowingTaskGroup(of: Int.self) { group in
            for value in 1...20 { group.addTask { try await threads.run { value } } }
            return try await group.reduce(0, +)
        }
        #expect(sum == 210)
        #expect(threads.threadCount <= 2)
        threads.shutdown()
        await #expect(throws: QuireError.self) { try await threads.run { 1 } }
    }
}
