import Foundation

/// A JSON summary in the Common Test Report Format (CTRF).
///
/// Failed expectations are `failed`; spec and harness errors are `failed` too (a CI that
/// only counts failures must not pass a broken suite), told apart by `rawStatus: "error"`.
package struct CTRFReporter: ConformanceReporter {
    /// The CTRF specification version written.
    package static let specVersion = "0.1.0"

    /// Makes a CTRF reporter.
    package init() {}

    /// The JSON document.
    package func render(_ report: RunReport) -> String {
        var offset = report.start.timeIntervalSince1970
        let tests: [SpecValue] = report.results.map { result in
            let start = offset
            offset += result.duration
            return test(result, start: start)
        }
        let summary: SpecValue = [
            "tests": .int(report.results.count),
            "passed": .int(report.count(.passed)),
            "failed": .int(report.count(.failed) + report.count(.error)),
            "pending": 0,
            "skipped": .int(report.count(.skipped)),
            "other": 0,
            "start": .int(milliseconds(report.start.timeIntervalSince1970)),
            "stop": .int(milliseconds(report.stop.timeIntervalSince1970)),
        ]
        let document: SpecValue = [
            "reportFormat": "CTRF",
            "specVersion": .string(Self.specVersion),
            "reportId": .string(UUID().uuidString.lowercased()),
            "timestamp": .string(ISO8601.string(from: report.stop)),
            "generatedBy": "quire conform",
            "results": [
                "tool": ["name": "quire conform", "version": .string("\(QuireConformance.formatVersion)")],
                "summary": summary,
                "tests": .array(tests),
                "environment": ["extra": ["engine": .string(report.engine), "seed": .string(String(report.seed))]],
            ],
        ]
        return JSONText.render(document, pretty: true) + "\n"
    }

    private func test(_ result: CaseResult, start: Double) -> SpecValue {
        let testCase = result.testCase
        var test: [String: SpecValue] = [
            "name": .string(testCase.id),
            "status": .string(status(result.status)),
            "rawStatus": .string(result.status.rawValue),
            "duration": .int(milliseconds(result.duration)),
            "start": .int(milliseconds(start)),
            "stop": .int(milliseconds(start + result.duration)),
            "suite": .array([.string(testCase.file)]),
            "filePath": .string(testCase.file),
            "line": .int(testCase.location.line),
            "tags": .array(testCase.tags.map(SpecValue.string)),
            "type": "conformance",
        ]
        if !testCase.bindings.isEmpty {
            var parameters: [String: SpecValue] = [:]
            for binding in testCase.bindings { parameters[binding.name] = binding.value }
            test["parameters"] = .object(parameters)
        }
        if let failure = result.failure {
            test["message"] = .string("\(failure.location): \(failure.message)")
            test["trace"] = .string(failure.details)
            var extra: [String: SpecValue] = ["location": .string(failure.location.description)]
            if let step = failure.step { extra["step"] = .string(step) }
            if let expected = failure.expected { extra["expected"] = .string(expected) }
            if let actual = failure.actual { extra["actual"] = .string(actual) }
            test["extra"] = .object(extra)
        } else if let reason = result.skipReason {
            test["message"] = .string(reason)
        }
        if let performance = result.performance {
            var figures: [String: SpecValue] = [:]
            for property in performance.properties {
                figures[property.name] = Double(property.value).map(SpecValue.double) ?? .string(property.value)
            }
            var extra = test["extra"]?.objectValue ?? [:]
            extra["performance"] = .object(figures)
            test["extra"] = .object(extra)
        }
        if !result.notes.isEmpty { test["stdout"] = .array(result.notes.map(SpecValue.string)) }
        return .object(test)
    }

    private func status(_ status: CaseStatus) -> String {
        switch status {
        case .passed: return "passed"
        case .failed, .error: return "failed"
        case .skipped: return "skipped"
        }
    }

    private func milliseconds(_ seconds: Double) -> Int {
        Int((seconds * 1000).rounded())
    }
}
