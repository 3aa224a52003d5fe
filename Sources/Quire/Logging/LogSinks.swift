/// The three places Quire's log messages go: the console, files, and the app's own sink.
///
/// Each is a process-wide setting, read and set from any thread. By default only the console
/// sink is on, at ``LogLevel/warning`` for every domain. A message goes to every sink whose
/// level it reaches and (for the console and custom sinks) whose domains include its own.
///
/// ```swift
/// LogSinks.console = ConsoleLogSink(level: .info, domains: [.database, .replicator])
/// LogSinks.file = FileLogSink(level: .verbose, directory: logsPath)
/// LogSinks.custom = CustomLogSink(level: .warning) { level, domain, message in
///     crashReporter.record("\(domain) \(level): \(message)")
/// }
/// ```
public enum LogSinks {
    /// The console sink, or nil for none; ``ConsoleLogSink`` at ``LogLevel/warning`` unless
    /// changed.
    public static var console: ConsoleLogSink? {
        get { LogCenter.sinks.withLock { $0.console } }
        set { LogCenter.sinks.withLock { $0.console = newValue } }
    }

    /// The file sink, or nil (the default) for none. Setting it opens the files at once (see
    /// ``FileLogSink``); a directory that cannot be created or written leaves file logging
    /// off and says why in a warning to the other sinks.
    public static var file: FileLogSink? {
        get { LogCenter.sinks.withLock { $0.file } }
        set { LogCenter.setFile(newValue) }
    }

    /// The app's own sink, or nil (the default) for none.
    public static var custom: CustomLogSink? {
        get { LogCenter.sinks.withLock { $0.custom } }
        set { LogCenter.sinks.withLock { $0.custom = newValue } }
    }
}
