import Foundation
import Quire
import Testing

@testable import QuireSync

/// The replicator's wait between attempts, timed by the database clock.
@Suite struct QuireClockSleepTests {
    @Test func manualClockEndsTheWaitWhenAdvancedPastIt() async throws {
        let clock = ManualClock()
        let waiting = Task { try await clock.sleep(seconds: 60) }
        try await eventually("the wait to be scheduled") { clock.pendingCount == 1 }
        clock.advance(by: 59)
        #expect(clock.pendingCount == 1)
        clock.advance(by: 1)
        try await waiting.value
        #expect(clock.pendingCount == 0)
    }

    @Test func cancellingEndsTheWaitAndDropsTheTimer() async throws {
        let clock = ManualClock()
        let waiting = Task { try await clock.sleep(seconds: 60) }
        try await eventually("the wait to be scheduled") { clock.pendingCount == 1 }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(clock.pendingCount == 0)
    }
}
