import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// The in-flight body budget on its own: first come, first served, and a cancelled wait
/// leaves no reservation.
@Suite struct RequestBodyBudgetTests {
    // The waits are events; their 300 s bound is only a safety net, wide because a waiting
    // task needs a cooperative thread, and the whole suite's other tests can hold both of a
    // 2-core machine's for tens of seconds.
    @Test func reservationsWaitInOrderAndCancellationLeavesNothing() async throws {
        let budget = RequestBodyBudget(total: 100)
        #expect(try await budget.reserve(60) == 60)
        let big = Task { try await budget.reserve(70) }
        try await eventually(timeout: 300, "one waiting") { budget.waiting == 1 }
        // A small one that would fit waits behind the big one: no starvation.
        let small = Task { try await budget.reserve(10) }
        try await eventually(timeout: 300, "two waiting") { budget.waiting == 2 }
        budget.release(60)
        #expect(try await big.value == 70)
        #expect(try await small.value == 10)
        #expect(budget.inUse == 80)
        // A wait cancelled gives nothing back and takes nothing.
        let cancelled = Task { try await budget.reserve(50) }
        try await eventually(timeout: 300, "one waiting") { budget.waiting == 1 }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(budget.waiting == 0)
        budget.release(80)
        #expect(budget.inUse == 0)
        // Larger than the whole budget: clamped, so it can be granted.
        #expect(try await budget.reserve(1000) == 100)
    }

    @Test func aWaitCancelledBeforeItBeginsEndsAtOnce() async throws {
        let budget = RequestBodyBudget(total: 100)
        let held = try await budget.reserve(100)
        let started = AsyncStream<Void>.makeStream()
        let ended = Locked(false)
        let late = Task {
            defer { ended.withLock { $0 = true } }
            // Cancelled before it asks: it must not wait for room that may never come.
            for await _ in started.stream { break }
            return try await budget.reserve(10)
        }
        late.cancel()
        started.continuation.yield()
        try await eventually(timeout: 300, "the cancelled wait ended") { ended.withLock { $0 } }
        await #expect(throws: CancellationError.self) { try await late.value }
        #expect(budget.waiting == 0)
        budget.release(held)
        #expect(budget.inUse == 0)
    }

    @Test func chargedBytesCountWithoutWaitingAndAreReleasedLikeReservations() async throws {
        let budget = RequestBodyBudget(total: 100)
        #expect(try await budget.reserve(80) == 80)
        budget.charge(50)
        #expect(budget.inUse == 130)
        #expect(budget.peak == 130)
        let waiting = Task { try await budget.reserve(30) }
        try await eventually(timeout: 300, "one waiting") { budget.waiting == 1 }
        budget.release(50)
        #expect(budget.waiting == 1)
        budget.release(80)
        #expect(try await waiting.value == 30)
        budget.release(30)
        #expect(budget.inUse == 0)
    }
}
