import Foundation

@testable import QuireConformance

/// A run with every status in it: passes, failures, errors (a broken file), skips, and a case
/// whose name holds characters every format must escape.
enum SampleReport {
    static let awkwardName = "escapes <&> \"quotes\" 'apostrophes' # hash \u{1} control"

    static func make() -> RunReport {
        let paths = [
            TestResources.path("failing"), TestResources.path("malformed/misspelled-step.yaml"),
            TestResources.path("passing/lifecycle.yaml"), TestResources.path("passing/performance.yaml"),
        ]
        let suite = ConformanceSuite.load(paths: paths)
        let awkward = ConformanceSuite.parse(
            """
            about: x
            cases:
              - name: "\(awkwardName.replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\u{1}", with: "\\x01"))"
                steps:
                  - inspect: 1
                    expect: {value: 2}
            """, path: "awkward.yaml")
        let runner = ConformanceRunner(engine: MemoryEngine(), options: RunnerOptions(jobs: 2))
        let results = runner.run(suite.cases + awkward.cases)
        return RunReport(
            engine: "memory", seed: 7, start: Date(timeIntervalSince1970: 1_700_000_000),
            stop: Date(timeIntervalSince1970: 1_700_000_002), results: results)
    }
}
