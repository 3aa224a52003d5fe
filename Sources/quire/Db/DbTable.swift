/// A plain-text table with a header row, columns padded to their widest cell.
struct DbTable {
    /// The column titles.
    var headers: [String]
    /// The rows, one cell per column.
    var rows: [[String]] = []

    /// The width of each column: its widest cell, the header included.
    var widths: [Int] {
        var widths = headers.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], cell.count)
            }
        }
        return widths
    }

    /// The table's text, ending in a newline; just the header line when there are no rows.
    var text: String {
        let widths = widths
        return ([headers] + rows).map { Self.line($0, widths: widths) }.joined()
    }

    /// One line of `cells`, each but the last padded to its column's width, newline-terminated.
    static func line(_ cells: [String], widths: [Int]) -> String {
        let padded = cells.enumerated().map { column, cell in
            column == cells.count - 1 || column >= widths.count
                ? cell : cell + String(repeating: " ", count: max(0, widths[column] - cell.count))
        }
        var text = padded.joined(separator: "  ").replacingOccurrences(of: "\n", with: " ")
        while text.last == " " { text.removeLast() }
        return text + "\n"
    }
}
