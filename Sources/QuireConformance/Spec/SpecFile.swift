/// A spec file as loaded: its description and its expanded cases, or what is wrong with it.
public struct SpecFile: Sendable {
    /// The path as discovered.
    public let path: String
    /// The file's `about`, when it could be read.
    package let about: String?
    /// The file's tags.
    package let tags: [String]
    /// The expanded cases in file order. A file that cannot be read has one stand-in case
    /// that reports the errors.
    public let cases: [ConformanceCase]
    /// Problems with the file as a whole (YAML syntax, schema violations).
    public let errors: [SpecError]

    /// The name of the stand-in case of a file that cannot be read.
    package static let invalidFileCaseName = "(spec file)"
}
