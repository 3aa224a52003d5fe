import Foundation
import Testing
@testable import QuireConformance

/// The replicator and container steps, and issue 25's behaviours (a refused conflicting push,
/// blob dictionaries, dates before 1970), each shown to fail when the expectation is wrong
/// (`Resources/failing-replication`, on the Quire engine).
@Suite struct ReplicatorStepsTests {
    private static let report: RunReport = {
        let suite = ConformanceSuite.load(paths: [TestResources.path("failing-replication")])
        return ConformanceRunner(engine: QuireEngine(), options: RunnerOptions(jobs: 2)).run(suite, selection: CaseSelection())
    }()

    private func failure(_ name: String, status: CaseStatus = .failed) throws -> CaseFailure {
        let result = try #require(Self.report.results.first { $0.testCase.name == name }, "no case '\(name)'")
        #expect(result.status == status, "\(name): \(result.status)")
        return try #require(result.failure, "'\(name)' did not fail")
    }

    @Test func everyDeliberateCaseFailsOrIsAnError() {
        #expect(Self.report.results.count == 11)
        #expect(Self.report.results.allSatisfy { $0.status == .failed || $0.status == .error },
                "\(TextReporter().render(Self.report))")
    }

    @Test func aConflictingPushIsRefusedAndNotCounted() throws {
        let events = try failure("a conflicting push expected to pass")
        #expect(events.message.contains("at 0.error: expected null, found \"httpConflict\""), "\(events.message)")
        let counted = try failure("a refused push expected to count")
        #expect(counted.message.contains("at pushed: expected 1, found 0"), "\(counted.message)")
    }

    @Test func replicatorStepsReportWhatHappened() throws {
        let pending = try failure("a pending write expected to be sent")
        #expect(pending.actual == #"["c"]"#)
        let filtered = try failure("a push filter expected to let everything through")
        #expect(filtered.actual == "1")
        let resolved = try failure("remoteWins expected to keep the local side")
        #expect(resolved.actual == #""Striped""#)
    }

    @Test func containerStepsFailOnTheirValues() throws {
        // Quire's setters ignore an index out of range where Couchbase Lite raises; the step
        // refuses it itself, so an unexpected one is the runner's refusal (an error).
        let range = try failure("an out-of-range index expected to be set", status: .error)
        #expect(range.actual?.hasPrefix("error Runner.outOfRange") == true, "\(range.actual ?? "")")
        #expect(try failure("a nested set expected to leave the value").actual == #""Lyon""#)
        #expect(try failure("a text length expected to be a blob").actual == "false")
        #expect(try failure("five bytes expected to be the whole blob").actual == #""hello""#)
    }

    @Test func blobDictionariesAndDatesFailOnTheOldBehaviour() throws {
        let legacy = try failure("a legacy attachment expected to stay a dictionary")
        #expect(legacy.actual == "null")
        let date = try failure("a date before 1970 expected to lose a millisecond")
        #expect(date.actual == #""1969-12-31T23:59:59.999Z""#)
    }
}
