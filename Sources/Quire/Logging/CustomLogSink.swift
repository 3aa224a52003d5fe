/// What receives the messages of a ``CustomLogSink``: an app's own logging.
///
/// Quire calls ``writeLog(level:domain:message:)`` on the thread that logged, possibly several
/// threads at once, so a conforming type is `Sendable` and guards what it stores. It must not
/// block for long: the thread that logged waits for it.
public protocol LogSinkProtocol: Sendable {
    /// Receives one message the custom sink takes.
    func writeLog(level: LogLevel, domain: LogDomain, message: String)
}

/// A log sink that hands messages to the app's own ``LogSinkProtocol``.
///
/// ```swift
/// LogSinks.custom = CustomLogSink(level: .info, domains: .replicator) { level, domain, message in
///     appLog.append("\(domain) \(level): \(message)")
/// }
/// ```
public struct CustomLogSink: Sendable {
    /// The lowest level of the messages handed on.
    public let level: LogLevel

    /// The domains whose messages are handed on.
    public let domains: LogDomains

    /// What receives the messages.
    public let logSink: any LogSinkProtocol

    /// A custom sink handing messages at `level` or above, from every domain, to `logSink`.
    public init(level: LogLevel, logSink: any LogSinkProtocol) {
        self.init(level: level, domains: .all, logSink: logSink)
    }

    /// A custom sink handing messages at `level` or above from `domains` to `logSink`.
    public init(level: LogLevel, domains: LogDomains, logSink: any LogSinkProtocol) {
        self.level = level
        self.domains = domains
        self.logSink = logSink
    }

    /// A custom sink handing messages at `level` or above from `domains` (every domain unless
    /// given) to a closure, called as ``LogSinkProtocol/writeLog(level:domain:message:)`` is.
    public init(
        level: LogLevel, domains: LogDomains = .all,
        write: @escaping @Sendable (_ level: LogLevel, _ domain: LogDomain, _ message: String) -> Void
    ) {
        self.init(level: level, domains: domains, logSink: ClosureLogSink(write: write))
    }

    /// Whether the sink takes a message at `level` from `domain`.
    func admits(_ level: LogLevel, _ domain: LogDomain) -> Bool {
        self.level.admits(level) && domains.admits(domain)
    }
}

/// A closure as a ``LogSinkProtocol``.
private struct ClosureLogSink: LogSinkProtocol {
    let write: @Sendable (LogLevel, LogDomain, String) -> Void

    func writeLog(level: LogLevel, domain: LogDomain, message: String) {
        write(level, domain, message)
    }
}
