/// TAP version 14: one plan, one test point per case, YAML diagnostics for failures and
/// errors, `# SKIP` for skipped cases.
package struct TAPReporter: ConformanceReporter {
    /// Makes a TAP reporter.
    package init() {}

    /// The TAP stream.
    package func render(_ report: RunReport) -> String {
        var lines = ["TAP version 14", "1..\(report.results.count)"]
        for (offset, result) in report.results.enumerated() {
            let number = offset + 1
            let description = escape(result.testCase.id)
            switch result.status {
            case .passed:
                lines.append("ok \(number) - \(description)")
            case .skipped:
                lines.append("ok \(number) - \(description) # SKIP \(escape(result.skipReason ?? ""))")
            case .failed, .error:
                lines.append("not ok \(number) - \(description)")
                lines.append("  ---")
                if let failure = result.failure {
                    lines.append("  message: \(JSONText.quote(failure.message))")
                    lines.append("  severity: \(result.status == .failed ? "fail" : "error")")
                    lines.append("  at: \(JSONText.quote(failure.location.description))")
                    if let step = failure.step { lines.append("  step: \(JSONText.quote(step))") }
                    if let expected = failure.expected { lines.append("  expected: \(JSONText.quote(expected))") }
                    if let actual = failure.actual { lines.append("  actual: \(JSONText.quote(actual))") }
                } else {
                    lines.append("  severity: \(result.status == .failed ? "fail" : "error")")
                }
                if !result.notes.isEmpty {
                    lines.append("  notes:")
                    lines += result.notes.map { "    - \(JSONText.quote($0))" }
                }
                lines.append("  ...")
            }
        }
        lines.append("# \(report.summaryLine)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A description may not contain `#` (it starts a directive) or a line break.
    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "#", with: "\\#")
            .replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\r", with: " ")
    }
}
