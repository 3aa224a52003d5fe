import Foundation

/// One benchmark's callgrind profile, summed by ``FunctionGroup``.
struct Profile {
    /// Instructions per group.
    private(set) var groups: [FunctionGroup: Int] = [:]
    /// Instructions in all, as callgrind reports them.
    private(set) var total = 0

    /// Reads `callgrind_annotate --inclusive=no` output: a `PROGRAM TOTALS` line, then one
    /// line per function, `<Ir> (<share>%)  <file>:<function> [<object>]`.
    init(annotateOutput text: String) {
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard let space = trimmed.firstIndex(of: " "),
                let count = Int(trimmed[..<space].filter { $0 != "," })
            else { continue }
            var rest = trimmed[space...].drop { $0 == " " }
            if rest.hasPrefix("(") { rest = rest.drop { $0 != ")" }.dropFirst().drop { $0 == " " } }
            if rest.hasPrefix("PROGRAM TOTALS") {
                total = count
                continue
            }
            var object = ""
            if rest.hasSuffix("]"), let open = rest.lastIndex(of: "[") {
                object = String(rest[rest.index(after: open)..<rest.index(before: rest.endIndex)])
                rest = rest[..<open]
            }
            let function = rest.firstIndex(of: ":").map { rest[rest.index(after: $0)...] } ?? rest
            groups[FunctionGroup.of(function: String(function), object: object), default: 0] += count
        }
        if total == 0 { total = groups.values.reduce(0, +) }
    }

    /// The share of all instructions spent in `group`, 0...1.
    func share(_ group: FunctionGroup) -> Double {
        total > 0 ? Double(groups[group] ?? 0) / Double(total) : 0
    }
}
