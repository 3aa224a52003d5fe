import Foundation
import QuireConformance
import QuireTestServer
import Testing

/// `quire conform --engine testkit:` against `quire testserver`: cases the protocol can carry
/// pass or fail on the server's answers; the others are skipped naming the capability.
@Suite struct TestKitEngineTests {
    static let spec = """
        about: Steps the test-kit engine carries, and some it cannot.
        cases:
          - name: documents round trip
            steps:
              - save: {id: a, body: {name: Ada, tags: [x, y]}}
                as: saved
              - save: {id: a, body: {name: Ada Lovelace}}
                expect: {value: {name: Ada Lovelace}}
              - get: {id: a}
                expect: {value: {name: Ada Lovelace}, lacks: [tags]}
              - save: {id: b, body: {"odd.key": 1, n: 2}}
                expect: {value: {"odd.key": 1, n: 2}}
              - count:
                expect: {count: 2}
              - query: {sql: "SELECT name FROM _ WHERE meta().id = 'a'"}
                expect: {value: [{name: Ada Lovelace}]}
              - maintenance: {type: compact}
          - name: an invalid document ID is the store's error
            steps:
              - save: {id: _a, body: {v: 1}}
                expect: {error: {domain: Quire, code: badDocID}}
          - name: a deleted document is a tombstone
            steps:
              - save: {id: a, body: {v: 1}}
              - delete: {id: a}
                expect: {deleted: {id: a}}
          - name: a collection made after a write
            steps:
              - save: {id: a, body: {v: 1}}
              - createCollection: {name: later, scope: s}
              - save: {collection: s.later, id: b, body: {v: 2}}
              - count: {collection: s.later}
                expect: {count: 1}
          - name: a batch is one transaction
            steps:
              - batch:
                  steps:
                    - save: {id: a, body: {v: 1}}
          - name: a served database answers a CouchDB client
            steps:
              - save: {id: a, body: {v: 1}}
              - serve: {database: db}
                as: served
              - request: {method: GET, url: "${served.url}/a"}
                expect: {matches: {status: 200, body: {_id: a, v: 1}}}
          - name: a replication pulls from a served database
            steps:
              - save: {id: a, body: {v: 1}}
              - serve: {database: db}
                as: served
              - open: {name: client}
              - replicate: {url: "${served.url}", type: pull}
                expect: {matches: {pushed: 0, pulled: 1, error: null}}
              - get: {id: a}
                expect: {value: {v: 1}}
              - replicate: {url: "${served.url}", type: pull}
                expect: {matches: {resumed: true}}
          - name: held objects, blobs and closing run in the hosted session
            steps:
              - save: {id: a, body: {v: 1}}
              - saveBlob: {content: "hello, blob", contentType: text/plain}
                as: blob
              - newDocument: {id: b, body: {w: 2}}
                as: doc
              - save: {object: doc}
              - get: {id: b}
                expect: {value: {w: 2}}
              - blobContent: {blob: "${blob}"}
                expect: {value: "hello, blob"}
              - get: {id: a}
                expect: {value: {v: 1}}
              - close:
              - get: {id: a}
                expect: {error: {domain: Quire, code: notOpen}}
          - name: a manual clock expires a document
            given:
              clock: {manual: "2030-01-01T00:00:00Z"}
              documents: [{id: e, body: {v: 1}}]
            steps:
              - setExpiration: {id: e, in: 60}
              - getExpiration: {id: e}
                expect: {value: 1893456060000}
              - advanceClock: {seconds: 60}
              - get: {id: e}
                expect: {value: null, purged: true}
          - name: a wrong expectation fails
            steps:
              - save: {id: a, body: {v: 1}}
              - get: {id: a}
                expect: {value: {v: 2}}
        """

