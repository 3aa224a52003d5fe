/// How important a log message is, from ``debug`` (the most detail) to ``error``; ``none`` as a
/// sink's level turns the sink off.
///
/// The raw values are Couchbase Lite's, so a level stored as a number keeps its meaning. A sink
/// takes a message when the message's level is at or above the sink's level.
public enum LogLevel: UInt8, Sendable, CaseIterable {
    /// Internal detail, for diagnosing Quire itself.
    case debug = 0
    /// What Quire does step by step: each query compiled, each document a replicator moves.
    case verbose
    /// Events an app may want in its log: a database opened, a replicator started or stopped.
    case info
    /// Something went wrong and Quire carried on: a failed request it retries, a bad peer.
    case warning
    /// Something failed: an operation that reports an error to the app.
    case error
    /// No messages: a sink at this level takes nothing.
    case none

    /// The name Couchbase Lite's log files give the level, in file names (`cbl_info_…`).
    var fileName: String {
        switch self {
        case .debug: "debug"
        case .verbose: "verbose"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        case .none: "none"
        }
    }

    /// The name written in a log line, as LiteCore writes it (the serious ones in capitals).
    var lineName: String {
        switch self {
        case .debug: "Debug"
        case .verbose: "Verbose"
        case .info: "Info"
        case .warning: "WARNING"
        case .error: "ERROR"
        case .none: "none"
        }
    }

    /// Whether a sink at this level takes a message at `level`.
    func admits(_ level: LogLevel) -> Bool {
        self != .none && level != .none && level.rawValue >= rawValue
    }
}
