/// A plain-text table written as its rows come: the column widths are those of the header and
/// the first page of rows, so a listing of any length starts at once and holds only one page;
/// a later cell wider than its column pushes the rest of its line right instead of re-laying
/// out what was printed.
package final class TextTableStream {
    private let writer: BufferedFileWriter
    private let pageSize: Int
    private var table: TextTable
    private var widths: [Int]?
    /// The rows written so far.
    package private(set) var count = 0

    /// A table with `headers` written to `writer`, its widths set by the first `pageSize` rows.
    package init(headers: [String], writer: BufferedFileWriter, pageSize: Int = 200) {
        self.writer = writer
        self.pageSize = pageSize
        table = TextTable(headers: headers)
    }

    /// Adds a row, one cell per column.
    package func append(_ row: [String]) throws {
        count += 1
        if let widths {
            try writer.append(Array(TextTable.line(row, widths: widths).utf8))
            return
        }
        table.rows.append(row)
        if table.rows.count >= pageSize { try writeFirstPage() }
    }

    /// Writes what is held back (the header at least); call once, after the last row.
    package func finish() throws {
        if widths == nil { try writeFirstPage() }
    }

    private func writeFirstPage() throws {
        widths = table.widths
        try writer.append(Array(table.text.utf8))
        table.rows.removeAll()
    }
}
