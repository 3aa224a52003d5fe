import Foundation

/// A bounded set of threads of its own that runs blocking work for async callers, so the
/// work never holds one of Swift concurrency's cooperative threads (there are only as many
/// of those as cores, and every request of the listener needs one to make progress).
///
/// Threads start when work arrives and no thread is idle, up to `limit`; beyond that, work
/// waits in first-come order while its caller stays suspended, holding no thread. After
/// ``shutdown()`` the work already queued still runs, new work is refused, and the threads
/// end once idle.
package final class WorkerThreads: @unchecked Sendable {
    // Safe because every `var` below is read and written only with `condition` locked (a
    // condition, not a `Locked`, since idle threads wait on it).
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var threads = 0
    private var idle = 0
    private var stopping = false

    /// The name given to each thread, for debuggers and crash logs.
    package let name: String
    /// The most threads running at once.
    package let limit: Int

    package init(name: String, limit: Int) {
        self.name = name
        self.limit = max(1, limit)
    }

    /// Threads started and not yet ended.
    package var threadCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return threads
    }

    /// Runs `work` on one of the threads and returns what it returns or throws; notOpen
    /// after ``shutdown()``.
    package func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let accepted = submit { continuation.resume(with: Result { try work() }) }
            if !accepted {
                continuation.resume(
                    throwing: QuireError(.notOpen, "\(name) has shut down: it takes no more database work"))
            }
        }
    }

    /// Lets the queued work finish, refuses new work, and lets every thread end once idle.
    package func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return false }
        jobs.append(job)
        // Each idle thread takes one job when it wakes; start another thread for the rest.
        if jobs.count > idle, threads < limit {
            threads += 1
            let thread = Thread { [self] in serve() }
            thread.name = name
            thread.start()
        } else {
            condition.signal()
        }
        return true
    }

    /// A thread's life: take jobs in order, wait while there are none, end when stopping.
    private func serve() {
        condition.lock()
        while true {
            if !jobs.isEmpty {
                let job = jobs.removeFirst()
                condition.unlock()
                job()
                condition.lock()
            } else if stopping {
                threads -= 1
                condition.unlock()
                return
            } else {
                idle += 1
                condition.wait()
                idle -= 1
            }
        }
    }
}
