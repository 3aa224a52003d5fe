/// Turns a run into a report in one format.
package protocol ConformanceReporter: Sendable {
    /// The report's text.
    func render(_ report: RunReport) -> String
}
