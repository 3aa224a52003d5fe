import Dispatch
import Foundation
import Quire

/// Wakes a changes feed when its collection changes, when it times out, or when the feed must
/// end (the listener stops, the client goes away).
///
/// A commit that lands while nobody waits is remembered, so a feed that registers its signal
/// before scanning never misses a change made between its scan and its wait.
final class ChangeSignal: @unchecked Sendable {
    /// Why ``wait(timeout:)`` returned.
    enum Outcome: Equatable, Sendable {
        /// Something was committed.
        case changed
        /// Nothing happened for the whole timeout.
        case timedOut
        /// The feed must end.
        case ended
    }

    private let lock = NSLock()
    private var pending = false
    private var ended = false
    private var waiter: CheckedContinuation<Outcome, Never>?
    private var timer: DispatchWorkItem?
    /// Counts waits, so a timer that fires late cannot end a later wait.
    private var generation = 0
    private var token: ListenerToken?

    /// A signal for changes to `collection`.
    init(collection: Collection) {
        let token = collection.addChangeListener { [weak self] _ in self?.resume(with: .changed) }
        lock.withLock { self.token = token }
    }

    deinit {
        token?.remove()
        timer?.cancel()
    }

    /// Ends the feed: the current and every later wait return ``Outcome/ended``.
    func end() {
        resume(with: .ended)
    }

    /// Whether ``end()`` was called.
    var isEnded: Bool { lock.withLock { ended } }

    /// Waits for the next change (or one that came since the last wait), at most `timeout`.
    /// Task cancellation ends the feed.
    func wait(timeout: Duration) async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                lock.lock()
                defer { lock.unlock() }
                if ended {
                    continuation.resume(returning: .ended)
                } else if pending {
                    pending = false
                    continuation.resume(returning: .changed)
                } else {
                    waiter = continuation
                    generation += 1
                    let current = generation
                    let item = DispatchWorkItem { [weak self] in self?.resume(with: .timedOut, generation: current) }
                    timer = item
                    let (seconds, attoseconds) = timeout.components
                    // Saturating: a timeout of more than 292 years is as good as forever.
                    let (whole, overflow) = max(0, seconds).multipliedReportingOverflow(by: 1_000_000_000)
                    let sum = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
                    let nanoseconds = overflow || sum.overflow ? Int64.max : sum.partialValue
                    DispatchQueue.global().asyncAfter(
                        deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)), execute: item)
                }
            }
        } onCancel: {
            self.end()
        }
    }

    private func resume(with outcome: Outcome, generation timerGeneration: Int? = nil) {
        let (continuation, timer): (CheckedContinuation<Outcome, Never>?, DispatchWorkItem?) = lock.withLock {
            switch outcome {
            case .ended: ended = true
            case .changed: if waiter == nil { pending = true }
            case .timedOut: if timerGeneration != generation { return (nil, nil) }
            }
            defer {
                waiter = nil
                self.timer = nil
            }
            return (waiter, self.timer)
        }
        timer?.cancel()
        continuation?.resume(returning: outcome)
    }
}
