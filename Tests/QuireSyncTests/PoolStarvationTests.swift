import Foundation
import QuireTestSupport
import Testing

/// Store work from async code runs off Swift concurrency's cooperative pool: with two writes
/// held open on a two-thread pool, a continuous replication and the listener keep going.
/// Runs `quire-test-helper pool-starvation` in a child process, where nothing else uses the
/// pool and the pool can be cut down to two threads.
@Suite(.offCooperativePool) struct PoolStarvationTests {
    @Test func replicationAndListenerGoOnWhileTwoWritesAreHeld() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("quire-pool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let helper = try #require(ListenerLoadTests.helperURL, "quire-test-helper is built beside the tests")
        let process = Process()
        process.executableURL = helper
        process.arguments = ["pool-starvation", scratch.path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // The helper bounds each of its waits; this one only catches a helper that hangs.
        if exited.wait(timeout: .now() + 120) == .timedOut {
            process.terminate()
            Issue.record("quire-test-helper pool-starvation did not end within 120 s")
            return
        }
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(complaint)")
        #expect(said == "ok\n")
    }
}
