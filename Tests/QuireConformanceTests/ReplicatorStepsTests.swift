import Foundation
import Testing

@testable import QuireConformance

/// The replicator and container steps, and issue 25's behaviours (a refused conflicting push,
/// blob dictionaries, dates before 1970), each shown to fail when the expectation is wrong
/// (`Resources/failing-replication`, on the Quire engine).
@Suite struct ReplicatorStepsTests {
    /// The run, made once on a thread of its own: its steps block their thread while a
    /// replicator or a listener works on Swift concurrency's threads, which a test's own
    /// thread would starve (as `SpecsTests` explains).
    private final class SharedRun: @unchecked Sendable {
        private let lock = NSLock()
        private var report: RunReport?

        func get() -> RunReport {
            lock.withLock {
                if let report { return report }
                let suite = ConformanceSuite.load(paths: [TestResources.path("failing-replication")])
                let made = ConformanceRunner(engine: QuireEngine(), options: RunnerOptions(jobs: 2)).run(
                    suite, selection: CaseSelection())
                report = made
                return made
            }
        }
    }

    private static let shared = SharedRun()

    private static func report() async -> RunReport {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: shared.get()) }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    private func failure(_ name: String, status: CaseStatus = .failed) async throws -> CaseFailure {
        let report = await Self.report()
        let result = try #require(report.results.first { $0.testCase.name == name }, "no case '\(name)'")
        #expect(result.status == status, "\(name): \(result.status)")
        return try #require(result.failure, "'\(name)' did not fail")
    }

    @Test func everyDeliberateCaseFailsOrIsAnError() async {
        let report = await Self.report()
        #expect(report.results.count == 11)
        #expect(
            report.results.allSatisfy { $0.status == .failed || $0.status == .error },
            "\(TextReporter().render(report))")
    }

    @Test func aConflictingPushIsRefusedAndNotCounted() async throws {
        let events = try await failure("a conflicting push expected to pass")
        #expect(events.message.contains("at 0.error: expected null, found \"httpConflict\""), "\(events.message)")
        let counted = try await failure("a refused push expected to count")
        #expect(counted.message.contains("at pushed: expected 1, found 0"), "\(counted.message)")
    }

    @Test func replicatorStepsReportWhatHappened() async throws {
        let pending = try await failure("a pending write expected to be sent")
        #expect(pending.actual == #"["c"]"#)
        let filtered = try await failure("a push filter expected to let everything through")
        #expect(filtered.actual == "count 1: 1")
        let resolved = try await failure("remoteWins expected to keep the local side")
        #expect(resolved.actual == #""Striped""#)
    }

    @Test func containerStepsFailOnTheirValues() async throws {
        // Quire's setters ignore an index out of range where Couchbase Lite raises; the step
        // refuses it itself, so an unexpected one is the runner's refusal (an error).
        let range = try await failure("an out-of-range index expected to be set", status: .error)
        #expect(range.actual?.hasPrefix("error Runner.outOfRange") == true, "\(range.actual ?? "")")
        let nested = try await failure("a nested set expected to leave the value")
        #expect(nested.actual == #""Lyon""#)
        let isBlob = try await failure("a text length expected to be a blob")
        #expect(isBlob.actual == "false")
        let bytes = try await failure("five bytes expected to be the whole blob")
        #expect(bytes.actual == #""hello""#)
    }

    @Test func blobDictionariesAndDatesFailOnTheOldBehaviour() async throws {
        let legacy = try await failure("a legacy attachment expected to stay a dictionary")
        #expect(legacy.actual == "null")
        let date = try await failure("a date before 1970 expected to lose a millisecond")
        #expect(date.actual == #""1969-12-31T23:59:59.999Z""#)
    }
}
