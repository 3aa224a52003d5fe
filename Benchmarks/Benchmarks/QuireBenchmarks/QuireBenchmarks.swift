import Benchmark
import BenchmarkCatalog
import BenchmarkWorkloads

/// Every workload of the catalog, once per engine, named `<workload>/<engine>`. The harness
/// runs each in a process of its own, so peak memory and allocation counts never mix.
let benchmarks: @Sendable () -> Void = {
    Benchmark.teardown = { Scratch.removeAll() }
    for workload in Workload.allCases {
        for engine in workload.engines {
            let id = BenchmarkID(workload, engine)
            Benchmark(id.description, configuration: configuration(for: workload)) { benchmark, run in
                for _ in benchmark.scaledIterations {
                    try run.prepareIteration()
                    benchmark.startMeasurement()
                    blackHole(try run.measured())
                    benchmark.stopMeasurement()
                    for (name, value) in run.counters { benchmark.measurement(.custom(name), value) }
                    try run.finishIteration()
                }
            } setup: {
                try makeRun(id)
            }
        }
    }
}

/// Every benchmark reports the same metrics, in raw units (nanoseconds, counts, bytes), which
/// `--format histogramPercentiles` exports per benchmark and metric for the results page. (The
/// JMH export drops any benchmark whose iterations take over two seconds: its throughput
/// rounds to zero.)
private func configuration(for workload: Workload) -> Benchmark.Configuration {
    let metrics: [BenchmarkMetric] =
        [.wallClock, .mallocCountTotal, .peakMemoryResident, .peakMemoryResidentDelta]
        + workload.counters.map { .custom($0) }
    return Benchmark.Configuration(
        metrics: metrics,
        timeUnits: .nanoseconds,
        units: Dictionary(uniqueKeysWithValues: metrics.map { ($0, BenchmarkUnits.count) }),
        warmupIterations: 1,
        maxDuration: .seconds(workload.isLong ? 60 : workload.isStorage ? 20 : 10),
        maxIterations: workload.isLong ? 5 : workload.isStorage ? 9 : 15
    )
}
