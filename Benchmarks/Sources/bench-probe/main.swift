import BenchmarkCatalog
import BenchmarkWorkloads
import Foundation

// Runs one benchmark's setup and then its measured part a given number of times, without the
// harness, so a profiler sees only the workload:
//
//   valgrind --tool=callgrind --toggle-collect='*WorkloadRun*measured*' \
//       .build/release/bench-probe read/Quire 1
//
// `bench-probe sample` prints one document of each dataset.
//
// Prints the wall-clock and CPU time (all threads) of each measured part, and its checksum.
// On a shared machine the CPU time is the steadier of the two: two threads that contend use
// more CPU per operation than one, whatever the neighbours do to the wall clock.
let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "sample" {
    // `bench-probe sample`: one person and one hotel as the engines receive them.
    for document in try SampleData.people(count: 1) + SampleData.hotels(count: 1) {
        print("\(document.id) (\(document.json.utf8.count) bytes): \(document.json)")
    }
    Scratch.removeAll()
    exit(0)
}
guard let name = arguments.first, let id = BenchmarkID(name: name) else {
    let names = Workload.allCases.flatMap { workload in workload.engines.map { BenchmarkID(workload, $0).description } }
    FileHandle.standardError.write(
        Data("usage: bench-probe <benchmark> [iterations]\nbenchmarks: \(names.joined(separator: " "))\n".utf8))
    exit(2)
}
let iterations = arguments.dropFirst().first.flatMap { Int($0) } ?? 1

do {
    let run = try makeRun(id)
    defer {
        run.tearDown()
        Scratch.removeAll()
    }
    for _ in 0..<iterations {
        try run.prepareIteration()
        let start = DispatchTime.now().uptimeNanoseconds
        let cpuStart = processCPUTime()
        let checksum = try run.measured()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let cpu = (processCPUTime() - cpuStart) * 1e3
        try run.finishIteration()
        print(
            "\(id): \(String(format: "%.1f", elapsed)) ms (CPU \(String(format: "%.1f", cpu)) ms, checksum \(checksum))"
        )
    }
} catch {
    FileHandle.standardError.write(Data("\(id) failed: \(error)\n".utf8))
    exit(1)
}

/// CPU time of the whole process, in seconds.
func processCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
