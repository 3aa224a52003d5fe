import BenchmarkCatalog
import Foundation

// Reads what `swift package benchmark --format histogramPercentiles --path <folder>` exported
// and writes RESULTS.md (one table of medians and ratios, the targets, the machine) and
// ratios.svg; `PROFILE.md` in the output folder, when there is one (`profile.sh` writes it),
// becomes the page's "Where the time goes", and `DIGESTS.md` (the digest benchmarks' figures,
// written by hand after `swift package benchmark --target DigestBenchmarks`) a section of its own.
//
//   results-page <export folder> <output folder> [key=value ...]
//
// The key=value pairs describe the run (swift=..., sqlite=..., commit=..., load-before=...)
// and are printed under "Machine"; `run-all.sh` passes them.

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: results-page <export folder> <output folder> [key=value ...]\n".utf8))
    exit(2)
}

do {
    let results = try ResultSet(folder: URL(fileURLWithPath: arguments[0], isDirectory: true))
    let notes = arguments.dropFirst(2).compactMap { pair -> (String, String)? in
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        return (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
    }
    let folder = URL(fileURLWithPath: arguments[1], isDirectory: true)
    let profile = try? String(contentsOf: folder.appendingPathComponent("PROFILE.md"), encoding: .utf8)
    let digests = try? String(contentsOf: folder.appendingPathComponent("DIGESTS.md"), encoding: .utf8)
    let page = ResultsPage(
        results: results, machine: Machine.describe(notes: notes), profile: profile, digests: digests)
    try page.markdown().write(to: folder.appendingPathComponent("RESULTS.md"), atomically: true, encoding: .utf8)
    try RatioChart(rows: page.chartRows()).svg().write(
        to: folder.appendingPathComponent("ratios.svg"), atomically: true, encoding: .utf8)
    print(page.summary())
} catch {
    FileHandle.standardError.write(Data("results-page: \(error)\n".utf8))
    exit(1)
}
