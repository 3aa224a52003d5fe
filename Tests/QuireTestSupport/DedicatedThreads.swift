import Foundation
import Testing

/// A task executor on threads of its own, for tests that block the thread they run on: they
/// wait for a child process, sleep, or wait on a semaphore for another thread.
///
/// Swift Testing runs every test on Swift concurrency's cooperative pool, which on a 2-core
/// machine has two threads. Two blocking tests at once then stall every other test of the run
/// until one of them ends, and a test that waits there for work the pool must do (a listener
/// in the same process answering a child `quire`) waits out its own timeout. Tests given the
/// ``Trait/offCooperativePool`` trait run here instead: at most ``DedicatedThreads/width`` of
/// them at once, while the pool stays free for the rest.
package final class DedicatedThreads: TaskExecutor, @unchecked Sendable {
    // Safe because `jobs` is reached only with `condition` locked, and `width` is a constant.

    /// How many of these tests run at once: as many as the cooperative pool has threads (two
    /// at least), so the blocking tests take no more of the machine than they did on the pool.
    package static let width = max(2, ProcessInfo.processInfo.activeProcessorCount)

    /// The executor the trait runs tests on.
    package static let shared = DedicatedThreads(width: width)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(width: Int) {
        for index in 0..<width {
            let thread = Thread { [unowned self] in self.serve() }
            thread.name = "quire.test.dedicated.\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs in the order they came, forever (the executor lives as long as the process).
    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs each test it is given to (a suite's, when given to a suite) with ``DedicatedThreads``
/// as its task executor, so the test's own code runs off the cooperative pool.
package struct OffCooperativePoolTrait: TestTrait, SuiteTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite is a scope around its tests, which each get the trait; a test function's
        // scope holds all its cases, which inherit the preference as child tasks.
        guard !test.isSuite else { return try await function() }
        try await withTaskExecutorPreference(DedicatedThreads.shared) { try await function() }
    }
}

extension Trait where Self == OffCooperativePoolTrait {
    /// The test (or every test of the suite) blocks its thread: run it on
    /// ``DedicatedThreads``, not on Swift concurrency's cooperative pool.
    package static var offCooperativePool: Self { OffCooperativePoolTrait() }
}
