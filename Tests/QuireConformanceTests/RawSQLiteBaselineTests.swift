import Foundation
import QuireTestSupport
import Testing

@testable import QuireConformance

/// The workloads of `Specs/performance` at small sizes against their hand-written baselines:
/// each runs, its verdict fails below the measured ratio, and the loader refuses what the
/// runner cannot measure. (The figures themselves come from `quire conform --perf` in a
/// release build; a debug build measures with `measuresUnoptimisedBuilds`.)
@Suite(.offCooperativePool) struct RawSQLiteBaselineTests {
    /// Runs `perf` (the lines under `perf:`) as the one case of a file in Specs/performance, so
    /// that relative archive paths resolve as they do there.
    private func measure(_ perf: String, given: String = "given: {collections: [perf.docs]}") -> CaseResult {
        let yaml = """
            about: x
            \(given)
            cases:
              - name: c
                perf:
            \(perf.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))
                  rounds: 1
                  warmup: 0
            """
        var options = RunnerOptions(includePerformance: true)
        options.measuresUnoptimisedBuilds = true
        let directory = SpecsTests.specsDirectory.appendingPathComponent("performance")
        let file = ConformanceSuite.parse(yaml, path: "inline.yaml", directory: directory)
        return ConformanceRunner(engine: QuireEngine(), options: options).run(file.cases[0])
    }

    /// Passes with a huge limit, then fails with a hundredth of the ratio it measured (one
    /// round of a small workload on a loaded machine can move tenfold, not a hundredfold).
    private func expectVerdicts(_ perf: String, given: String = "given: {collections: [perf.docs]}") throws {
        let passing = measure(perf + "\nmaxRatio: 100000", given: given)
        #expect(passing.status == .passed, "\(passing.summary) \(passing.failure.map { "\($0)" } ?? "")")
        let ratio = try #require(passing.performance?.ratio)
        #expect(ratio > 0)
        let failing = measure(perf + "\nmaxRatio: \(ratio / 100)", given: given)
        #expect(failing.status == .failed, "\(failing.summary)")
        #expect(failing.failure?.message == "the workload is too slow against its baseline (measured twice)")
    }

    @Test func travelSizedDocumentsAreTheGeneratorsHotels() throws {
        let sizes = try (0..<TravelDocuments.count).map {
            try TravelDocuments.hotel($0).jsonString(sortedKeys: false).utf8.count
        }
        #expect(sizes.min()! >= 1000 && sizes.max()! <= 6500, "\(sizes.min()!)...\(sizes.max()!)")
        #expect(try TravelDocuments.hotel(TravelDocuments.count + 3) == TravelDocuments.hotel(3))
        #expect(try TravelDocuments.hotel(0)["image"] == nil && TravelDocuments.hotel(0)["name"]?.stringValue != nil)
    }

    @Test func travelSizedSavesAndReads() throws {
        try expectVerdicts(
            """
            workload: [{save: {collection: perf.docs, id: "doc-${i}", body: "${hotel}"}}]
            baseline: rawSQLiteInsertTravel
            iterations: 200
            inBatch: true
            """)
        try expectVerdicts(
            """
            prepare: [{save: {collection: perf.docs, id: "p-${i}", body: "${hotel}"}}]
            prepareIterations: 200
            workload: [{getValue: {collection: perf.docs, id: "p-${random}", key: name, as: string}}]
            baseline: rawSQLiteReadTravel
            iterations: 400
            """)
    }

    @Test func readsOnTwoThreadsAreComparedWithOne() throws {
        let perf = """
            prepare: [{save: {collection: perf.docs, id: "p-${i}", body: {name: "name ${i}"}}}]
            prepareIterations: 300
            workload: [{getValue: {collection: perf.docs, id: "p-${random}", key: name, as: string}}]
            baseline: rawSQLiteRead
            iterations: 600
            threads: [1, 2]
            maxRatio: 100000
            """
        let passing = measure(perf + "\nmaxGrowth: 1000")
        #expect(passing.status == .passed, "\(passing.summary) \(passing.failure.map { "\($0)" } ?? "")")
        let measurement = try #require(passing.performance)
        #expect(measurement.sizes.map(\.threads) == [1, 2] && measurement.sizes.map(\.iterations) == [600, 600])
        #expect(measurement.properties.contains { $0.name == "largeThreads" && $0.value == "2" })
        #expect(measurement.summary.contains("on 2 threads"))
        let growth = try #require(measurement.growth)
        let failing = measure(perf + "\nmaxGrowth: \(growth / 100)")
        #expect(failing.status == .failed)
        #expect(
            failing.failure?.message == "the workload takes longer on 2 threads than allowed against 1 (measured twice)"
        )
    }

    @Test func expiredDocumentsArePurgedOnBothSides() throws {
        try expectVerdicts(
            """
            prepare:
              - save: {collection: perf.docs, id: "p-${i}", body: {n: "${i}"}}
              - setExpiration: {collection: perf.docs, id: "p-${i}", in: 60}
            prepareIterations: 300
            workload: [{advanceClock: {seconds: 120}}]
            baseline: rawSQLitePurgeExpired
            iterations: 1
            """, given: "given: {collections: [perf.docs], clock: manual}")
    }

    @Test func aFixtureIsInstalledAndOpenedOrExtractedAndOpened() throws {
        try expectVerdicts(
            """
            workload:
              - installFixture: {archive: ../../Fixtures/archives/travel-20.quire.zip, name: "travel-${i}"}
              - open: {name: "travel-${i}"}
            baseline: rawSQLiteExtractAndOpen
            iterations: 2
            """, given: "")
    }

    @Test func threadCountsTheRunnerCannotMeasureAreSpecErrors() {
        let base = "workload: [{count: {}}]\nbaseline: nothing\niterations: 2\nmaxRatio: 1\n"
        for (extra, message) in [
            ("threads: [2, 1]", "threads must grow"),
            ("threads: 2\ninBatch: true", "inBatch and threads above 1 exclude each other"),
            ("threads: 0", nil), ("threads: [1, 2, 3]", nil), ("threads: 17", nil),
        ] {
            let result = measure(base + extra, given: "")
            #expect(result.status == .error, "\(extra)")
            if let message {
                #expect(result.failure?.message.contains(message) == true, "\(extra): \(result.failure?.message ?? "")")
            }
        }
    }
}
