import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// A live pull by an independent HTTP client that keeps its connection alive: Node's
/// `http.Agent({keepAlive: true})`, as PouchDB on Node uses it (Tests/Scripts/live-pull.mjs).
/// It longpolls `_changes`, then fetches the changed documents on the same socket, and must
/// see a document written after it started. Skipped when `node` is not installed.
@Suite struct LivePullKeepAliveTests {
    static let node: String? = {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/local/bin").split(separator: ":")
        return paths.map { "\($0)/node" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/live-pull.mjs")

    /// The lines a process printed, collected as they come.
    private final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        func append(_ data: Data) { lock.withLock { text += String(decoding: data, as: UTF8.self) } }
        var lines: [String] { lock.withLock { text.split(separator: "\n").map(String.init) } }
    }

    @Test(.enabled(if: node != nil, "node is not installed"))
    func nodeWithKeepAliveSeesADocumentWrittenAfterItStarted() async throws {
        try await ListenerHarness.with { harness async throws in
            try harness.save("early", #"{"v":1}"#)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: LivePullKeepAliveTests.node ?? "/usr/bin/node")
            process.arguments = [LivePullKeepAliveTests.script.path, harness.baseURL.absoluteString, "db", "late"]
            let pipe = Pipe()
            let output = Output()
            pipe.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData) }
            process.standardOutput = pipe
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            // The first document came, and the next longpoll waits: write the late one now.
            try await eventually(timeout: 120, "early pulled and the next feed waiting") {
                output.lines.contains(#"{"doc":"early"}"#) && harness.listener.activeFeedCount == 1
            }
            try harness.save("late", #"{"v":2}"#)
            try await eventually(timeout: 120, "the pull finished") { !process.isRunning }
            pipe.fileHandleForReading.readabilityHandler = nil
            output.append(pipe.fileHandleForReading.readDataToEndOfFile())
            let lines = output.lines
            #expect(process.terminationStatus == 0, "\(lines)")
            #expect(lines.contains(#"{"doc":"late"}"#))
            let summary = try JSONReader.parse(Array((lines.last ?? "").utf8))
            #expect(summary["done"] == true)
            // One socket for every request: longpolls and document fetches alike.
            #expect(summary["sockets"] == 1)
            #expect(summary["requests"]?.intValue ?? 0 >= 4)
            #expect(summary["reused"]?.intValue == (summary["requests"]?.intValue ?? 0) - 1)
            #expect(harness.listener.acceptedConnectionCount == 1)
        }
    }
}
