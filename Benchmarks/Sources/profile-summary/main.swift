import BenchmarkCatalog
import Foundation

// Summarises callgrind profiles of benchmarks by function group, as markdown (`profile.sh`
// runs it):
//
//   profile-summary <folder> [notes.md]
//
// <folder> holds `<workload>_<engine>.txt` files: `callgrind_annotate --inclusive=no`
// output with demangled names, one per benchmark. Each workload gets a table of the
// instructions (Ir) per group for Quire and the other engines profiled, and the section of
// `notes.md` headed `## <workload>`, if there is one.

let arguments = Array(CommandLine.arguments.dropFirst())
guard let folderPath = arguments.first else {
    FileHandle.standardError.write(Data("usage: profile-summary <folder> [notes.md]\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: folderPath, isDirectory: true)
let notes = arguments.count > 1 ? ProfileNotes(url: URL(fileURLWithPath: arguments[1])) : ProfileNotes()

var profiles: [BenchmarkID: Profile] = [:]
for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where file.hasSuffix(".txt") {
    let stem = file.dropLast(4)
    guard let underscore = stem.lastIndex(of: "_"),
        let id = BenchmarkID(name: stem[..<underscore] + "/" + stem[stem.index(after: underscore)...]),
        let text = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
    else { continue }
    profiles[id] = Profile(annotateOutput: text)
}
guard !profiles.isEmpty else {
    FileHandle.standardError.write(Data("profile-summary: no <workload>_<engine>.txt files in \(folder.path)\n".utf8))
    exit(1)
}

var lines: [String] = []
for workload in Workload.allCases {
    let engines = workload.engines.filter { profiles[BenchmarkID(workload, $0)] != nil }
    guard let first = engines.first else { continue }
    let measured = engines.compactMap { profiles[BenchmarkID(workload, $0)] }
    lines.append("### \(workload.rawValue): \(workload.title)")
    lines.append("")
    if engines.count > 1, first == .quire, let quire = measured.first {
        let comparisons = zip(engines.dropFirst(), measured.dropFirst()).map { engine, profile in
            String(format: "%.2f× %@'s", Double(quire.total) / Double(max(profile.total, 1)), engine.rawValue)
        }
        lines.append("Quire executes \(comparisons.joined(separator: " and ")) instructions.")
        lines.append("")
    }
    var header = "| Function group |"
    var rule = "|---|"
    for engine in engines {
        header += " \(engine.rawValue) (M Ir) | share |"
        rule += "--:|--:|"
    }
    lines.append(header)
    lines.append(rule)
    let groups = FunctionGroup.allCases.filter { group in measured.contains { $0.share(group) >= 0.005 } }
    for group in groups {
        var row = "| \(group.rawValue) |"
        for profile in measured {
            row += String(
                format: " %.1f | %.1f%% |", Double(profile.groups[group] ?? 0) / 1e6, profile.share(group) * 100)
        }
        lines.append(row)
    }
    var total = "| **Total** (groups under 0.5% everywhere left out) |"
    for profile in measured { total += String(format: " **%.1f** | 100%% |", Double(profile.total) / 1e6) }
    lines.append(total)
    lines.append("")
    if let note = notes.section(workload.rawValue) {
        lines.append(note)
        lines.append("")
    }
}
print(lines.joined(separator: "\n"), terminator: "")
