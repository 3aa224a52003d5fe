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
        await Self.lanes.acquire()
        let result = await Self.runOnOwnThread(testCase)
        await Self.lanes.release()
        switch result.status {
        case .passed, .skipped:
            break
        default:
            Issue.record(Comment(rawValue: result.summary + "\n" + (result.failure.map { "\($0)" } ?? "")))
        }
    }

    /// As many cases at a time as `quire conform` runs jobs by default. Every case on a thread
    /// of its own at once would start hundreds of threads, and under a sanitizer they starve
    /// the servers of the listener tests running beside them of the processor.
    private static let lanes = CaseLanes(width: max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// Runs a case on a thread of its own, as `quire conform` does. Steps that wait for async
    /// work (a listener starting) block their thread; on one of Swift concurrency's few
    /// threads that would starve the very tasks they wait for.
    private static func runOnOwnThread(_ testCase: ConformanceCase) async -> CaseResult {
        await onOwnThread { ConformanceRunner(engine: QuireEngine()).run(testCase) }
    }
}

/// A gate that lets `width` callers through at a time; the others wait in order.
private actor CaseLanes {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(width: Int) { free = width }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}
