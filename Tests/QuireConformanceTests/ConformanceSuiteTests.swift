import Foundation
import Testing

@testable import QuireConformance

@Suite struct ConformanceSuiteTests {
    private let specs = TestResources.packageRoot.appendingPathComponent("Specs").path

    @Test func theProjectSpecsAreValid() {
        let suite = ConformanceSuite.load(paths: [specs])
        #expect(suite.files.count >= 5)
        for testCase in suite.cases {
            #expect(testCase.specErrors.isEmpty, "\(testCase.specErrors)")
        }
        #expect(Set(suite.cases.map(\.id)).count == suite.cases.count)
    }

    @Test func listingIsDeterministic() {
        let first = ConformanceSuite.load(paths: [specs]).cases.map(\.id)
        let second = ConformanceSuite.load(paths: [specs + "/"]).cases.map(\.id)
        #expect(first == second)
        #expect(first.first?.hasPrefix(specs + "/batches/") == true)
    }

    @Test func parsedCasesKnowTheirFileAndVectors() throws {
        let suite = ConformanceSuite.load(paths: [specs + "/naming/collection-names.yaml"])
        let row = try #require(suite.cases.first { $0.name == "invalid collection name is rejected [name=x×252]" })
        #expect(row.baseName == "invalid collection name is rejected")
        #expect(row.bindings.first?.value.stringValue?.count == 252)
        #expect(row.tags == ["collections", "naming"])
        #expect(!row.isPerformance)
        let performance = ConformanceSuite.load(paths: [specs + "/performance"]).cases
        #expect(performance.allSatisfy { $0.isPerformance })
    }
}
