import Foundation
import Quire

/// Any Couchbase Lite test server (the REST API of Couchbase's test kit, `couchbase-lite-tests`,
/// version 1 or 2, as the server's `GET /` says) as a conformance engine:
/// `quire conform --engine testkit:http://HOST:PORT`.
///
/// The steps the public protocol can express go through it: a case starts with `/reset`
/// (its databases and collections), saves, deletes and purges are `/updateDatabase`, reads
/// `/getDocument` and `/getAllDocuments`, queries `/runQuery`, maintenance
/// `/performMaintenance`. With the extension on (the default), the Quire extension routes
/// (`/quire/v1/...`, see Specs/README.md) add what the protocol cannot say: collections made
/// after documents were written, whole-body saves, and a document's full state (tombstones,
/// sequences), and, from the first step none of these can express, a session the server hosts
/// (`/quire/v1/session/`, ``HostedSteps``) that performs the rest of the case's steps as the
/// in-process engine does. `testkit-plain:` turns the extension off, as a real Couchbase Lite
/// test server needs. A case needing anything else is skipped, naming the capability.
///
/// A test server holds one set of databases, so cases run one at a time against it, whatever
/// `--jobs` says.
// Safe because every member is a constant; `turn` and `started` synchronise themselves, and the
// client is Sendable by its own reason.
// `turn` stays a semaphore: a case holds it from makeSession until release, not in one scope.
package final class TestKitEngine: ConformanceEngine, @unchecked Sendable {
    /// `testkit` or `testkit-plain`.
    package let name: String
    /// Whether the Quire extension routes are used.
    package let usesExtension: Bool
    let client: TestKitClient
    /// One case at a time holds the server.
    private let turn = DispatchSemaphore(value: 1)
    private let started = Locked(false)
    /// Whether the server runs steps of its own (`/quire/v1/session/`): unknown (nil) until a
    /// case first asks, false once it answered 404.
    let hostsSteps = Locked<Bool?>(nil)

    /// An engine for the test server at `url` (`http://host:port`).
    ///
    /// - Throws: ``EngineError`` when `url` is not an http or https URL with a host.
    package init(url text: String, usesExtension: Bool = true) throws {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else {
            throw EngineError(
                domain: EngineError.conformanceDomain, code: "invalidEngine",
                message: "'\(text)' is not a test server URL; give http://HOST:PORT")
        }
        name = usesExtension ? "testkit" : "testkit-plain"
        self.usesExtension = usesExtension
        client = TestKitClient(base: url)
    }

    /// The steps the protocol can express (`getValue` only where the stored value is already of
    /// the getter's type); with the extension, every step and feature of the
    /// in-process engine but batches as transactions, performance cases and a replication's
    /// checkpoint report (the extension's steps run in a session the server hosts).
    package var capabilities: Set<EngineCapability>? {
        guard usesExtension else {
            return [
                "save", "get", "delete", "purge", "count", "query", "createCollection", "maintenance", "open",
                "serve", "request", "getValue",
            ]
        }
        var supported = Set(StepDecoder.engineKeywords.map { EngineCapability($0) })
        let handles = ["canOpen", "isOpened", "blockade", "unblockade", "closeHandles", "purgeFreeHandles", "tag"]
        supported.formUnion(handles.map { EngineCapability("handle.\($0)") })
        let features: [EngineCapability] = [
            .concurrencyControl, .rawJSON, .generatedIDs, .queryParameters, .queryResultSets, .heldObjects,
            .documentState, .sequences, .collectionNames, .collectionsAfterWrites, .databasesAfterWrites, .fixtures,
            .manualClock, .snowball, .blobChecks, "heldScopes", "open.fullSync", "deleteDatabaseByName",
        ]
        supported.formUnion(features)
        return supported
    }

    /// The server's `GET /` answer: `server` (its `cbl` name), `server.version`,
    /// `server.apiVersion`, `server.platform` and `server.additionalInfo`.
    package var reportProperties: [String: String] { client.serverProperties }

    /// Waits for the server to be free, then resets it to the case's databases. A fixture or
    /// a manual clock cannot be expressed: the case is skipped.
    package func makeSession(directory: URL, given: Given, seed: UInt64) throws -> any EngineSession {
        if given.fixture != nil, !usesExtension {
            throw EngineError.missingCapability(.fixtures, "the test-kit protocol loads only its own datasets")
        }
        if case .manual = given.clock, !usesExtension {
            throw EngineError.missingCapability(.manualClock, "the test-kit protocol has no clock to set")
        }
        turn.wait()
        do {
            do {
                return try openSession(given)
            } catch let error as EngineError where started.withLock({ $0 }) && Self.isLostSession(error) {
                // The server was restarted under this client (it died, and a supervisor started
                // it again): it knows no session now. Introduce this client again, once.
                started.withLock { $0 = false }
                try awaitServer()
                return try openSession(given)
            }
        } catch {
            turn.signal()
            throw error
        }
    }

    /// Introduces this client when it has not been yet, then resets the server for a case.
    private func openSession(_ given: Given) throws -> TestKitSession {
        if !started.withLock({ $0 }) {
            try client.connect()
            started.withLock { $0 = true }
        }
        return try TestKitSession(engine: self, given: given)
    }

    /// How long a server that was lost may take to answer `GET /` again.
    static let restartGrace: TimeInterval = 10

    /// Waits, at most ``restartGrace``, for the server to answer `GET /` again.
    private func awaitServer() throws {
        let deadline = Date().addingTimeInterval(Self.restartGrace)
        while true {
            do {
                _ = try client.get("/")
                return
            } catch let error as EngineError where error.domain == "Network" && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.25)
            }
        }
    }

    /// Whether `error` says the server no longer knows this client: no answer at all, or
    /// version 1's `400 TESTSERVER "Session not found"` for a client ID it never met.
    static func isLostSession(_ error: EngineError) -> Bool {
        error.domain == "Network" || (error.domain == "TestKit" && error.message.hasSuffix("Session not found"))
    }

    /// Frees the server for the next case.
    func release() { turn.signal() }

    /// Whether a case holds the server now (a look that takes and gives back a free turn).
    package var isHeld: Bool {
        guard turn.wait(timeout: .now()) == .success else { return true }
        turn.signal()
        return false
    }
}
