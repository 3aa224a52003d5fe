import Foundation
import Quire

/// The runner's own speed: a performance case with `suite:` runs spec files through the runner
/// (reading the YAML, checking it against the schema, a fresh directory and session per case,
/// substituting variables, comparing every expectation) and divides by the same engine work
/// replayed by a plain loop (``baselineName``): each case's recorded engine calls, made again in
/// a fresh directory and session, with nothing parsed and nothing compared. The ratio is what the
/// runner adds around the engine; the cases per second of both are reported beside it.
struct SuiteMeasurement {
    /// The baseline of a suite case.
    static let baselineName = "engineReplay"

    /// The engine under test.
    let engine: any ConformanceEngine
    /// The spec files or folders, absolute.
    let paths: [String]
    /// The run's seed.
    let seed: UInt64
    /// Where case directories go.
    let workDirectory: URL?

    /// One case's engine calls, in order.
    struct RecordedCase {
        var directory: URL
        var given: Given
        var seed: UInt64
        var calls: [RecordedCall]
    }

    /// One engine call: a step, or a batch of calls that rolled back when `failed`.
    indirect enum RecordedCall {
        case step(Step, StepContext)
        case batch([RecordedCall], failed: Bool)
    }

    /// Why a suite case cannot be measured.
    struct Failure: Error {
        var message: String
        var actual: String?
    }

    /// Runs the suite once through the runner, recording every engine call, untimed; fails when
    /// a case of the suite does not pass, since a failing suite measures nothing useful.
    func record() throws -> [RecordedCase] {
        let recorder = RecordingEngine(engine)
        _ = try runSuite(on: recorder)
        return recorder.recorded.withLock { $0 }
    }

    /// Runs the suite through the runner; returns how many cases ran.
    @discardableResult
    func runSuite() throws -> Int { try runSuite(on: engine) }

    private func runSuite(on engine: any ConformanceEngine) throws -> Int {
        let suite = ConformanceSuite.load(paths: paths, seed: seed)
        let cases = suite.cases.filter { !$0.isPerformance }
        guard !cases.isEmpty else {
            throw Failure(message: "the suite has no case to run", actual: paths.joined(separator: ", "))
        }
        let runner = ConformanceRunner(engine: engine, options: RunnerOptions(jobs: 1, workDirectory: workDirectory))
        let results = runner.run(cases)
        if let broken = results.first(where: { $0.status == .failed || $0.status == .error }) {
            throw Failure(
                message: "the suite's case '\(broken.testCase.id)' did not pass", actual: broken.failure?.message)
        }
        return cases.count
    }

    /// Makes every recorded call again, each case in a fresh directory (the recorded path, so
    /// that paths in its steps resolve the same) and session; errors are what the cases expected
    /// and are passed over.
    func replay(_ recorded: [RecordedCase]) throws {
        for recordedCase in recorded {
            try FileManager.default.createDirectory(at: recordedCase.directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: recordedCase.directory) }
            let session = try engine.makeSession(
                directory: recordedCase.directory, given: recordedCase.given, seed: recordedCase.seed)
            Self.make(recordedCase.calls, on: session)
            try session.close()
        }
    }

    private struct RolledBack: Error {}

    private static func make(_ calls: [RecordedCall], on session: any EngineSession) {
        for call in calls {
            switch call {
            case .step(let step, let context):
                _ = try? session.perform(step, in: context)
            case .batch(let inner, let failed):
                try? session.inBatch {
                    make(inner, on: session)
                    if failed { throw RolledBack() }
                }
            }
        }
    }
}

/// An engine that records what the runner asks of its sessions, for ``SuiteMeasurement``.
private final class RecordingEngine: ConformanceEngine, @unchecked Sendable {
    // Safe: the recording run uses one job, and `recorded` is locked.
    let inner: any ConformanceEngine
    let recorded = Locked<[SuiteMeasurement.RecordedCase]>([])

    init(_ inner: any ConformanceEngine) { self.inner = inner }

    var name: String { inner.name }
    var capabilities: Set<EngineCapability>? { inner.capabilities }

    func makeSession(directory: URL, given: Given, seed: UInt64) throws -> any EngineSession {
        let session = try inner.makeSession(directory: directory, given: given, seed: seed)
        return RecordingSession(
            inner: session,
            recordedCase: SuiteMeasurement.RecordedCase(directory: directory, given: given, seed: seed, calls: []),
            engine: self)
    }
}

/// A session that forwards every call and records the steps and batches.
private final class RecordingSession: EngineSession {
    let inner: any EngineSession
    var recordedCase: SuiteMeasurement.RecordedCase
    /// The calls of the batches being run, innermost last.
    var open: [[SuiteMeasurement.RecordedCall]] = []
    let engine: RecordingEngine

    init(inner: any EngineSession, recordedCase: SuiteMeasurement.RecordedCase, engine: RecordingEngine) {
        self.inner = inner
        self.recordedCase = recordedCase
        self.engine = engine
    }

    private func append(_ call: SuiteMeasurement.RecordedCall) {
        if open.isEmpty { recordedCase.calls.append(call) } else { open[open.count - 1].append(call) }
    }

    func perform(_ step: Step, in context: StepContext) throws -> SpecValue? {
        append(.step(step, context))
        return try inner.perform(step, in: context)
    }

    func inBatch(_ body: () throws -> Void) throws {
        open.append([])
        var failed = false
        defer { append(.batch(open.removeLast(), failed: failed)) }
        do {
            try inner.inBatch(body)
        } catch {
            failed = true
            throw error
        }
    }

    func documentState(of document: DocumentReference) throws -> DocumentState {
        try inner.documentState(of: document)
    }

    func isBlobStored(digest: String) throws -> Bool { try inner.isBlobStored(digest: digest) }

    func close() throws {
        let finished = recordedCase
        engine.recorded.withLock { $0.append(finished) }
        try inner.close()
    }
}
