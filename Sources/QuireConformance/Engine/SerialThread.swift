import Dispatch
import Foundation
import Quire

/// One thread that runs the work handed to it, in order, and nothing else: for work that
/// must stay on one thread from call to call (Quire ties batches, blockades and handle
/// closing to the thread that asked), driven from async code that may resume anywhere.
final class SerialThread: Sendable {
    /// The queued work; nil ends the thread.
    private let jobs = Locked<[(@Sendable () -> Void)?]>([])
    private let ready = DispatchSemaphore(value: 0)

    /// Starts the thread.
    init(name: String) {
        let thread = Thread { [jobs, ready] in
            while true {
                ready.wait()
                guard let job = jobs.withLock({ $0.removeFirst() }) else { return }
                job()
            }
        }
        thread.name = name
        // Engines may recurse deeply (query parsers); secondary threads default to little stack.
        thread.stackSize = 8 << 20
        thread.start()
    }

    deinit { enqueue(nil) }

    /// Runs `work` on the thread after everything queued before it; returns what it returns.
    func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            enqueue { continuation.resume(with: Swift.Result { try work() }) }
        }
    }

    private func enqueue(_ job: (@Sendable () -> Void)?) {
        jobs.withLock { $0.append(job) }
        ready.signal()
    }
}
