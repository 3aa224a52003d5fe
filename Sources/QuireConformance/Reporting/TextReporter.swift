import Foundation

/// The readable report printed by default: each failure and error with `path:line:column`,
/// the step, expected and actual; then a closing line `N passed, N failed, N skipped`.
package struct TextReporter: ConformanceReporter {
    /// List passing and skipped cases too, and performance measurements.
    package var verbose: Bool

    /// Makes a text reporter.
    package init(verbose: Bool = false) {
        self.verbose = verbose
    }

    /// The report.
    package func render(_ report: RunReport) -> String {
        var lines: [String] = []
        for result in report.results {
            switch result.status {
            case .passed:
                guard verbose else { continue }
                lines.append("PASS  \(result.testCase.id)")
            case .skipped:
                guard verbose else { continue }
                lines.append("SKIP  \(result.testCase.id): \(result.skipReason ?? "")")
            case .failed, .error:
                lines.append("\(result.status == .failed ? "FAIL" : "ERROR") \(result.testCase.id)")
                if let failure = result.failure {
                    let message = failure.message.split(separator: "\n", omittingEmptySubsequences: false)
                    lines.append("  \(failure.location): \(message.first ?? "")")
                    lines += message.dropFirst().map { "    \($0)" }
                    if let step = failure.step { lines.append("  step:     \(step)") }
                    if let expected = failure.expected { lines.append("  expected: \(expected)") }
                    if let actual = failure.actual { lines.append("  actual:   \(actual)") }
                }
            }
            if verbose || result.status == .failed || result.status == .error {
                lines += result.notes.map { "  note: \($0)" }
            }
        }
        if !lines.isEmpty { lines.append("") }
        let errors = report.count(.error)
        lines.append(String(format: "engine %@, seed %llu, %.2f s", report.engine, report.seed, report.duration))
        if errors > 0 {
            lines.append("\(errors) \(errors == 1 ? "error" : "errors") (spec or harness problems), counted as failed")
        }
        lines.append(report.summaryLine)
        return lines.joined(separator: "\n") + "\n"
    }
}
