import Foundation
import Testing
import Yams

@testable import QuireConformance

@Suite struct TAPReporterTests {
    private let report = SampleReport.make()

    @Test func oneVersionLineOnePlanAndOnePointPerCase() throws {
        let lines = TAPReporter().render(report).split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        #expect(lines.first == "TAP version 14")
        let plans = lines.filter { $0.range(of: #"^1\.\.\d+$"#, options: .regularExpression) != nil }
        #expect(plans == ["1..\(report.results.count)"])
        let points = lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
        #expect(points.count == report.results.count)
        for (index, point) in points.enumerated() {
            #expect(point.hasPrefix("ok \(index + 1) - ") || point.hasPrefix("not ok \(index + 1) - "))
        }
        #expect(points.filter { $0.hasPrefix("not ok") }.count == report.count(.failed) + report.count(.error))
        #expect(points.filter { $0.contains(" # SKIP ") }.count == report.count(.skipped))
        #expect(points.contains { $0.hasSuffix("escapes <&> \"quotes\" 'apostrophes' \\# hash \u{1} control") })
    }

    @Test func diagnosticsAreValidYAMLBlocks() throws {
        let lines = TAPReporter().render(report).split(separator: "\n").map(String.init)
        var blocks: [[String]] = []
        var current: [String]?
        for line in lines {
            if line == "  ---" {
                current = []
            } else if line == "  ...", let block = current {
                blocks.append(block)
                current = nil
            } else if current != nil {
                current?.append(line)
            }
        }
        #expect(current == nil)
        #expect(blocks.count == report.count(.failed) + report.count(.error))
        for block in blocks {
            let yaml = block.map { String($0.dropFirst(2)) }.joined(separator: "\n")
            let parsed = try #require(try Yams.load(yaml: yaml) as? [String: Any])
            #expect(parsed["severity"] as? String == "fail" || parsed["severity"] as? String == "error")
            #expect((parsed["at"] as? String)?.contains(".yaml:") == true)
        }
    }
}
