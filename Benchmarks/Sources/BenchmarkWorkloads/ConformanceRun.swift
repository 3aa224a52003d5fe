import Foundation
import QuireConformance

/// The whole conformance suite, loaded from `Specs/` and run with the default engine, as
/// many cases at a time as there are cores: what `quire conform Specs` does, minus printing
/// the report.
final class ConformanceRun: WorkloadRun {
    /// The root package's `Specs/` folder, found from this file's place in the checkout.
    static let specs: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Specs", isDirectory: true)

    private let folder: URL
    private var lastCounters: [String: Int] = [:]

    init() throws {
        guard FileManager.default.fileExists(atPath: Self.specs.path) else {
            throw WorkloadFailure("no spec folder at \(Self.specs.path)")
        }
        folder = try Scratch.directory(named: "conform")
    }

    func measured() throws -> Int {
        let suite = ConformanceSuite.load(paths: [Self.specs.path])
        let runner = try ConformanceRunner(
            options: RunnerOptions(jobs: ProcessInfo.processInfo.activeProcessorCount, workDirectory: folder))
        let report = runner.run(suite)
        let ran = report.results.count - report.count(.skipped)
        lastCounters = ["cases": ran, "failedCases": report.count(.failed) + report.count(.error)]
        return ran
    }

    var counters: [String: Int] { lastCounters }

    func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }
}
