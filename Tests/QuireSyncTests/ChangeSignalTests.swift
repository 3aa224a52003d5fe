import Foundation
import Quire
import QuireTestSupport
import Testing

@testable import QuireListener
@testable import QuireSync

#if canImport(Glibc)
    import Glibc
#endif

/// Feeds wake for commits made outside the listener's process, which the database's change
/// listeners never see: the listener polls the collections its feeds follow.
@Suite(.offCooperativePool) struct ChangeSignalTests {
    @Test func aLongpollFeedWakesForACommitByAnotherProcess() async throws {
        let helper = try #require(ListenerLoadTests.helperURL, "quire-test-helper is built beside the tests")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "quire-xproc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(name: "crash", config: DatabaseConfiguration(directory: directory.path))
        let collection = try database.createCollection(name: "batches", scope: "crash")
        let listener = URLEndpointListener(
            config: URLEndpointListenerConfiguration(collections: [collection], networkInterface: "127.0.0.1"))
        try await listener.start()
        let client = RawHTTPClient(port: listener.port ?? 0)
        // Without the poll the feed would end empty at this timeout (the test's bound).
        let feed = Task {
            try await client.send(
                "GET /crash.crash.batches/_changes?feed=longpoll&since=now&timeout=60000 HTTP/1.1",
                timeoutSeconds: 90)
        }
        try await eventually(timeout: 30, "the feed waiting") { listener.activeFeedCount == 1 }
        // Another process writes to the same file.
        let writer = Process()
        writer.executableURL = helper
        writer.arguments = ["crash-writer", directory.path]
        writer.standardOutput = FileHandle.nullDevice
        try writer.run()
        let started = ContinuousClock.now
        // The writer loops until killed (SIGKILL: it does not stop for SIGTERM).
        defer {
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
        }
        let reply = try await feed.value
        #expect(reply.status == 200)
        #expect((reply.json["results"]?.arrayValue?.count ?? 0) > 0, "\(reply.json)")
        // Woken by the poll, well before the feed's own 60 s timeout (a whole-suite run under
        // ThreadSanitizer took 19 s from the writer's start, most of it waiting for a thread).
        #expect(ContinuousClock.now - started < .seconds(45))
        await listener.stop()
        try database.close()
    }

    @Test func aSignalWakesOnlyWhenTheSequencePassesTheOneSeen() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "quire-signal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(name: "db", config: DatabaseConfiguration(directory: directory.path))
        let collection = try database.defaultCollection()
        try collection.save(document: MutableDocument(id: "a"))
        let signal = ChangeSignal(collection: collection)
        let seen = try collection.lastSequence()
        signal.noteLastSequence(seen)
        #expect(await signal.wait(timeout: .milliseconds(50)) == .timedOut)
        signal.noteLastSequence(seen + 1)
        #expect(await signal.wait(timeout: .seconds(30)) == .changed)
        try database.close()
    }
}
