import Foundation
import Quire
import QuireListener
import QuireSync
import Testing

/// The replicator, its HTTP requests and the listener log in their own domains
/// (`LogSinks`; couchbase-lite-ios `LogSinkTest.testCustomLogSinkDomains` filters by them).
/// Log sinks are process-wide: the test puts the custom sink back, and counts only the
/// messages naming its own listener.
@Suite(.serialized)
struct LogDomainTests {
    /// Records the messages that contain any of `markers`, with their domain and level.
    final class Recorder: LogSinkProtocol {
        let markers: Locked<[String]>
        private let recorded = Locked<[(LogDomain, LogLevel, String)]>([])

        init(markers: [String]) { self.markers = Locked(markers) }

        func writeLog(level: LogLevel, domain: LogDomain, message: String) {
            guard markers.withLock({ $0 }).contains(where: message.contains) else { return }
            recorded.withLock { $0.append((domain, level, message)) }
        }

        func messages(in domain: LogDomain) -> [String] {
            recorded.withLock { $0.filter { $0.0 == domain }.map(\.2) }
        }
    }

    @Test func aReplicationLogsInTheReplicatorNetworkAndListenerDomains() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-log-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "server\(UUID().uuidString.prefix(8).lowercased())"
        let server = try Database(name: name, config: DatabaseConfiguration(directory: folder.path))
        let listener = URLEndpointListener(
            config: URLEndpointListenerConfiguration(
                collections: [try server.defaultCollection()], port: 0, networkInterface: "127.0.0.1"))
        try await listener.start()
        let url = try #require(listener.urls?.first)
        let phone = try Database(name: "phone", config: DatabaseConfiguration(directory: folder.path))
        try phone.defaultCollection().save(document: MutableDocument(id: "a", data: ["n": 1]))

        let saved = LogSinks.custom
        defer { LogSinks.custom = saved }
        let recorder = Recorder(markers: [url.absoluteString, "/\(name)"])
        LogSinks.custom = CustomLogSink(
            level: .verbose, domains: [.replicator, .network, .listener], logSink: recorder)
        var config = ReplicatorConfiguration(target: URLEndpoint(url: url))
        config.replicatorType = .push
        config.addCollection(try phone.defaultCollection())
        let replicator = Replicator(config: config)
        let recording = ReplicationRecorder(replicator)
        replicator.start()
        let status = try await recording.waitUntilStopped()
        #expect(status.error == nil)
        LogSinks.custom = saved

        let replicatorLines = recorder.messages(in: .replicator)
        #expect(replicatorLines.first == "Replicator to \(url.absoluteString) is connecting")
        #expect(replicatorLines.last == "Replicator to \(url.absoluteString) is stopped")
        let network = recorder.messages(in: .network)
        #expect(network.contains { $0.hasPrefix("GET \(url.absoluteString)") && $0.hasSuffix(": 200") }, "\(network)")
        #expect(network.contains { $0.hasPrefix("POST \(url.absoluteString)/_bulk_docs") }, "\(network)")
        let served = recorder.messages(in: .listener)
        #expect(served.contains { $0.hasPrefix("POST /\(name)/_bulk_docs: 201") }, "\(served)")
        await listener.stop()
        try phone.close()
        try server.close()
    }
}
