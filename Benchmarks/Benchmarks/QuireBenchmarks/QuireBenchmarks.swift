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
                    try run.finishIteration()
                }
            } setup: {
                try makeRun(id)
            }
        }
    }
}

/// Every benchmark reports the same metrics: the JMH export (which the results page reads)
/// carries a benchmark's secondary metrics over to the next when their sets differ.
private func configuration(for workload: Workload) -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal, .peakMemoryResident, .peakMemoryResidentDelta],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(workload.isStorage ? 20 : 10),
        maxIterations: workload.isStorage ? 9 : 15
    )
}
