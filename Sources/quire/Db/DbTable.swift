/// A plain-text table with a header row, columns padded to their widest cell.
struct DbTable {
    /// The column titles.
    var headers: [String]
    /// The rows, one cell per column.
    var rows: [[String]] = []

    /// The table's text, ending in a newline; just the header line when there are no rows.
    var text: String {
        var widths = headers.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, cell in
                column == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }
            return padded.joined(separator: "  ").replacingOccurrences(of: "\n", with: " ") + "\n"
        }
        return ([line(headers)] + rows.map(line)).joined()
    }
}
