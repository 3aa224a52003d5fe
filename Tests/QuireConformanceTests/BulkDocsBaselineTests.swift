import Foundation
import Testing

@testable import QuireConformance

/// The replication case of `Specs/performance` at a small size against `bulkDocsPush`, and the
/// live query case against `rawSQLiteLiveQuery`: each runs, and its verdict fails below the
/// measured ratio.
@Suite struct BulkDocsBaselineTests {
    /// Runs `steps` then `perf` as the one case of a file in Specs/performance.
    private func measure(steps: String, _ perf: String, given: String) -> CaseResult {
        func indented(_ text: String, _ by: Int) -> String {
            text.split(separator: "\n").map { String(repeating: " ", count: by) + $0 }.joined(separator: "\n")
        }
        let yaml = """
            about: x
            \(given)
            cases:
              - name: c
                steps:
            \(indented(steps, 6))
                perf:
            \(indented(perf, 6))
                  rounds: 1
                  warmup: 0
            """
        var options = RunnerOptions(includePerformance: true)
        options.measuresUnoptimisedBuilds = true
        let directory = SpecsTests.specsDirectory.appendingPathComponent("performance")
        let file = ConformanceSuite.parse(yaml, path: "inline.yaml", directory: directory)
        return ConformanceRunner(engine: QuireEngine(), options: options).run(file.cases[0])
    }

    /// Passes with a huge limit, then fails with a hundredth of the ratio it measured.
    private func expectVerdicts(steps: String, _ perf: String, given: String) throws {
        let passing = measure(steps: steps, perf + "\nmaxRatio: 100000", given: given)
        #expect(passing.status == .passed, "\(passing.summary) \(passing.failure.map { "\($0)" } ?? "")")
        let ratio = try #require(passing.performance?.ratio)
        #expect(ratio > 0)
        let failing = measure(steps: steps, perf + "\nmaxRatio: \(ratio / 100)", given: given)
        #expect(failing.status == .failed, "\(failing.summary)")
        #expect(failing.failure?.message == "the workload is too slow against its baseline")
    }

    @Test func aPushIsComparedWithOneBulkDocsRequest() throws {
        try expectVerdicts(
            steps: """
                - serve: {database: server}
                  as: server
                - open: {name: db}
                """,
            """
            prepare: [{save: {id: "p-${i}", body: {n: "${i}", name: "name ${i}"}}}]
            prepareIterations: 50
            workload: [{replicate: {url: "${server.url}", type: push}}]
            baseline: bulkDocsPush
            iterations: 1
            """, given: "")
    }

    @Test func aFailedPushFailsTheWorkloadInsteadOfLookingFast() {
        let result = measure(
            steps: "- open: {name: db}",
            """
            prepare: [{save: {id: "p-${i}", body: {n: "${i}"}}}]
            prepareIterations: 5
            workload: [{replicate: {url: "http://127.0.0.1:9/nothing", type: push}}]
            baseline: bulkDocsPush
            iterations: 1
            maxRatio: 100000
            """, given: "")
        #expect(result.status == .failed, "\(result.summary)")
        #expect(result.failure?.message == "the workload failed")
    }

    @Test func aLiveQueryUpdateIsComparedWithAnInsertAndTheQueryAgain() throws {
        try expectVerdicts(
            steps:
                #"- addChangeListener: {name: live, query: "SELECT meta().id AS id, name FROM perf.docs WHERE bucket = 50"}"#,
            """
            prepare: [{save: {collection: perf.docs, id: "p-${i}", body: {name: "name ${i}", bucket: "${bucket}"}}}]
            prepareIterations: 200
            workload:
              - save: {collection: perf.docs, id: "doc-${i}", body: {name: "live ${i}", bucket: 50}}
              - waitForChange: {name: live}
            baseline: rawSQLiteLiveQuery
            iterations: 3
            """, given: "given: {collections: [perf.docs]}")
    }
}
