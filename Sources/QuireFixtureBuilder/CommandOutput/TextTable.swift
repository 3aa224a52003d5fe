/// A plain-text table with a header row, columns padded to their widest cell (`quire db ls`,
/// `lscoll`, `info`).
package struct TextTable {
    /// The column titles.
    package var headers: [String]
    /// The rows, one cell per column.
    package var rows: [[String]] = []

    /// A table with `headers` and `rows`.
    package init(headers: [String], rows: [[String]] = []) {
        self.headers = headers
        self.rows = rows
    }

    /// The width of each column: its widest cell, the header included.
    package var widths: [Int] {
        var widths = headers.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], cell.count)
            }
        }
        return widths
    }

    /// The table's text, ending in a newline; just the header line when there are no rows.
    package var text: String {
        let widths = widths
        return ([headers] + rows).map { Self.line($0, widths: widths) }.joined()
    }

    /// One line of `cells`, each but the last padded to its column's width, newline-terminated.
    package static func line(_ cells: [String], widths: [Int]) -> String {
        let padded = cells.enumerated().map { column, cell in
            column == cells.count - 1 || column >= widths.count
                ? cell : cell + String(repeating: " ", count: max(0, widths[column] - cell.count))
        }
        var text = padded.joined(separator: "  ").replacingOccurrences(of: "\n", with: " ")
        while text.last == " " { text.removeLast() }
        return text + "\n"
    }
}
