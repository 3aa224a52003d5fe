import Foundation
import Quire
import Testing

@testable import QuireConformance

/// A performance case with `suite:` times the runner on spec files against their engine calls
/// replayed (`engineReplay`).
@Suite struct SuiteMeasurementTests {
    /// A folder holding `suite/cases.yaml` (three cases: saves, an expected error, a batch that
    /// rolls back) and nothing else; removed by the caller.
    private func makeSuiteFolder(extraCase: String = "") throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "quire-suite-\(UUID().uuidString)", isDirectory: true)
        let suite = root.appendingPathComponent("suite", isDirectory: true)
        try FileManager.default.createDirectory(at: suite, withIntermediateDirectories: true)
        let yaml = """
            about: a small suite
            cases:
              - name: saves and reads
                steps:
                  - save: {id: a, body: {n: 1}}
                  - get: {id: a}
                    expect: {value: {n: 1}}
              - name: an expected error
                steps:
                  - createCollection: {name: "bad name!", scope: s}
                    expect: {error: invalidParameter}
              - name: a batch that rolls back
                steps:
                  - batch:
                      steps:
                        - save: {id: b, body: {}}
                      throw: true
                    expect: {error: batchAborted}
                  - get: {id: b}
                    expect: {value: null, shouldNotExist: true}
            \(extraCase)
            """
        try yaml.write(to: suite.appendingPathComponent("cases.yaml"), atomically: true, encoding: .utf8)
        return root
    }

    /// Measures on a thread of its own: the rounds take a while, and a test blocking one of
    /// Swift concurrency's few threads that long holds up the async tests beside it.
    private func measure(_ root: URL, limit: String) async -> CaseResult {
        await onOwnThread { measureHere(root, limit: limit) }
    }

    private func measureHere(_ root: URL, limit: String) -> CaseResult {
        let yaml = """
            about: x
            cases:
              - name: the small suite
                perf:
                  suite: suite
                  baseline: engineReplay
                  iterations: 1
                  rounds: 3
                  maxRatio: \(limit)
            """
        var options = RunnerOptions(includePerformance: true)
        options.measuresUnoptimisedBuilds = true
        let file = ConformanceSuite.parse(yaml, path: "inline.yaml", directory: root)
        return ConformanceRunner(engine: QuireEngine(), options: options).run(file.cases[0])
    }

    @Test func aSuiteCaseReportsCasesPerSecondAndItsVerdictCanFail() async throws {
        let root = try makeSuiteFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let passing = await measure(root, limit: "100000")
        #expect(passing.status == .passed, "\(passing.summary)")
        let measurement = try #require(passing.performance)
        #expect(measurement.suiteCases == 3 && measurement.baselineName == "engineReplay")
        let (runner, replayed) = try #require(measurement.casesPerSecond)
        #expect(runner > 0 && replayed > 0)
        #expect(passing.notes.first?.contains("cases/s through the runner") == true, "\(passing.notes)")
        let junit = JUnitReporter().render(
            RunReport(engine: "quire", seed: 0, start: Date(), stop: Date(), results: [passing]))
        for name in ["cases", "casesPerSecond", "replayedCasesPerSecond", "ratio", "limit"] {
            #expect(junit.contains("<property name=\"\(name)\" value="), "\(name) in \(junit)")
        }
        let failing = await measure(root, limit: String(measurement.ratio / 10))
        #expect(failing.status == .failed)
        #expect(failing.failure?.message == "the workload is too slow against its baseline (measured twice)")
    }

    @Test func theReplayMakesTheEngineCallsTheRunnerMade() throws {
        let root = try makeSuiteFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let counting = CountingEngine(QuireEngine())
        let measurement = SuiteMeasurement(
            engine: counting, paths: [root.appendingPathComponent("suite").path], seed: 0, workDirectory: nil)
        let recorded = try measurement.record()
        #expect(recorded.count == 3)
        let throughRunner = counting.counts.withLock { $0 }
        #expect(throughRunner.sessions == 3 && throughRunner.steps == 5 && throughRunner.batches == 1)
        counting.counts.withLock { $0 = CountingEngine.Counts() }
        try measurement.replay(recorded)
        #expect(counting.counts.withLock { $0 } == throughRunner)
        for recordedCase in recorded {
            #expect(!FileManager.default.fileExists(atPath: recordedCase.directory.path))
        }
    }

    @Test func aSuiteWithAFailingCaseFailsTheMeasurement() async throws {
        let root = try makeSuiteFolder(
            extraCase: """
                  - name: wrong
                    steps:
                      - inspect: 1
                        expect: {value: 2}
                """)
        defer { try? FileManager.default.removeItem(at: root) }
        let result = await measure(root, limit: "100000")
        #expect(result.status == .failed)
        #expect(
            result.failure?.message == "the suite's case '\(root.path)/suite/cases.yaml :: wrong' did not pass",
            "\(result.summary)")
    }

    @Test(arguments: [
        ("suite: suite\n      workload: [{save: {id: a, body: {}}}]\n      baseline: engineReplay", "no workload"),
        ("suite: suite\n      baseline: nothing", "baseline is engineReplay"),
        ("workload: [{save: {id: a, body: {}}}]\n      baseline: engineReplay", "it needs suite"),
        ("suite: suite\n      baseline: engineReplay\n      threads: 2", "no threads"),
    ])
    func suiteCasesAreCheckedWhenRead(keys: String, message: String) {
        let yaml = "about: x\ncases:\n  - name: c\n    perf:\n      \(keys)\n      iterations: 1\n      maxRatio: 2\n"
        let file = ConformanceSuite.parse(yaml, path: "inline.yaml")
        let errors = file.cases.first?.specErrors.map(\.message).joined(separator: "; ") ?? ""
        #expect(errors.contains(message), "\(errors)")
    }
}

/// Counts what the runner asks of an engine's sessions.
private final class CountingEngine: ConformanceEngine, @unchecked Sendable {
    // Safe: the counts are locked, and the inner engine is Sendable.
    struct Counts: Equatable {
        var sessions = 0
        var steps = 0
        var batches = 0
    }

    let inner: any ConformanceEngine
    let counts = Locked(Counts())

    init(_ inner: any ConformanceEngine) { self.inner = inner }

    var name: String { inner.name }

    func makeSession(directory: URL, given: Given, seed: UInt64) throws -> any EngineSession {
        counts.withLock { $0.sessions += 1 }
        return Session(inner: try inner.makeSession(directory: directory, given: given, seed: seed), counts: counts)
    }

    final class Session: EngineSession {
        let inner: any EngineSession
        let counts: Locked<Counts>

        init(inner: any EngineSession, counts: Locked<Counts>) {
            self.inner = inner
            self.counts = counts
        }

        func perform(_ step: Step, in context: StepContext) throws -> SpecValue? {
            counts.withLock { $0.steps += 1 }
            return try inner.perform(step, in: context)
        }

        func inBatch(_ body: () throws -> Void) throws {
            counts.withLock { $0.batches += 1 }
            try inner.inBatch(body)
        }

        func documentState(of document: DocumentReference) throws -> DocumentState {
            try inner.documentState(of: document)
        }

        func close() throws { try inner.close() }
    }
}