    /// Runs the spec's cases against a fresh `quire testserver`; returns status and skip
    /// reason by case name.
    static func run(extensionOn: Bool, hostsSteps: Bool = true) async throws -> [String: (CaseStatus, String?)] {
        var configuration = TestServerConfiguration(port: 0, log: { _ in })
        if hostsSteps { configuration.stepHost = HostedSteps() }
        let server = TestServer(configuration: configuration)
        try await server.start()
        let port = try #require(server.port)
        let scheme = extensionOn ? "testkit" : "testkit-plain"
        let engine = try EngineRegistry.makeEngine(named: "\(scheme):http://127.0.0.1:\(port)")
        #expect(engine.name == scheme)
        let file = ConformanceSuite.parse(spec, path: "inline.yaml")
        let runner = ConformanceRunner(engine: engine, options: RunnerOptions(jobs: 2))
        // The runner blocks on HTTP answers: off the concurrency pool the server answers from.
        let results = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: runner.run(file.cases)) }.start()
        }
        await server.stop()
        return Dictionary(
            uniqueKeysWithValues: results.map {
                ($0.testCase.baseName, ($0.status, $0.skipReason ?? $0.failure?.details))
            })
    }

    @Test func theExtensionCarriesWhatThePlainProtocolCannot() async throws {
        let results = try await Self.run(extensionOn: true)
        for name in [
            "documents round trip", "an invalid document ID is the store's error", "a deleted document is a tombstone",
            "a collection made after a write", "a served database answers a CouchDB client",
        ] {
            #expect(results[name]?.0 == .passed, "\(name): \(String(describing: results[name]))")
        }
        #expect(results["a replication pulls from a served database"]?.0 == .skipped)
        #expect(
            results["a replication pulls from a served database"]?.1?.contains(
                "needs capability 'replicationCheckpoints'") == true)
        #expect(results["a batch is one transaction"]?.0 == .skipped)
        #expect(results["a batch is one transaction"]?.1?.contains("needs capability 'transactions'") == true)
        #expect(results["a wrong expectation fails"]?.0 == .failed)
        for name in ["held objects, blobs and closing run in the hosted session", "a manual clock expires a document"] {
            #expect(results[name]?.0 == .passed, "\(name): \(String(describing: results[name]))")
        }
    }

    @Test func aServerThatHostsNoStepsLeavesTheirCasesSkipped() async throws {
        let results = try await Self.run(extensionOn: true, hostsSteps: false)
        #expect(results["documents round trip"]?.0 == .passed, "\(String(describing: results["documents round trip"]))")
        let held = results["held objects, blobs and closing run in the hosted session"]
        #expect(held?.0 == .skipped)
        #expect(held?.1?.contains("needs capability 'hostedSteps'") == true, "\(String(describing: held))")
        #expect(results["a manual clock expires a document"]?.0 == .skipped)
    }

    @Test func thePlainProtocolSkipsNamingTheCapability() async throws {
        let results = try await Self.run(extensionOn: false)
        #expect(results["documents round trip"]?.0 == .passed, "\(String(describing: results["documents round trip"]))")
        #expect(results["an invalid document ID is the store's error"]?.0 == .passed)
        #expect(results["a served database answers a CouchDB client"]?.0 == .passed)
        #expect(results["a deleted document is a tombstone"]?.0 == .skipped)
        #expect(results["a deleted document is a tombstone"]?.1?.contains("needs capability 'documentState'") == true)
        #expect(results["a collection made after a write"]?.0 == .skipped)
        #expect(
            results["a collection made after a write"]?.1?.contains("needs capability 'collectionsAfterWrites'") == true
        )
        #expect(
            results["a replication pulls from a served database"]?.1?.contains(
                "needs capability 'databasesAfterWrites'") == true)
        #expect(results["a wrong expectation fails"]?.0 == .failed)
        #expect(
            results["held objects, blobs and closing run in the hosted session"]?.1?.contains(
                "needs capability 'saveBlob'") == true)
        #expect(results["a manual clock expires a document"]?.1?.contains("needs capability 'manualClock'") == true)
    }

    @Test func anEngineNameThatIsNoURLIsRefused() {
        #expect(throws: EngineError.self) { try EngineRegistry.makeEngine(named: "testkit:not a url") }
        #expect(throws: EngineError.self) { try EngineRegistry.makeEngine(named: "testkit:ftp://host") }
    }
}

// `quire testserver` does the same (Sources/quire): the conformance engine runs hosted steps.
extension HostedSteps: TestServerStepHost {}
