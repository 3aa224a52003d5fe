/// The outcome of one case.
public struct CaseResult: Sendable {
    /// The case.
    package let testCase: ConformanceCase
    /// How it ended.
    public var status: CaseStatus
    /// Wall-clock time, in seconds.
    package var duration: Double
    /// Why it failed or could not run.
    public var failure: CaseFailure?
    /// Why it was skipped.
    package var skipReason: String?
    /// Other output worth keeping (performance measurements, the kept directory).
    package var notes: [String]
    /// A performance case's figures, for reports that chart them.
    package var performance: PerformanceMeasurement?

    /// Makes a result.
    package init(
        testCase: ConformanceCase, status: CaseStatus, duration: Double = 0, failure: CaseFailure? = nil,
        skipReason: String? = nil, notes: [String] = []
    ) {
        self.testCase = testCase
        self.status = status
        self.duration = duration
        self.failure = failure
        self.skipReason = skipReason
        self.notes = notes
    }

    /// `passed`, `skipped: reason`, or the failure's location and details.
    package var summary: String {
        switch status {
        case .passed: return "passed"
        case .skipped: return "skipped: \(skipReason ?? "")"
        case .failed, .error:
            guard let failure else { return status.rawValue }
            return "\(failure.location): \(failure.details)"
        }
    }
}
