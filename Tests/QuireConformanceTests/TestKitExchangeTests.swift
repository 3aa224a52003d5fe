import Foundation
import Quire
import QuireConformance
import Testing

/// The test-kit engine against recorded exchanges of real test servers, replayed by a loopback
/// peer: version 1 as Couchbase Lite C's test server answered (the C, iOS, Android and Java
/// servers speak it), version 2 as `quire testserver` answers (the .NET server speaks it).
/// A request that differs from the recording is refused as a real server refuses it, so the
/// case fails.
@Suite struct TestKitExchangeTests {
    static let spec = """
        about: A document saved and read over the plain protocol.
        cases:
          - name: a document saved and read
            steps:
              - save: {id: a, body: {name: Ada}}
                expect: {value: {name: Ada}}
              - get: {id: a}
                expect: {value: {name: Ada}}
              - get: {id: b}
                expect: {value: null}
        """

    static let document: [String: JSONValue] = [
        "database": "db", "document": ["collection": "_default._default", "id": "a"],
    ]
    static let otherDocument: [String: JSONValue] = [
        "database": "db", "document": ["collection": "_default._default", "id": "b"],
    ]
    static let update: [String: JSONValue] = [
        "database": "db",
        "updates": [
            [
                "type": "UPDATE", "collection": "_default._default", "documentID": "a",
                "updatedProperties": [["name": "Ada"]],
            ]
        ],
    ]

