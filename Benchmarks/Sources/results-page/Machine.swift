import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the run ran on, read from the system where it can be and from the caller's notes.
enum Machine {
    static func describe(notes: [(String, String)]) -> [(String, String)] {
        var lines: [(String, String)] = []
        lines.append(("CPU", cpuModel() ?? "unknown"))
        lines.append(("Cores available", String(ProcessInfo.processInfo.activeProcessorCount)))
        lines.append(("Memory", String(format: "%.1f GB", Double(ProcessInfo.processInfo.physicalMemory) / 1e9)))
        lines.append(("System", [osName(), kernel()].compactMap { $0 }.joined(separator: ", ")))
        lines.append(contentsOf: notes)
        let endLoadKey = "Load average when the run ended (1, 5, 15 min)"
        // `run-all.sh` passes the load when the benchmarks ended; read it here only without.
        if !notes.contains(where: { $0.0 == endLoadKey }),
            let load = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)
        {
            let averages = load.split(separator: " ").prefix(3).joined(separator: " ")
            lines.append((endLoadKey, averages))
        }
        lines.append(("Written", ISO8601DateFormatter().string(from: Date())))
        return lines
    }

    private static func cpuModel() -> String? {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        let line = info.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line?.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    private static func osName() -> String? {
        guard let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) else { return nil }
        let line = release.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
        return line.map {
            String($0.dropFirst("PRETTY_NAME=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
    }

    private static func kernel() -> String? {
        var name = utsname()
        guard uname(&name) == 0 else { return nil }
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return "\(text(name.sysname)) \(text(name.release)) \(text(name.machine))"
    }
}
