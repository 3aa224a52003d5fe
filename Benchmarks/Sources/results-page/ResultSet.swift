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
    /// Iterations measured.
    var iterations: Int
}

/// Everything one JMH export holds, by benchmark.
struct ResultSet {
    private(set) var medians: [BenchmarkID: Medians] = [:]
    /// Benchmarks in the file that the catalog does not know (reported, not dropped silently).
    private(set) var unknown: [String] = []

    init(jmhFile: URL) throws {
        let data = try Data(contentsOf: jmhFile)
        guard let elements = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw ResultsError("\(jmhFile.path) is not a JMH export (a JSON array of benchmarks)")
        }
        for element in elements {
            guard let name = element["benchmark"] as? String else { continue }
            guard let id = BenchmarkID(name: name) else {
                unknown.append(name)
                continue
            }
            let secondary = element["secondaryMetrics"] as? [String: Any] ?? [:]
            func median(_ metric: String) -> Double? {
                guard let entry = secondary[metric] as? [String: Any],
                    let percentiles = entry["scorePercentiles"] as? [String: Any]
                else { return nil }
                return (percentiles["50.0"] as? NSNumber)?.doubleValue
            }
            // The export gives times in microseconds.
            guard let wall = median("Time (wall clock)") else {
                throw ResultsError("\(name) has no wall-clock time")
            }
            medians[id] = Medians(
                wallMilliseconds: wall / 1000, mallocs: median("Malloc (total)"),
                peakResidentDelta: median("Memory Δ (resident peak)"), peakResident: median("Memory (resident peak)"),
                iterations: element["measurementIterations"] as? Int ?? 0)
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

    /// How much faster two threads read than one (the same reads in all), for `engine`.
    func readScaling(_ engine: Engine) -> Double? {
        guard let one = self[.read, engine], let two = self[.readTwoThreads, engine], two.wallMilliseconds > 0 else {
            return nil
        }
        return one.wallMilliseconds / two.wallMilliseconds
    }
}

struct ResultsError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
