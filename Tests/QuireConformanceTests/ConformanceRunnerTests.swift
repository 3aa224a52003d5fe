import Foundation
import Testing

@testable import QuireConformance

@Suite struct ConformanceRunnerTests {
    private let runner = ConformanceRunner(engine: MemoryEngine())

    private func run(_ yaml: String, options: RunnerOptions = RunnerOptions()) -> CaseResult {
        let file = ConformanceSuite.parse(yaml, path: "inline.yaml", directory: TestResources.root)
        return ConformanceRunner(engine: MemoryEngine(), options: options).run(file.cases[0])
    }

    /// The API a parameterized test uses: every expanded case of a directory, one at a time.
    @Test(arguments: ConformanceSuite.load(paths: [TestResources.path("passing")]).cases)
    func passingFixture(_ testCase: ConformanceCase) {
        let result = runner.run(testCase)
        #expect(result.status == .passed || result.status == .skipped, "\(result.summary)")
    }

    @Test func passingFixturesPassAndSkipWhatTheyShould() {
        let report = TestResources.run([TestResources.path("passing")])
        #expect(report.count(.failed) == 0 && report.count(.error) == 0, "\(TextReporter().render(report))")
        #expect(
            report.results.filter { $0.status == .skipped }.map(\.testCase.baseName).sorted()
                == ["a case can be skipped", "saving documents keeps up with plain inserts"])
        #expect(report.count(.passed) > 40)
        #expect(report.exitCode == 0)
    }

    @Test func deliberateFailuresSayWhatWasExpectedAndWhatHappened() throws {
        let report = TestResources.run([TestResources.path("failing")])
        let byName = Dictionary(uniqueKeysWithValues: report.results.map { ($0.testCase.name, $0) })
        #expect(byName["passes"]?.status == .passed)

        let noError = try #require(byName["expects an error that does not come"]?.failure)
        #expect(noError.message == "createCollection succeeded but should have failed")
        #expect(noError.location.line == 10 && noError.location.column == 9)
        #expect(noError.step == #"createCollection {"name":"valid","scope":"s"}"#)
        #expect(noError.expected == "error invalidParameter")
        #expect(noError.actual == #"success, returned {"fullName":"s.valid","name":"valid","scope":"s"}"#)

        let value = try #require(byName["expects another value"]?.failure)
        #expect(value.message == "get returned another value (at v: expected 2, found 1)")
        #expect(value.expected == #"{"v":2}"#)
        #expect(value.actual == #"{"v":1}"#)

        let thrown = try #require(byName["a step fails unexpectedly"]?.failure)
        #expect(thrown.message == "createCollection failed")
        #expect(thrown.expected == "success")
        #expect(thrown.actual == #"error Quire.invalidParameter: invalid name "_bad""#)

        let state = try #require(byName["document was not deleted"]?.failure)
        #expect(state.message.hasPrefix("document 'd' in _default._default was not deleted: it is live (revision 1-"))
        #expect(state.expected == "deleted (a tombstone)")

        #expect(report.count(.failed) == 4)
        #expect(report.exitCode == 1)
    }

    @Test func resultsComeBackInOrderWhateverTheJobs() {
        let paths = [TestResources.path("passing"), TestResources.path("failing"), TestResources.path("malformed")]
        let serial = TestResources.run(paths, jobs: 1)
        let parallel = TestResources.run(paths, jobs: 4)
        #expect(serial.results.map(\.testCase.id) == parallel.results.map(\.testCase.id))
        #expect(serial.results.map(\.status) == parallel.results.map(\.status))
        #expect(serial.exitCode == 2)
    }

    @Test func everyCaseGetsItsOwnDirectoryRemovedAfterwards() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("runner-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let yaml = "about: x\ncases:\n  - name: dir\n    steps:\n      - inspect: \"${directory}\"\n        as: d\n"
        let kept = run(yaml, options: RunnerOptions(keepDirectories: true, workDirectory: work))
        let keptAgain = run(yaml, options: RunnerOptions(keepDirectories: true, workDirectory: work))
        #expect(kept.status == .passed)
        let directories = try FileManager.default.contentsOfDirectory(atPath: work.path)
        #expect(directories.count == 2)
        #expect(kept.notes.first != keptAgain.notes.first)
        _ = run(yaml, options: RunnerOptions(workDirectory: work))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).count == 2)
    }

    @Test func performanceCasesRunOnlyWhenAsked() {
        let yaml = """
            about: x
            cases:
              - name: perf
                perf:
                  workload: [{save: {id: "d${i}", body: {}}}]
                  baseline: nothing
                  iterations: 50
                  maxRatio: 1
            """
        #expect(run(yaml).status == .skipped)
        #if DEBUG
            let refused = run(yaml, options: RunnerOptions(includePerformance: true))
            #expect(refused.status == .skipped)
            #expect(refused.skipReason == ConformanceRunner.debugBuildSkipReason)
        #endif
        var options = RunnerOptions(includePerformance: true)
        options.measuresUnoptimisedBuilds = true
        let measured = run(yaml, options: options)
        #expect(measured.status == .failed)
        #expect(measured.failure?.message == "the workload is too slow against its baseline (measured twice)")
        #expect(measured.notes.first?.contains("baseline nothing") == true)
        let unknown = run(yaml.replacingOccurrences(of: "nothing", with: "rawSQLiteInsert"), options: options)
        #expect(unknown.status == .error)
        #expect(
            unknown.failure?.actual
                == "error Conformance.unsupported: the engine does not support the baseline 'rawSQLiteInsert'")
    }

    /// A performance case against the Quire engine and a SQLite baseline, limit `limit`.
    private func measureQuire(limit: String, extra: String = "") -> CaseResult {
        let yaml = """
            about: x
            cases:
              - name: saves
                perf:
                  workload: [{save: {id: "doc-${i}", body: {n: "${i}", name: "name ${i}", bucket: "${bucket}", tags: [a, b]}}}]
                  baseline: rawSQLiteInsert
                  inBatch: true
                  rounds: 3
                  warmup: 1
                  maxRatio: \(limit)
            \(extra)
            """
        var options = RunnerOptions(includePerformance: true)
        options.measuresUnoptimisedBuilds = true
        let file = ConformanceSuite.parse(yaml, path: "inline.yaml", directory: TestResources.root)
        return ConformanceRunner(engine: QuireEngine(), options: options).run(file.cases[0])
    }

    @Test func aVerdictFailsWhenItsLimitIsBelowTheMeasuredRatio() throws {
        let passing = measureQuire(limit: "100000", extra: "      iterations: 300")
        #expect(passing.status == .passed, "\(passing.summary)")
        let measurement = try #require(passing.performance)
        #expect(measurement.rounds == 3 && measurement.warmup == 1 && measurement.sizes.count == 1)
        #expect(measurement.ratio > 0 && measurement.sizes[0].workload > 0 && measurement.sizes[0].baseline > 0)
        // A limit no save can meet: a thousandth of the time of a plain insert. (A tenth of the
        // measured ratio was met once on a machine busy with another build.)
        let failing = measureQuire(limit: "0.001", extra: "      iterations: 300")
        #expect(failing.status == .failed)
        #expect(failing.failure?.message == "the workload is too slow against its baseline (measured twice)")
        #expect(failing.failure?.expected?.hasPrefix("ratio <= ") == true)
        // Over its limit, a case is measured once more before it fails; both figures are noted.
        #expect(failing.notes.count >= 2 && failing.notes[0].hasPrefix("over its limit at first (workload "))
        #expect(failing.notes[0].hasSuffix("); measured again") && failing.notes[1].hasPrefix("workload "))
        #expect(passing.notes.first?.hasPrefix("workload ") == true)
        #expect(failing.performance.map { $0.ratio > $0.maxRatio } == true)

        let report = RunReport(engine: "quire", seed: 0, start: Date(), stop: Date(), results: [passing, failing])
        let junit = JUnitReporter().render(report)
        for name in ["workload", "baseline", "ratio", "limit", "rounds"] {
            #expect(
                junit.components(separatedBy: "<property name=\"\(name)\" value=").count == 3, "\(name) in \(junit)")
        }
        #expect(junit.contains("<property name=\"rounds\" value=\"3\"/>"))
        let ctrf = try #require(
            JSONSerialization.jsonObject(with: Data(CTRFReporter().render(report).utf8)) as? [String: Any])
        let tests = try #require((ctrf["results"] as? [String: Any])?["tests"] as? [[String: Any]])
        let figures = try #require((tests[1]["extra"] as? [String: Any])?["performance"] as? [String: Any])
        #expect(figures["ratio"] as? Double == (failing.performance?.ratio).map { (($0 * 1000).rounded()) / 1000 })
        #expect(figures["limit"] is Double && figures["workload"] is Double && figures["rounds"] as? Double == 3)
        #expect((tests[1]["extra"] as? [String: Any])?["expected"] != nil, "failure details stay beside the figures")
    }

    @Test func aScalingCaseFailsWhenTheCostGrowsFasterThanAllowed() throws {
        let passing = measureQuire(limit: "100000", extra: "      sizes: [100, 400]\n      maxGrowth: 1000")
        #expect(passing.status == .passed, "\(passing.summary)")
        let measurement = try #require(passing.performance)
        #expect(measurement.sizes.map(\.iterations) == [100, 400])
        let growth = try #require(measurement.growth)
        #expect(growth > 0)
        // A growth no save can stay under: the cost of an iteration at 400 a hundredth of its
        // cost at 100. (A tenth of the measured growth was met once in a CI run, where the
        // passing measurement's larger size had been slowed by the tests around it.)
        let failing = measureQuire(limit: "100000", extra: "      sizes: [100, 400]\n      maxGrowth: 0.01")
        #expect(failing.status == .failed)
        #expect(failing.failure?.message == "the workload's cost grows faster than its size (measured twice)")
        let broken = measureQuire(limit: "1", extra: "      iterations: 10\n      maxGrowth: 1.2")
        #expect(broken.status == .error)
        #expect(broken.failure?.message.contains("sizes") == true, "\(broken.summary)")
    }

    @Test func unsupportedStepsAreErrorsNotFailures() {
        let result = run("about: x\ncases:\n  - name: q\n    steps:\n      - query: {sql: SELECT 1}\n")
        #expect(result.status == .error)
        #expect(result.failure?.actual == "error Conformance.unsupported: the engine does not support the step 'query'")
    }

    @Test func newStepsAreUnsupportedByTheMemoryEngine() {
        for step in [
            "getValue: {id: d, key: k, as: int}", "explain: {sql: SELECT 1}", "addChangeListener: {name: l}",
            "changes: {name: l}", "generateBlob: {size: 1, seed: 1}", "readBlob: {blob: {}}", "damageBlob: {digest: x}",
        ] {
            let result = run("about: x\ncases:\n  - name: s\n    steps:\n      - \(step)\n")
            #expect(result.status == .error, "\(step)")
            #expect(
                result.failure?.actual?.hasPrefix("error Conformance.unsupported: the engine does not support the step")
                    == true)
        }
    }

    @Test func textExpectationsSearchTheResultWithRegularExpressions() {
        let passing = run(
            """
            about: x
            cases:
              - name: t
                steps:
                  - inspect: "SEARCH s0 USING INDEX docs_2_vi_byCity_3d5d (<expr>=?)"
                    expect: {textMatches: ["SEARCH .* USING INDEX \\\\S*byCity", "^SEARCH"], textLacks: "SCAN"}
            """)
        #expect(passing.status == .passed)
        let present = run(
            """
            about: x
            cases:
              - name: t
                steps:
                  - inspect: "SCAN s0"
                    expect: {textLacks: SCAN}
            """)
        #expect(present.status == .failed)
        #expect(present.failure?.message == "inspect returned text with a match of /SCAN/")
        let absent = run(
            "about: x\ncases:\n  - name: t\n    steps:\n      - inspect: SCAN s0\n        expect: {textMatches: SEARCH}\n"
        )
        #expect(absent.status == .failed)
        #expect(absent.failure?.expected == "text matching /SEARCH/")
        let notText = run(
            "about: x\ncases:\n  - name: t\n    steps:\n      - inspect: 3\n        expect: {textMatches: SEARCH}\n")
        #expect(notText.status == .failed)
        #expect(notText.failure?.message == "inspect returned no text to search")
        let badPattern = run(
            "about: x\ncases:\n  - name: t\n    steps:\n      - inspect: a\n        expect: {textMatches: \"(\"}\n")
        #expect(badPattern.status == .error)
    }

    @Test func argumentsThatBreakAfterSubstitutionAreSpecErrors() {
        let result = run(
            "about: x\ncases:\n  - name: t\n    steps:\n      - set: {n: soon}\n      - advanceClock: {seconds: \"${n}\"}\n"
        )
        #expect(result.status == .error)
        #expect(result.failure?.message == "spec error: advanceClock: 'seconds' must be a number, not string \"soon\"")
        #expect(result.failure?.location.line == 6)
    }

    @Test func aFailureInsideABatchStopsTheCaseAndRollsBack() {
        let result = run(
            """
            about: x
            cases:
              - name: b
                steps:
                  - batch:
                      steps:
                        - save: {id: a, body: {}}
                        - get: {id: a}
                          expect: {value: {wrong: true}}
            """)
        #expect(result.status == .failed)
        #expect(result.failure?.location.line == 8)
    }

    @Test func documentChecksNeedADocument() {
        let result = run(
            "about: x\ncases:\n  - name: n\n    steps:\n      - scopes:\n        expect: {deleted: true}\n")
        #expect(result.status == .error)
        #expect(result.failure?.message.hasPrefix("spec error: scopes is not about one document") == true)
    }

    @Test func invalidStandInsReportEveryError() {
        let result = runner.run(
            ConformanceSuite.load(paths: [TestResources.path("malformed/wrong-types.yaml")]).cases[0])
        #expect(result.status == .error)
        #expect(result.failure?.message.hasPrefix("4 spec errors:\n") == true)
    }
}
