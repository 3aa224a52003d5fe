import Foundation
import Testing

@testable import QuireConformance

@Suite struct TextReporterTests {
    private let report = SampleReport.make()

    @Test func failuresShowLocationStepExpectedAndActual() {
        let text = TextReporter().render(report)
        let lines = text.split(separator: "\n").map(String.init)
        let failure = lines.firstIndex { $0.hasPrefix("FAIL ") && $0.hasSuffix(":: expects another value") }
        #expect(failure != nil)
        if let failure {
            #expect(
                lines[failure + 1].hasSuffix(
                    "deliberate-failure.yaml:16:9: get returned another value (at v: expected 2, found 1)"))
            #expect(lines[failure + 2] == #"  step:     get {"id":"d"}"#)
            #expect(lines[failure + 3] == #"  expected: {"v":2}"#)
            #expect(lines[failure + 4] == #"  actual:   {"v":1}"#)
        }
        #expect(lines.contains { $0.hasPrefix("ERROR ") && $0.hasSuffix("misspelled-step.yaml :: (spec file)") })
        #expect(!lines.contains { $0.hasPrefix("PASS ") })
    }

    @Test func closesWithTheCountsAloneOnALine() throws {
        let last = try #require(TextReporter().render(report).split(separator: "\n").last)
        #expect(
            String(last)
                == "\(report.count(.passed)) passed, \(report.count(.failed) + report.count(.error)) failed, \(report.count(.skipped)) skipped"
        )
    }

    @Test func verboseListsEveryCase() {
        let lines = TextReporter(verbose: true).render(report).split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("PASS ") }.count == report.count(.passed))
        #expect(lines.filter { $0.hasPrefix("SKIP ") }.count == report.count(.skipped))
    }
}
