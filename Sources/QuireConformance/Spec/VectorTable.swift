/// Expands a case's `vectors` into rows, one case per row.
///
/// Column form: `{variable: [values...], ...}`; with several variables, every combination,
/// the first variable varying slowest. Table form: `[{variable: value, ...}, ...]`, one
/// row per entry, every row naming the same variables. A mapping where a value is expected
/// is a generator; `{literal: ...}` writes a mapping value.
enum VectorTable {
    /// One expanded row.
    struct Row: Sendable {
        var bindings: [(name: String, value: SpecValue)]
        /// `name=value` per variable, for the case name.
        var labels: [String]
    }

    static func rows(from node: SpecNode, caseName: String, seed: UInt64) throws -> [Row] {
        if let entries = node.entries {
            var rows = [Row(bindings: [], labels: [])]
            for entry in entries {
                var column: [(value: SpecValue, label: String)] = []
                for (index, element) in (entry.value.elements ?? []).enumerated() {
                    column += try values(
                        of: element, caseName: caseName, variable: entry.key, index: index,
                        seed: seed, allowMany: true)
                }
                let (count, overflow) = rows.count.multipliedReportingOverflow(by: column.count)
                guard !overflow, count <= SpecLimits.maximumRowsPerCase else {
                    throw SpecError(
                        "the vectors make more than \(SpecLimits.maximumRowsPerCase) combinations; use fewer values or the table form",
                        at: node.location)
                }
                rows = rows.flatMap { row in
                    column.map { cell in
                        Row(
                            bindings: row.bindings + [(entry.key, cell.value)],
                            labels: row.labels + ["\(entry.key)=\(cell.label)"])
                    }
                }
            }
            return rows
        }
        let tableRows = node.elements ?? []
        let expectedKeys = tableRows.first?.entries?.map(\.key) ?? []
        return try tableRows.enumerated().map { index, rowNode in
            let keys = rowNode.entries?.map(\.key) ?? []
            guard Set(keys) == Set(expectedKeys) else {
                let missing = expectedKeys.filter { !keys.contains($0) }
                let extra = keys.filter { !expectedKeys.contains($0) }
                let detail =
                    (missing.isEmpty ? [] : ["missing \(missing.joined(separator: ", "))"])
                    + (extra.isEmpty ? [] : ["extra \(extra.joined(separator: ", "))"])
                throw SpecError(
                    "every vector row must name the same variables as the first; this one has \(detail.joined(separator: " and "))",
                    at: rowNode.location)
            }
            var row = Row(bindings: [], labels: [])
            for entry in rowNode.entries ?? [] {
                let cell = try values(
                    of: entry.value, caseName: caseName, variable: entry.key, index: index,
                    seed: seed, allowMany: false)[0]
                row.bindings.append((entry.key, cell.value))
                row.labels.append("\(entry.key)=\(cell.label)")
            }
            return row
        }
    }

    private static func values(
        of node: SpecNode, caseName: String, variable: String, index: Int, seed: UInt64, allowMany: Bool
    ) throws -> [(value: SpecValue, label: String)] {
        guard node.entries != nil else { return [(node.value, VectorLabel.render(node.value))] }
        let generator = try VectorGenerator(node)
        if generator.isMultiValued && !allowMany {
            throw SpecError(
                "this generator makes several values, which only the column form of vectors can use", at: node.location)
        }
        var random = SeededRandom(seed: SeededRandom.derive(seed, caseName, variable, String(index)))
        do {
            let made = try generator.values(random: &random)
            guard !made.isEmpty else { throw SpecError("the generator makes no values", at: node.location) }
            return made
        } catch let error as CharacterSetError {
            throw SpecError(error.description, at: node.location)
        }
    }
}
