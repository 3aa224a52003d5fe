import ArgumentParser
import Dispatch
import Foundation
import QuireTestServer

/// `quire testserver [--port P] [--interface ADDRESS] [--dataset-root DIR] [--directory DIR]`.
struct TestServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "testserver",
        abstract: "Serve Quire through the Couchbase Lite test kit's REST API (version 2).",
        discussion: """
            Clients of couchbase-lite-tests (and quire conform --engine testkit:URL) drive Quire as
            they drive any Couchbase Lite test server: /reset, /updateDatabase, /verifyDocuments,
            /runQuery, /startReplicator, /startListener ... Datasets named in /reset are read from
            --dataset-root in the test kit's layout (<root>/<name>/ or <root>/dbs/js/<name>/ with
            index.json and one .jsonl per collection); blobs from <root>/blobs/. Replication speaks
            the CouchDB protocol: a Sync Gateway (ws://, wss://) endpoint is refused. Multipeer
            replication and TLS are not supported. Stop with Ctrl-C (SIGINT) or SIGTERM.

            Example:
              quire testserver --port 8080 --dataset-root Fixtures/datasets
            """
    )

    @Option(help: "The TCP port; 0 picks a free one.")
    var port: UInt16 = 8080

    @Option(help: "The address to listen on; 0.0.0.0 for every interface.")
    var interface: String = "127.0.0.1"

    @Option(help: "The folder of datasets and blob files in the test kit's layout.")
    var datasetRoot: String?

    @Option(
        help: "The folder for the databases (a new temporary folder by default); /reset deletes the databases in it.")
    var directory: String?

    func validate() throws {
        if let datasetRoot {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: datasetRoot, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--dataset-root \(datasetRoot) is not a folder.")
            }
        }
    }

    func run() throws {
        let server = TestServer(
            configuration: TestServerConfiguration(
                port: port, interface: interface, datasetRoot: datasetRoot.map { URL(fileURLWithPath: $0) },
                directory: directory.map { URL(fileURLWithPath: $0) }))
        let failure = TestServerFailure()
        let done = DispatchSemaphore(value: 0)
        let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler {
                Task {
                    await server.stop()
                    done.signal()
                }
            }
            source.resume()
            return source
        }
        Task {
            do {
                try await server.start()
                FileHandle.standardOutput.write(
                    Data("Test server at http://\(interface):\(server.port ?? port)\n".utf8))
            } catch {
                failure.set(error)
                done.signal()
            }
        }
        done.wait()
        signals.forEach { $0.cancel() }
        if let error = failure.error { throw error }
    }
}

/// Why the test server could not start, handed from its task to the command.
private final class TestServerFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?

    func set(_ error: any Error) { lock.withLock { stored = error } }
    var error: (any Error)? { lock.withLock { stored } }
}
