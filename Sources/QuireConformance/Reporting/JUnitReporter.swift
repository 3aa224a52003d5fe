import Foundation

/// JUnit XML: one `testsuite` per spec file, one `testcase` per expanded case, `failure` for
/// a broken expectation, `error` for a spec or harness problem, `skipped`, and `system-out`
/// for notes such as performance measurements. A performance case's figures are also the
/// test case's `<properties>` (workload and baseline in milliseconds, ratio, limit, rounds...).
package struct JUnitReporter: ConformanceReporter {
    /// Makes a JUnit reporter.
    package init() {}

    /// The XML document.
    package func render(_ report: RunReport) -> String {
        let timestamp = ISO8601.string(from: report.start)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"quire conform\" \(counts(report.results)) time=\"\(seconds(report.duration))\" timestamp=\"\(timestamp)\">\n"
        for (path, results) in report.files {
            let time = results.reduce(0) { $0 + $1.duration }
            xml +=
                "  <testsuite name=\"\(escape(path))\" \(counts(results)) time=\"\(seconds(time))\" timestamp=\"\(timestamp)\" file=\"\(escape(path))\">\n"
            xml += "    <properties>\n"
            xml += "      <property name=\"engine\" value=\"\(escape(report.engine))\"/>\n"
            xml += "      <property name=\"seed\" value=\"\(report.seed)\"/>\n"
            for (name, value) in report.properties.sorted(by: { $0.key < $1.key }) {
                xml += "      <property name=\"\(escape(name))\" value=\"\(escape(value))\"/>\n"
            }
            xml += "    </properties>\n"
            for result in results { xml += testcase(result) }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    private func testcase(_ result: CaseResult) -> String {
        let testCase = result.testCase
        var attributes =
            "classname=\"\(escape(className(testCase.file)))\" name=\"\(escape(testCase.name))\" time=\"\(seconds(result.duration))\""
        attributes += " file=\"\(escape(testCase.file))\" line=\"\(testCase.location.line)\""
        var body = ""
        if let performance = result.performance {
            // Per-case properties, which CI systems chart over time (Jenkins, GitLab).
            body += "      <properties>\n"
            for property in performance.properties {
                body += "        <property name=\"\(escape(property.name))\" value=\"\(escape(property.value))\"/>\n"
            }
            body += "      </properties>\n"
        }
        switch result.status {
        case .passed: break
        case .skipped:
            body += "      <skipped message=\"\(escape(result.skipReason ?? ""))\"/>\n"
        case .failed, .error:
            let element = result.status == .failed ? "failure" : "error"
            let kind = result.status == .failed ? "expectation" : "spec or harness"
            let message =
                result.failure.map { "\($0.location): \($0.message.split(separator: "\n").first ?? "")" } ?? element
            let details = result.failure.map { "\($0.location): \($0.details)" } ?? ""
            body +=
                "      <\(element) message=\"\(escape(message))\" type=\"\(kind)\">\(escape(details))</\(element)>\n"
        }
        if !result.notes.isEmpty {
            body += "      <system-out>\(escape(result.notes.joined(separator: "\n")))</system-out>\n"
        }
        return body.isEmpty
            ? "    <testcase \(attributes)/>\n" : "    <testcase \(attributes)>\n\(body)    </testcase>\n"
    }

    private func counts(_ results: [CaseResult]) -> String {
        func count(_ status: CaseStatus) -> Int { results.filter { $0.status == status }.count }
        return
            "tests=\"\(results.count)\" failures=\"\(count(.failed))\" errors=\"\(count(.error))\" skipped=\"\(count(.skipped))\""
    }

    /// `Specs/naming/collections.yaml` -> `Specs.naming.collections`; an absolute path or one
    /// with `.` or `..` components gives no empty or dotted segments
    /// (`/tmp/x/a.yaml` -> `tmp.x.a`).
    func className(_ path: String) -> String {
        var name = path
        for suffix in [".yaml", ".yml"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        let segments = name.split(separator: "/").filter { $0 != "." && $0 != ".." }
        return segments.joined(separator: ".")
    }

    private func seconds(_ value: Double) -> String {
        String(format: "%.3f", value)
    }

    /// Escapes markup and replaces characters XML 1.0 cannot hold with a visible `\u{..}`.
    private func escape(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\t", "\n", "\r": output.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                output += "\\u{\(String(scalar.value, radix: 16))}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
