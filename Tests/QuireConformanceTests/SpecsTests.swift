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

    @Test(arguments: cases)
    func specCase(_ testCase: ConformanceCase) async {
        let result = await Self.runOnOwnThread(testCase)
        switch result.status {
        case .passed, .skipped:
            break
        default:
            Issue.record(Comment(rawValue: result.summary + "\n" + (result.failure.map { "\($0)" } ?? "")))
        }
    }

    /// Runs a case on a thread of its own, as `quire conform` does. Steps that wait for async
    /// work (a listener starting) block their thread; on one of Swift concurrency's few
    /// threads that would starve the very tasks they wait for.
    private static func runOnOwnThread(_ testCase: ConformanceCase) async -> CaseResult {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: ConformanceRunner(engine: QuireEngine()).run(testCase))
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
