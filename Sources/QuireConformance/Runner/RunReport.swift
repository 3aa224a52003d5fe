import Foundation

/// Everything a run found, in the run's deterministic order, for the reporters.
public struct RunReport: Sendable {
    /// The engine's name.
    package var engine: String
    /// The seed the run used.
    package var seed: UInt64
    /// When the run started.
    package var start: Date
    /// When the run ended.
    package var stop: Date
    /// The results, files in path order and cases in file order.
    public var results: [CaseResult]
    /// What the engine says of itself for reports (a test server's name, version, platform).
    package var properties: [String: String] = [:]

    /// Makes a report.
    package init(engine: String, seed: UInt64, start: Date, stop: Date, results: [CaseResult]) {
        self.engine = engine
        self.seed = seed
        self.start = start
        self.stop = stop
        self.results = results
    }

    /// The results grouped by file, in order.
    package var files: [(path: String, results: [CaseResult])] {
        var groups: [(path: String, results: [CaseResult])] = []
        for result in results {
            if groups.last?.path == result.testCase.file {
                groups[groups.count - 1].results.append(result)
            } else {
                groups.append((result.testCase.file, [result]))
            }
        }
        return groups
    }

    /// How many results have `status`.
    public func count(_ status: CaseStatus) -> Int {
        results.reduce(0) { $0 + ($1.status == status ? 1 : 0) }
    }

    /// 2 when a spec or the harness broke, 1 when an expectation failed, 0 otherwise.
    package var exitCode: Int32 {
        if count(.error) > 0 { return 2 }
        if count(.failed) > 0 { return 1 }
        return 0
    }

    /// `N passed, N failed, N skipped`, errors counted as failed: the closing line CI reads.
    package var summaryLine: String {
        "\(count(.passed)) passed, \(count(.failed) + count(.error)) failed, \(count(.skipped)) skipped"
    }

    /// The run's wall-clock time in seconds.
    package var duration: Double { stop.timeIntervalSince(start) }
}
