import Foundation
import Testing

@testable import QuireConformance

@Suite struct ConformanceDriverTests {
    @Test func exitsZeroWhenEverythingPasses() {
        let run = TestResources.drive(ConformanceOptions(paths: [TestResources.path("passing")], jobs: 2))
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.hasSuffix(" passed, 0 failed, 2 skipped\n"))
    }

    @Test func exitsOneOnFailures() {
        let run = TestResources.drive(ConformanceOptions(paths: [TestResources.path("failing")], jobs: 2))
        #expect(run.status == 1)
        #expect(run.output.hasSuffix("1 passed, 4 failed, 0 skipped\n"))
        #expect(run.output.contains("deliberate-failure.yaml:10:9: createCollection succeeded but should have failed"))
    }

    @Test func exitsTwoOnSpecErrorsAndStillRunsTheRest() {
        let run = TestResources.drive(
            ConformanceOptions(
                paths: [TestResources.path("failing"), TestResources.path("malformed/misspelled-step.yaml")], jobs: 2))
        #expect(run.status == 2)
        #expect(
            run.output.contains(
                "misspelled-step.yaml:5:9: spec error: unknown step 'crateCollection'; did you mean 'createCollection'?"
            ))
        #expect(
            run.output.contains(
                "1 error (spec or harness problems), counted as failed\n1 passed, 5 failed, 0 skipped\n"))
    }

    @Test func exitsTwoWithoutAnEngine() {
        var errors = ""
        let status = ConformanceDriver.run(
            ConformanceOptions(paths: [TestResources.path("passing")], engine: "no-such-engine"),
            output: { _ in }, errorOutput: { errors += $0 })
        #expect(status == 2)
        #expect(errors.hasPrefix("quire conform: no conformance engine named 'no-such-engine'"))
    }

    @Test func writesEveryReportFormat() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let junit = directory.appendingPathComponent("junit.xml").path
        let tap = directory.appendingPathComponent("report.tap").path
        let json = directory.appendingPathComponent("ctrf.json").path
        let run = TestResources.drive(
            ConformanceOptions(
                paths: [TestResources.path("failing")], junitPath: junit, tapPath: tap, jsonPath: json))
        #expect(run.status == 1)
        #expect(try String(contentsOfFile: junit, encoding: .utf8).hasPrefix("<?xml"))
        #expect(try String(contentsOfFile: tap, encoding: .utf8).hasPrefix("TAP version 14\n1..5\n"))
        #expect(try JSONText.parse(String(contentsOfFile: json, encoding: .utf8))["reportFormat"] == "CTRF")
        let unwritable = TestResources.drive(
            ConformanceOptions(
                paths: [TestResources.path("passing/batch.yaml")], junitPath: "/no/such/dir/junit.xml"))
        #expect(unwritable.status == 2)
        #expect(unwritable.errors.hasPrefix("quire conform: cannot write /no/such/dir/junit.xml"))
    }

    @Test func tapCanReplaceTheTextReport() {
        let run = TestResources.drive(
            ConformanceOptions(paths: [TestResources.path("passing/batch.yaml")], tapToStandardOutput: true))
        #expect(run.output.hasPrefix("TAP version 14\n1..3\nok 1 - "))
        #expect(run.errors == "3 passed, 0 failed, 0 skipped\n")
    }

    @Test func perfRunsPerformanceCasesAndReportsTheMeasurement() {
        let path = TestResources.path("passing/performance.yaml")
        let skipped = TestResources.drive(ConformanceOptions(paths: [path]))
        #expect(skipped.output.hasSuffix("0 passed, 0 failed, 1 skipped\n"))
        var options = ConformanceOptions(paths: [path], includePerformance: true, verbose: true)
        options.measuresUnoptimisedBuilds = true
        let measured = TestResources.drive(options)
        #expect(measured.status == 0)
        #expect(measured.output.contains("  note: workload "))
        #expect(measured.output.contains("baseline memoryInsert"))
        #expect(measured.output.hasSuffix("1 passed, 0 failed, 0 skipped\n"))
    }

    @Test func listsSelectedCasesWithoutRunning() throws {
        let run = TestResources.drive(
            ConformanceOptions(
                paths: [TestResources.path("passing")],
                selection: CaseSelection(filters: [try CaseFilter(parsing: "tag:batch")]),
                listOnly: true))
        #expect(run.status == 0)
        #expect(run.output.hasSuffix("batch.yaml :: throwAfter stops part way\n3 cases\n"))
    }
}
