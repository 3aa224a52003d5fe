/// Turns a run into a report in one format.
public protocol ConformanceReporter: Sendable {
    /// The report's text.
    func render(_ report: RunReport) -> String
}
