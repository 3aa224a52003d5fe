import Logging

/// The process-wide state behind ``LogSinks`` and ``Log``: which sinks are set, the open log
/// files, and the console's swift-log loggers.
///
/// Messages are handed to the sinks outside the lock, so a custom sink may log, or change the
/// sinks, without deadlocking; the open files serialise their own writes.
enum LogCenter {
    /// The sinks set, with the files the file sink has open.
    struct Sinks: Sendable {
        var console: ConsoleLogSink? = ConsoleLogSink(level: .warning)
        var file: FileLogSink?
        var files: LogFiles?
        var custom: CustomLogSink?

        func admits(_ level: LogLevel, _ domain: LogDomain) -> Bool {
            console?.admits(level, domain) == true || custom?.admits(level, domain) == true
                || (files != nil && file?.level.admits(level) == true)
        }
    }

    static let sinks = Locked(Sinks())

    /// Serialises changes of the file sink, which open and close files outside ``sinks``' lock.
    private static let fileChanges = Locked()

    /// Whether any sink takes a message at `level` from `domain`.
    static func admits(_ level: LogLevel, _ domain: LogDomain) -> Bool {
        sinks.withLock { $0.admits(level, domain) }
    }

    /// Hands one message to each sink that takes it.
    static func dispatch(_ domain: LogDomain, _ level: LogLevel, _ message: String) {
        guard level != .none else { return }
        let current = sinks.withLock { $0 }
        if let console = current.console, console.admits(level, domain) {
            consoleLoggers[domain]?.log(level: level.swiftLogLevel, "\(message)")
        }
        if let files = current.files, let file = current.file, file.level.admits(level) {
            files.write(level, domain, message)
        }
        if let custom = current.custom, custom.admits(level, domain) {
            custom.logSink.writeLog(level: level, domain: domain, message: message)
        }
    }

    /// Sets the file sink: keeps the open files when the directory and format are the same
    /// (taking the new level and limits), else closes them and opens new ones.
    static func setFile(_ sink: FileLogSink?) {
        var failure: String?
        fileChanges.withLock {
            let old = sinks.withLock { $0.files }
            var files: LogFiles?
            if let sink, sink.level != .none {
                if let old, old.directory == sink.directory, old.plaintext == sink.usePlaintext {
                    old.update(sink)
                    files = old
                } else {
                    do {
                        files = try LogFiles(sink)
                    } catch {
                        failure = "Cannot write log files in \(sink.directory): \(error)"
                    }
                }
            }
            sinks.withLock {
                $0.file = sink
                $0.files = files
            }
            if let old, old !== files { old.close() }
        }
        if let failure { Log.write(.database, .warning, failure) }
    }

    /// The console sink's loggers, one per domain, from the app's swift-log backend. They pass
    /// every level on: the console sink has chosen already.
    private static let consoleLoggers: [LogDomain: Logger] = {
        var loggers: [LogDomain: Logger] = [:]
        for domain in LogDomain.allCases {
            var logger = Logger(label: "Quire.\(domain.consoleName)")
            logger.logLevel = .trace
            loggers[domain] = logger
        }
        return loggers
    }()
}

extension LogLevel {
    /// The swift-log level a message at this level is written at.
    var swiftLogLevel: Logger.Level {
        switch self {
        case .debug: .trace
        case .verbose: .debug
        case .info: .info
        case .warning: .warning
        case .error, .none: .error
        }
    }
}
