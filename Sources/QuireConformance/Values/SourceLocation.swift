/// A position in a spec file: the file's path as discovered, a 1-based line and a 1-based column.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file's path as the runner discovered it (for example `Specs/naming/collections.yaml`).
    public var file: String
    /// The line, starting at 1 (0 when the position is unknown).
    public var line: Int
    /// The column, starting at 1, counted in Unicode scalars (0 when unknown).
    public var column: Int

    /// Makes a location.
    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors and CI annotations turn into links.
    public var description: String { "\(file):\(line):\(column)" }

    /// Orders by file, then line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
