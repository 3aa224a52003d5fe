import ArgumentParser
import Foundation
import QuireConformance
import QuireTestServer

/// `quire testserver [--port P] [--interface ADDRESS] [--dataset-root DIR] [--directory DIR]
/// [--report-as VARIANT] [--api-version 1|2]`.
struct TestServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "testserver",
        abstract: "Serve Quire through the Couchbase Lite test kit's REST API (version 2, or 1 when asked).",
        discussion: """
            Clients of couchbase-lite-tests (and quire conform --engine testkit:URL) drive Quire as
            they drive any Couchbase Lite test server: /reset, /updateDatabase, /verifyDocuments,
            /runQuery, /startReplicator, /startListener ... Datasets named in /reset are read from
            --dataset-root in the test kit's layout (<root>/<name>/ or <root>/dbs/js/<name>/ with
            index.json and one .jsonl per collection); blobs from <root>/blobs/. Replication speaks
            the CouchDB protocol: a Sync Gateway (ws://, wss://) replicator stops at once with an
            error saying so; the predefined conflict resolvers are there, filters are not. Multipeer
            replication and TLS are not supported. Stop with Ctrl-C (SIGINT) or SIGTERM.

            Compatibility settings: GET / names the server "quire"; Couchbase's Python client
            (cbltest) refuses any name but its own variants, so --report-as names one of them
            (\(TestServerConfiguration.knownVariants.joined(separator: ", "))) for a run of its
            tests; only the reported name changes. --api-version 1 speaks version 1 of the API,
            as Couchbase Lite's C, iOS, Android and Java test servers do (header value 1,
            dataset_version in /newSession, a missing document answered 400 TESTSERVER
            "Document '...' not found").

            Example:
              quire testserver --port 8080 --dataset-root Fixtures/datasets
              quire testserver --port 8080 --report-as couchbase-lite-c --api-version 1
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

    @Option(
        name: .customLong("report-as"),
        help: "Compatibility setting: the variant name GET / reports as cbl (quire, or one Couchbase's client knows).")
    var reportAs: String = "quire"

    @Option(help: "The test-kit API version to speak: 2 (the default) or 1.")
    var apiVersion: Int = 2

    func validate() throws {
        guard reportAs == "quire" || TestServerConfiguration.knownVariants.contains(reportAs) else {
            throw ValidationError(
                "--report-as \(reportAs) is not a variant Couchbase's client knows; use quire or one of \(TestServerConfiguration.knownVariants.joined(separator: ", "))."
            )
        }
        guard TestServerConfiguration.supportedAPIVersions.contains(apiVersion) else {
            throw ValidationError("--api-version \(apiVersion) is not supported; use 1 or 2.")
        }
        if let datasetRoot {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: datasetRoot, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--dataset-root \(datasetRoot) is not a folder.")
            }
        }
    }

    func run() async throws {
        var configuration = TestServerConfiguration(
            port: port, interface: interface, datasetRoot: datasetRoot.map { URL(fileURLWithPath: $0) },
            directory: directory.map { URL(fileURLWithPath: $0) })
        configuration.reportedVariant = reportAs
        configuration.apiVersion = apiVersion
        let steps = HostedSteps()
        configuration.stepHost = TestServerStepFunctions(
            start: { try await steps.start($0, directory: $1) }, call: { try await steps.call($0, $1) },
            end: { await steps.end() })
        let server = TestServer(configuration: configuration)
        let announced = "Test server at http://\(interface):"
        let port = port
        try await cancellingOnSignal {
            try await server.start()
            FileHandle.standardOutput.write(Data("\(announced)\(server.port ?? port)\n".utf8))
            await Self.waitUntilCancelled()
            await server.stop()
        }
    }
}
