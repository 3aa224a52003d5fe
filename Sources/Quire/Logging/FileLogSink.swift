/// A log sink that writes messages to files in a directory, one file per level, as Couchbase
/// Lite's file logging does.
///
/// Setting ``LogSinks/file`` creates the directory if needed and opens five files at once,
/// `cbl_debug_<ms>.cbllog` … `cbl_error_<ms>.cbllog` (`<ms>` the time in milliseconds since
/// 1970), each starting with two header lines: the file's serial number and options, then
/// Quire's version, build and commit. A file takes the messages of its own level, from every
/// domain, when that level is at or above ``level``. When a file grows past ``maxFileSize``
/// it is closed and a new one opened; of each level's files the newest ``maxKeptFiles`` are
/// kept. Setting the sink again with the same directory and format keeps the files open and
/// takes the new level and limits; a different directory or format, or nil, closes them with
/// an `---- END ----` line.
///
/// Files are written in LiteCore's binary log format unless ``usePlaintext`` is true; the
/// `cbl-log` tool of Couchbase Lite decodes them. Plain-text lines read
/// `2026-01-02T03:04:05.123456Z DB Info the message`.
///
/// ```swift
/// LogSinks.file = FileLogSink(level: .info, directory: logsURL.path, usePlainText: true)
/// ```
public struct FileLogSink: Sendable {
    /// Whether files are plain text unless told: false, LiteCore's binary format.
    public static let defaultUsePlaintext = false

    /// The size a file grows to before a new one is opened unless told: 512 KiB.
    public static let defaultMaxSize: UInt64 = 524_288

    /// How many files of each level are kept unless told: 2, the one being written and the
    /// one before it.
    public static let defaultMaxKeptFiles = 2

    /// The lowest level of the messages written.
    public let level: LogLevel

    /// The directory the files are written in, created if missing.
    public let directory: String

    /// Whether the files are plain text rather than LiteCore's binary log format.
    public let usePlaintext: Bool

    /// How many files of each level are kept, the one being written included; older ones are
    /// deleted when a new one is opened.
    public let maxKeptFiles: Int

    /// The size in bytes past which a file is closed and a new one opened (at least 1024).
    public let maxFileSize: UInt64

    /// A file sink writing messages at `level` or above to files in `directory`.
    ///
    /// - Parameters:
    ///   - level: The lowest level written; ``LogLevel/none`` opens no files.
    ///   - directory: Where the files go; created, with its parents, when the sink is set.
    ///   - usePlainText: Plain text instead of LiteCore's binary format.
    ///   - maxKeptFiles: How many files of each level are kept, the current one included.
    ///   - maxFileSize: The size in bytes past which a new file is opened; below 1024 counts
    ///     as 1024.
    public init(
        level: LogLevel, directory: String, usePlainText: Bool = defaultUsePlaintext,
        maxKeptFiles: Int = defaultMaxKeptFiles, maxFileSize: UInt64 = defaultMaxSize
    ) {
        self.level = level
        self.directory = directory
        self.usePlaintext = usePlainText
        self.maxKeptFiles = maxKeptFiles
        self.maxFileSize = maxFileSize
    }
}
