import Foundation
import Testing

@testable import QuireConformance

@Suite struct CTRFReporterTests {
    private let report = SampleReport.make()

    @Test func hasTheCTRFFieldsAndCounts() throws {
        let json = try JSONText.parse(CTRFReporter().render(report))
        #expect(json["reportFormat"] == "CTRF")
        #expect(json["specVersion"]?.stringValue?.range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression) != nil)
        let results = try #require(json["results"])
        #expect(results.value(at: ["tool", "name"]) == "quire conform")
        let summary = try #require(results["summary"])
        for key in ["tests", "passed", "failed", "pending", "skipped", "other", "start", "stop"] {
            #expect(summary[key]?.intValue != nil, "summary.\(key)")
        }
        #expect(summary["tests"] == .int(report.results.count))
        #expect(summary["passed"] == .int(report.count(.passed)))
        #expect(summary["failed"] == .int(report.count(.failed) + report.count(.error)))
        #expect(summary["skipped"] == .int(report.count(.skipped)))
        #expect(summary["start"] == 1_700_000_000_000)
        #expect(summary["stop"] == 1_700_000_002_000)
        let tests = try #require(results["tests"]?.arrayValue)
        #expect(tests.count == report.results.count)
        for test in tests {
            #expect(test["name"]?.stringValue != nil)
            #expect(["passed", "failed", "skipped"].contains(test["status"]?.stringValue ?? ""))
            #expect(test["duration"]?.intValue != nil)
        }
        #expect(tests.filter { $0["rawStatus"] == "error" }.count == report.count(.error))
        let failed = try #require(tests.first { ($0["name"]?.stringValue ?? "").hasSuffix(":: expects another value") })
        #expect(failed.value(at: ["extra", "expected"]) == #"{"v":2}"#)
    }
}