    /// Couchbase Lite C's test server (API version 1): the header value `1`, `dataset_version`
    /// in `/newSession` and `/reset`, and `400 TESTSERVER "Document '…' not found"` for a
    /// document that is not there.
    static let version1: [RecordedPeer.Exchange] = {
        let headers = ["CBLTest-API-Version": "1"]
        let missing = { (id: String) in
            #"{"domain":"TESTSERVER","code":400,"message":"Document '_default._default.\#(id)' not found"}"#
        }
        let found = #"{"_id":"a","_revs":"1@abdd8a1Ko8TjM2GhGwpq1g","name":"Ada"}"#
        return [
            .init(
                "GET", "/",
                response: #"""
                    {"version":"4.0.0-0","apiVersion":1,"cbl":"couchbase-lite-c",\#
                    "device":{"systemName":"Linux","systemVersion":"6.18","model":"x86_64"},\#
                    "additionalInfo":"Couchbase Lite C community edition"}
                    """#),
            .init("POST", "/newSession", headers: headers, body: ["id": "*", "dataset_version": "4.0"]),
            .init("POST", "/reset", headers: headers, body: ["databases": ["db": [:]], "dataset_version": "4.0"]),
            .init("POST", "/getDocument", headers: headers, body: document, status: 400, response: missing("a")),
            .init("POST", "/updateDatabase", headers: headers, body: update),
            .init("POST", "/getDocument", headers: headers, body: document, response: found),
            .init("POST", "/getDocument", headers: headers, body: document, response: found),
            .init("POST", "/getDocument", headers: headers, body: otherDocument, status: 400, response: missing("b")),
        ]
    }()

    /// `quire testserver` (API version 2): the header value `2`, no dataset version, 404 for a
    /// document that is not there.
    static let version2: [RecordedPeer.Exchange] = {
        let headers = ["CBLTest-API-Version": "2"]
        let missing = { (id: String) in
            #"{"code":404,"domain":"TESTSERVER","message":"document '\#(id)' not found in '_default._default' of database 'db'"}"#
        }
        let found = #"{"_id":"a","_revs":"1-340a0bab57e47bebfffd965f95cafdff0c8eaa64","name":"Ada"}"#
        return [
            .init(
                "GET", "/",
                response: #"""
                    {"additionalInfo":"Quire 0.1.0: CouchDB-protocol replication, no multipeer, no TLS",\#
                    "apiVersion":2,"cbl":"quire",\#
                    "device":{"model":"vm","systemName":"Linux","systemVersion":"6.18.44"},"version":"0.1.0"}
                    """#),
            .init("POST", "/newSession", headers: headers, body: ["id": "*"]),
            .init("POST", "/reset", headers: headers, body: ["databases": ["db": [:]]]),
            .init("POST", "/getDocument", headers: headers, body: document, status: 404, response: missing("a")),
            .init("POST", "/updateDatabase", headers: headers, body: update),
            .init("POST", "/getDocument", headers: headers, body: document, response: found),
            .init("POST", "/getDocument", headers: headers, body: document, response: found),
            .init("POST", "/getDocument", headers: headers, body: otherDocument, status: 404, response: missing("b")),
        ]
    }()

    /// Runs the spec through `testkit-plain:` against a peer replaying `script`.
    static func run(_ script: [RecordedPeer.Exchange]) async throws -> (CaseResult, RecordedPeer) {
        let (results, peer) = try await runAll(script, spec: spec)
        return (try #require(results.first), peer)
    }

    /// Runs every case of `spec` through `testkit-plain:` against a peer replaying `script`.
    static func runAll(
        _ script: [RecordedPeer.Exchange], spec: String
    ) async throws -> ([CaseResult], RecordedPeer) {
        let peer = try RecordedPeer(script: script)
        defer { peer.stop() }
        let engine = try EngineRegistry.makeEngine(named: "testkit-plain:http://127.0.0.1:\(peer.port)")
        let file = ConformanceSuite.parse(spec, path: "inline.yaml")
        let runner = ConformanceRunner(engine: engine, options: RunnerOptions(jobs: 1))
        return (await onOwnThread { runner.run(file.cases) }, peer)
    }

    @Test func version1AsCouchbaseLiteCAnswers() async throws {
        let (result, peer) = try await Self.run(Self.version1)
        #expect(peer.mismatches.isEmpty, "\(peer.mismatches)")
        #expect(result.status == .passed, "\(String(describing: result.failure?.details))")
        #expect(peer.isFinished)
    }

    @Test func version2AsQuireTestServerAnswers() async throws {
        let (result, peer) = try await Self.run(Self.version2)
        #expect(peer.mismatches.isEmpty, "\(peer.mismatches)")
        #expect(result.status == .passed, "\(String(describing: result.failure?.details))")
        #expect(peer.isFinished)
    }

    /// A server that died and was started again between two cases (Couchbase Lite C's test
    /// server dies on some queries) answers the next `/reset` with version 1's
    /// `400 TESTSERVER "Session not found"`: the engine waits for `GET /`, introduces itself
    /// again and runs the case.
    @Test func aRestartedServerIsIntroducedAgain() async throws {
        let spec = """
            about: Two cases, the server restarted between them.
            cases:
              - name: before the restart
                steps:
                  - get: {id: b}
                    expect: {value: null}
              - name: after the restart
                steps:
                  - get: {id: b}
                    expect: {value: null}
            """
        let headers = ["CBLTest-API-Version": "1"]
        let root = #"{"version":"3.2.4","apiVersion":1,"cbl":"couchbase-lite-c"}"#
        let missing = #"{"domain":"TESTSERVER","code":400,"message":"Document '_default._default.b' not found"}"#
        let lost = #"{"code":400,"domain":"TESTSERVER","message":"Session not found"}"#
        let reset: [String: JSONValue] = ["databases": ["db": [:]], "dataset_version": "4.0"]
        let script: [RecordedPeer.Exchange] = [
            .init("GET", "/", response: root),
            .init("POST", "/newSession", headers: headers, body: ["id": "*", "dataset_version": "4.0"]),
            .init("POST", "/reset", headers: headers, body: reset),
            .init("POST", "/getDocument", headers: headers, body: Self.otherDocument, status: 400, response: missing),
            .init("POST", "/reset", headers: headers, body: reset, status: 400, response: lost),
            .init("GET", "/", response: root),
            .init("GET", "/", response: root),
            .init("POST", "/newSession", headers: headers, body: ["id": "*", "dataset_version": "4.0"]),
            .init("POST", "/reset", headers: headers, body: reset),
            .init("POST", "/getDocument", headers: headers, body: Self.otherDocument, status: 400, response: missing),
        ]
        let (results, peer) = try await Self.runAll(script, spec: spec)
        #expect(peer.mismatches.isEmpty, "\(peer.mismatches)")
        #expect(results.map(\.status) == [.passed, .passed], "\(results.map { $0.failure?.details ?? "" })")
        #expect(peer.isFinished)
    }

    /// A case whose `/reset` is refused holds the server no longer, and no less: the next case
    /// has it alone (two cases must never share one server's databases).
    @Test func aRefusedResetFreesTheServerOnce() throws {
        let headers = ["CBLTest-API-Version": "1"]
        let refusal = #"{"code":9,"domain":"CBL","message":"Invalid collection name '_' in scope 's'"}"#
        let reset: [String: JSONValue] = ["databases": ["db": [:]], "dataset_version": "4.0"]
        let script: [RecordedPeer.Exchange] = [
            .init("GET", "/", response: #"{"version":"3.2.4","apiVersion":1,"cbl":"couchbase-lite-c"}"#),
            .init("POST", "/newSession", headers: headers, body: ["id": "*", "dataset_version": "4.0"]),
            .init("POST", "/reset", headers: headers, body: reset, status: 400, response: refusal),
            .init("POST", "/reset", headers: headers, body: reset),
        ]
        let peer = try RecordedPeer(script: script)
        defer { peer.stop() }
        let engine = try TestKitEngine(url: "http://127.0.0.1:\(peer.port)", usesExtension: false)
        let directory = FileManager.default.temporaryDirectory
        #expect(throws: EngineError.self) {
            _ = try engine.makeSession(directory: directory, given: Given(), seed: 0)
        }
        #expect(!engine.isHeld)
        let session = try engine.makeSession(directory: directory, given: Given(), seed: 0)
        #expect(engine.isHeld)
        try session.close()
        #expect(!engine.isHeld)
        #expect(peer.mismatches.isEmpty, "\(peer.mismatches)")
        #expect(peer.isFinished)
    }

    /// A community build of Couchbase Lite has no listener: Couchbase Lite C's test server
    /// answers `/startListener` with `500 TESTSERVER "… requires Enterprise Edition"`, and a
    /// case that serves is not carried (skipped, naming `serve`), not failed.
    @Test func aListenerOnlyEnterpriseHasIsNotCarried() async throws {
        let spec = """
            about: A case that serves its database.
            cases:
              - name: served
                steps:
                  - serve: {database: db}
            """
        let headers = ["CBLTest-API-Version": "1"]
        let refusal = #"{"code":500,"domain":"TESTSERVER","message":"URLEndpointListener requires Enterprise Edition"}"#
        let script: [RecordedPeer.Exchange] = [
            .init("GET", "/", response: #"{"version":"3.2.4","apiVersion":1,"cbl":"couchbase-lite-c"}"#),
            .init("POST", "/newSession", headers: headers, body: ["id": "*", "dataset_version": "4.0"]),
            .init("POST", "/reset", headers: headers, body: ["databases": ["db": [:]], "dataset_version": "4.0"]),
            .init(
                "POST", "/startListener", headers: headers, body: ["database": "db", "disableTLS": true], status: 500,
                response: refusal),
        ]
        let (results, peer) = try await Self.runAll(script, spec: spec)
        let result = try #require(results.first)
        #expect(peer.mismatches.isEmpty, "\(peer.mismatches)")
        #expect(result.status == .skipped, "\(String(describing: result.failure?.details))")
        #expect(result.skipReason?.contains("'serve'") == true, "\(result.skipReason ?? "")")
        #expect(peer.isFinished)
    }

    /// `getValue` over the plain protocol reads the document through `/getDocument`: a stored
    /// value of the getter's type is the answer; one the getter would convert is not carried.
    @Test func aTypedReadOfAStoredValueOfItsTypeIsCarried() async throws {
        let spec = """
            about: Typed reads.
            cases:
              - name: read as stored
                steps:
                  - getValue: {id: a, key: name, as: string}
                    expect: {value: Ada}
              - name: read with a conversion
                steps:
                  - getValue: {id: a, key: name, as: int}
                    expect: {value: 0}
            """
        let headers = ["CBLTest-API-Version": "1"]
        let found = #"{"_id":"a","_revs":"1@abdd8a1Ko8TjM2GhGwpq1g","name":"Ada"}"#
        let start: [RecordedPeer.Exchange] = [
            .init("POST", "/reset", headers: headers, body: ["databases": ["db": [:]], "dataset_version": "4.0"]),
            .init("POST", "/getDocument", headers: headers, body: Self.document, response: found),
        ]
        let script: [RecordedPeer.Exchange] =
            [
                .init("GET", "/", response: #"{"version":"3.2.4","apiVersion":1,"cbl":"couchbase-lite-c"}"#),
                .init("POST", "/newSession", headers: headers, body: ["id": "*", "dataset_version": "4.0"]),
            ] + start + start
        let (results, peer) = try await Self.runAll(script, spec: spec)
        #expect(peer.mismatches.isEmpty, "\(peer.mismatches)")
        #expect(results.map(\.status) == [.passed, .skipped], "\(results.map { $0.failure?.details ?? "" })")
        #expect(results.last?.skipReason?.contains("getValue.conversion") == true)
        #expect(peer.isFinished)
    }

    /// A version this engine does not speak is refused before any session starts.
    @Test func anUnknownVersionIsRefused() async throws {
        let script: [RecordedPeer.Exchange] = [
            .init("GET", "/", response: #"{"apiVersion":3,"cbl":"couchbase-lite-c"}"#)
        ]
        let (result, peer) = try await Self.run(script)
        #expect(peer.isFinished)
        #expect(result.status != .passed)
        let details = result.failure?.details ?? ""
        #expect(details.contains("API version 3"), "\(details)")
    }
}
