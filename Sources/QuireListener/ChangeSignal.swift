import Dispatch
import Foundation
import Quire
import QuireSync

/// Wakes a changes feed when its collection changes, when it times out, or when the feed must
/// end (the listener stops, the client goes away).
///
/// A commit that lands while nobody waits is remembered, so a feed that registers its signal
/// before scanning never misses a change made between its scan and its wait.
///
/// Commits through this process's databases wake it at once. Commits by another process
/// (`quire db put`) or another connection to the file are seen by the listener's poll of
/// the collection's last sequence (``FeedRegistry`` calls ``noteLastSequence(_:)``), compared
/// with the one when the signal was made.
final class ChangeSignal: @unchecked Sendable {
    // Safe because all of its state is behind `state`'s lock; only the timer's
    // DispatchWorkItem, not marked Sendable though libdispatch lets any thread cancel it,
    // keeps the compiler from checking that.
    /// Why ``wait(timeout:)`` returned.
    enum Outcome: Equatable, Sendable {
        /// Something was committed.
        case changed
        /// Nothing happened for the whole timeout.
        case timedOut
        /// The feed must end.
        case ended
    }

    private struct State {
        var pending = false
        var ended = false
        var waiter: CheckedContinuation<Outcome, Never>?
        var timer: DispatchWorkItem?
        /// Counts waits, so a timer that fires late cannot end a later wait.
        var generation = 0
        var token: ListenerToken?
        /// The collection's last sequence when last looked at.
        var seen: UInt64 = 0
    }

    private let state = Locked(State())

    /// The collection watched.
    let collection: Collection

    /// A signal for changes to `collection`.
    init(collection: Collection) {
        self.collection = collection
        let token = collection.addChangeListener { [weak self] _ in self?.resume(with: .changed) }
        // One indexed read; a feed scans only after this, so nothing committed after it is missed.
        let seen = (try? collection.lastSequence()) ?? 0
        state.withLock {
            $0.token = token
            $0.seen = seen
        }
    }

    /// Wakes the feed when `sequence`, the collection's last sequence now, is past the one
    /// seen before (a commit made anywhere, by any process).
    func noteLastSequence(_ sequence: UInt64) {
        let advanced = state.withLock { state -> Bool in
            guard sequence > state.seen else { return false }
            state.seen = sequence
            return true
        }
        if advanced { resume(with: .changed) }
    }

    deinit {
        let (token, timer) = state.withLock { ($0.token, $0.timer) }
        token?.remove()
        timer?.cancel()
    }

    /// Ends the feed: the current and every later wait return ``Outcome/ended``.
    func end() {
        resume(with: .ended)
    }

    /// Whether ``end()`` was called.
    var isEnded: Bool { state.withLock { $0.ended } }

    /// Waits for the next change (or one that came since the last wait), at most `timeout`.
    /// Task cancellation ends the feed.
    func wait(timeout: Duration) async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                state.withLock { state in
                    if state.ended {
                        continuation.resume(returning: .ended)
                    } else if state.pending {
                        state.pending = false
                        continuation.resume(returning: .changed)
                    } else {
                        state.waiter = continuation
                        state.generation += 1
                        let current = state.generation
                        let item = DispatchWorkItem { [weak self] in self?.resume(with: .timedOut, generation: current)
                        }
                        state.timer = item
                        let (seconds, attoseconds) = timeout.components
                        // Saturating: a timeout of more than 292 years is as good as forever.
                        let (whole, overflow) = max(0, seconds).multipliedReportingOverflow(by: 1_000_000_000)
                        let sum = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
                        let nanoseconds = overflow || sum.overflow ? Int64.max : sum.partialValue
                        DispatchQueue.global().asyncAfter(
                            deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)), execute: item)
                    }
                }
            }
        } onCancel: {
            self.end()
        }
    }

    private func resume(with outcome: Outcome, generation timerGeneration: Int? = nil) {
        let (continuation, timer) = state.withLock {
            state -> (CheckedContinuation<Outcome, Never>?, DispatchWorkItem?) in
            switch outcome {
            case .ended: state.ended = true
            case .changed: if state.waiter == nil { state.pending = true }
            case .timedOut: if timerGeneration != state.generation { return (nil, nil) }
            }
            defer {
                state.waiter = nil
                state.timer = nil
            }
            return (state.waiter, state.timer)
        }
        timer?.cancel()
        continuation?.resume(returning: outcome)
    }
}
