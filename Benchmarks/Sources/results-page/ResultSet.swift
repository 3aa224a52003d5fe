import BenchmarkCatalog
import Foundation

/// The medians of one benchmark's metrics.
struct Medians {
    /// Wall-clock time of one iteration, in milliseconds.
    var wallMilliseconds: Double
    /// Mallocs in one iteration.
    var mallocs: Double?
    /// Growth of the resident set over the run, in bytes (peak minus the level before it).
    var peakResidentDelta: Double?
    /// Peak resident set of the process, in bytes.
    var peakResident: Double?
    /// The workload's own counts (`Workload.counters`), by name.
    var counters: [String: Double] = [:]
}

/// Everything one run exported, by benchmark: the harness's `--format histogramPercentiles`
/// output, one `<run>.<target>.<workload>_<engine>.<metric>.histogram.percentiles.tsv` per
/// benchmark and metric, each a header line and then `<percentile>\t<value>` for 0...100, in
/// raw units (the benchmarks ask for nanoseconds and plain counts).
struct ResultSet {
    private(set) var medians: [BenchmarkID: Medians] = [:]
    /// Files whose benchmark the catalog does not know (reported, not dropped silently).
    private(set) var unknown: [String] = []

    init(folder: URL) throws {
        let suffix = ".histogram.percentiles.tsv"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(suffix) }
        guard !files.isEmpty else {
            throw ResultsError("\(folder.path) has no *\(suffix) files (run with --format histogramPercentiles)")
        }
        var values: [BenchmarkID: [String: Double]] = [:]
        for file in files {
            // Benchmark names are `<workload>/<engine>`; the harness writes '/' as '_'.
            let parts = file.dropLast(suffix.count).split(separator: ".")
            guard parts.count >= 4, let underscore = parts[parts.count - 2].lastIndex(of: "_") else {
                unknown.append(file)
                continue
            }
            let benchmark = parts[parts.count - 2]
            let name = benchmark[..<underscore] + "/" + benchmark[benchmark.index(after: underscore)...]
            guard let id = BenchmarkID(name: String(name)) else {
                unknown.append(file)
                continue
            }
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let median = text.split(separator: "\n").first { $0.hasPrefix("50\t") }.flatMap { Double($0.dropFirst(3)) }
            values[id, default: [:]][String(parts[parts.count - 1])] = median
        }
        for (id, metrics) in values {
            guard let nanoseconds = metrics["wallClock"] else {
                throw ResultsError("\(id) has no wall-clock time")
            }
            medians[id] = Medians(
                wallMilliseconds: nanoseconds / 1_000_000, mallocs: metrics["mallocCountTotal"],
                peakResidentDelta: metrics["peakMemoryResidentDelta"], peakResident: metrics["peakMemoryResident"],
                counters: metrics.filter { id.workload.counters.contains($0.key) })
        }
    }

    subscript(workload: Workload, engine: Engine) -> Medians? {
        medians[BenchmarkID(workload, engine)]
    }

    /// Quire's median divided by `engine`'s, for one workload.
    func ratio(_ workload: Workload, versus engine: Engine) -> Double? {
        guard let quire = self[workload, .quire], let other = self[workload, engine], other.wallMilliseconds > 0 else {
            return nil
        }
        return quire.wallMilliseconds / other.wallMilliseconds
    }

    /// Conformance cases run per second (median cases over median time).
    var conformanceCasesPerSecond: Double? {
        guard let run = self[.conformance, .quire], let cases = run.counters["cases"], run.wallMilliseconds > 0 else {
            return nil
        }
        return cases / (run.wallMilliseconds / 1000)
    }

    /// How much faster two threads read than one (the same reads in all), for `engine`:
    /// people (`.read`) or hotels (`.readHotels`).
    func readScaling(_ engine: Engine, _ oneThread: Workload = .read) -> Double? {
        let twoThreads: Workload = oneThread == .readHotels ? .readHotelsTwoThreads : .readTwoThreads
        guard let one = self[oneThread, engine], let two = self[twoThreads, engine], two.wallMilliseconds > 0 else {
            return nil
        }
        return one.wallMilliseconds / two.wallMilliseconds
    }

    /// The file's bytes per byte of JSON saved after a batch save, for `engine`.
    func bytesPerJSONByte(_ workload: Workload, _ engine: Engine) -> Double? {
        guard let run = self[workload, engine], let disk = run.counters["diskBytes"],
            let json = run.counters["jsonBytes"],
            json > 0
        else { return nil }
        return disk / json
    }
}

struct ResultsError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
