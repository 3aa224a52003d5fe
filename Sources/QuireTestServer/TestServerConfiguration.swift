import Foundation

/// How a ``TestServer`` listens and where it keeps its databases and finds its datasets.
public struct TestServerConfiguration: Sendable {
    /// The TCP port; 0 picks a free one (read it from ``TestServer/port``).
    public var port: UInt16
    /// The address to listen on; `0.0.0.0` for every interface. Listeners started through
    /// `/startListener` listen on it too.
    public var interface: String
    /// The folder of datasets and blob files in the test kit's layout (see `/reset`); nil
    /// refuses datasets and blobs.
    public var datasetRoot: URL?
    /// The folder the databases are created in; `/reset` and `/newSession` delete them.
    public var directory: URL
    /// Receives the server's log lines (`/log` messages, test names, sessions).
    public var log: @Sendable (String) -> Void
    /// A compatibility setting: the name `GET /` reports as `cbl`. `quire` by default;
    /// Couchbase's Python client (`cbltest`) refuses any name but its own variants
    /// (``TestServerConfiguration/knownVariants``), so a run of its tests names one of those.
    /// Only the name changes: the server still behaves as Quire.
    public var reportedVariant: String = "quire"
    /// The test-kit API version spoken, 1 or 2 (the default). Version 1 is the one Couchbase
    /// Lite's C, iOS, Android and Java test servers speak: the header value `1`, a
    /// `dataset_version` in `/newSession`, and a missing document answered
    /// `400 TESTSERVER "Document '<scope>.<collection>.<id>' not found"`.
    public var apiVersion: Int = 2
    /// Runs spec steps for the extension's session routes (`/quire/v1/session/...`); nil
    /// answers them 404.
    package var stepHost: (any TestServerStepHost)?

    /// The `cbl` names Couchbase's Python client knows (it raises on any other).
    public static let knownVariants = [
        "couchbase-lite-android", "couchbase-lite-c", "couchbase-lite-net", "couchbase-lite-ios",
        "couchbase-lite-java", "couchbase-lite-swift", "couchbase-lite-js",
    ]
    /// The API versions a server can speak.
    public static let supportedAPIVersions = [1, 2]

    /// A configuration; the databases go to a new folder under the temporary directory unless
    /// `directory` is given, and log lines to standard error unless `log` is.
    public init(
        port: UInt16 = 8080, interface: String = "127.0.0.1", datasetRoot: URL? = nil, directory: URL? = nil,
        log: (@Sendable (String) -> Void)? = nil
    ) {
        self.port = port
        self.interface = interface
        self.datasetRoot = datasetRoot
        self.directory =
            directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("quire-testserver-\(UUID().uuidString)")
        self.log = log ?? { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }
}
