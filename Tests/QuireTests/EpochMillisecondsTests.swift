import Foundation
import Testing

@testable import Quire

/// Dates are whole milliseconds, converted without floating-point rounding (issue 25: a date
/// a millisecond before 1970 read back a millisecond early).
@Suite struct EpochMillisecondsTests {
    @Test(arguments: [
        ("1969-12-31T23:59:59.999Z", Int64(-1)),
        ("1969-12-31T23:59:59.001Z", -999),
        ("1970-01-01T00:00:00.000Z", 0),
        ("1970-01-01T00:00:00.001Z", 1),
        ("1900-01-01T00:00:00.123Z", -2_208_988_799_877),
        ("2026-01-02T03:04:05.678Z", 1_767_323_045_678),
    ])
    func textAndMillisecondsRoundTrip(text: String, milliseconds: Int64) throws {
        #expect(ISO8601.milliseconds(from: text) == milliseconds)
        let date = try #require(ISO8601.date(from: text))
        #expect(EpochMilliseconds.of(date) == milliseconds)
        #expect(ISO8601.string(from: date) == text)
    }

    @Test func everyMillisecondAroundTheEpochRoundTrips() {
        for milliseconds in Int64(-5000)...5000 {
            let date = EpochMilliseconds.date(milliseconds)
            #expect(EpochMilliseconds.of(date) == milliseconds)
        }
    }

    @Test func aDateBetweenMillisecondsGoesToTheEarlierOne() {
        #expect(EpochMilliseconds.of(Date(timeIntervalSince1970: -0.0015)) == -2)
        #expect(EpochMilliseconds.of(Date(timeIntervalSince1970: 0.0015)) == 1)
        #expect(ISO8601.string(from: Date(timeIntervalSince1970: -0.0005)) == "1969-12-31T23:59:59.999Z")
    }

    @Test func fractionDigitsPastTheMillisecondAreDropped() {
        #expect(ISO8601.milliseconds(from: "1969-12-31T23:59:59.9999Z") == -1)
        #expect(ISO8601.milliseconds(from: "1970-01-01T00:00:00.5Z") == 500)
        #expect(ISO8601.milliseconds(from: "1970-01-01T01:00:00+01:00") == 0)
    }

    @Test func aStoredPreEpochDateReadsBackExactly() throws {
        let document = MutableDocument(id: "d")
        let date = try #require(ISO8601.date(from: "1969-12-31T23:59:59.999Z"))
        document.setDate(date, forKey: "when")
        #expect(document.string(forKey: "when") == "1969-12-31T23:59:59.999Z")
        #expect(document.date(forKey: "when").map(EpochMilliseconds.of) == -1)
    }
}
