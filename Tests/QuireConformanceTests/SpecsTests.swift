import Foundation
import Testing
@testable import QuireConformance

/// Runs every expanded case of `Specs/` against the Quire engine, so a failing scenario
/// fails the test command as it fails `quire conform`. Performance cases run only with
/// `quire conform --perf`.
@Suite struct SpecsTests {
    static let specsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Specs")

    static let cases: [ConformanceCase] = ConformanceSuite.load(paths: [specsDirectory.path]).cases

    @Test func theSuiteIsNotEmpty() {
        #expect(Self.cases.count > 50)
    }

    /// Where cases run: threads of their own, as `quire conform` runs them. Replication steps
    /// block their thread until async work (listeners, replicators) finishes on Swift
    /// concurrency's threads, so they must not block one of those.
    static let runners: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "SpecsTests.runners"
        queue.maxConcurrentOperationCount = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return queue
    }()

    @Test(arguments: cases)
    func specCase(_ testCase: ConformanceCase) async {
        let result = await withCheckedContinuation { continuation in
            Self.runners.addOperation {
                continuation.resume(returning: ConformanceRunner(engine: QuireEngine()).run(testCase))
            }
        }
        switch result.status {
        case .passed, .skipped:
            break
        default:
            Issue.record(Comment(rawValue: result.summary + "\n" + (result.failure.map { "\($0)" } ?? "")))
        }
    }
}
