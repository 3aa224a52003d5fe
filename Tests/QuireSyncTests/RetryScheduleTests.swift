import Foundation
import Testing

@testable import QuireSync

/// The waits between attempts after network failures.
@Suite struct RetryScheduleTests {
    @Test func waitsDoubleUpToTheCap() {
        let schedule = RetrySchedule(maxAttempts: 12, maxWait: 300)
        #expect((1...11).map { schedule.delay(afterFailures: $0) } == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300])
        #expect(schedule.delay(afterFailures: 12) == nil)
    }

    @Test func attemptsIncludeTheFirst() {
        let schedule = RetrySchedule(maxAttempts: 3, maxWait: 10)
        #expect(schedule.delay(afterFailures: 1) == 1)
        #expect(schedule.delay(afterFailures: 2) == 2)
        #expect(schedule.delay(afterFailures: 3) == nil)
    }

    @Test func unlimitedAttemptsNeverOverflow() {
        let schedule = RetrySchedule(maxAttempts: .max, maxWait: 300)
        #expect(schedule.delay(afterFailures: 10_000) == 300)
    }

    @Test func configurationDefaults() throws {
        var config = ReplicatorConfiguration(target: URLEndpoint(url: try #require(URL(string: "http://h/db"))))
        #expect(config.effectiveMaxAttempts == 10)
        #expect(config.effectiveMaxAttemptWaitTime == 300)
        config.continuous = true
        #expect(config.effectiveMaxAttempts == .max)
        config.maxAttempts = 4
        config.maxAttemptWaitTime = 2
        #expect(config.effectiveMaxAttempts == 4)
        #expect(config.effectiveMaxAttemptWaitTime == 2)
    }
}
