/// A log sink that hands messages to the console: to the app's swift-log backend, under the
/// labels `Quire.Database`, `Quire.Query`, `Quire.Replicator`, `Quire.Network` and
/// `Quire.Listener`.
///
/// Without `LoggingSystem.bootstrap` swift-log writes them on standard error. The console
/// sink is on by default at ``LogLevel/warning`` for every domain; set ``LogSinks/console`` to
/// change it, or to nil to turn it off.
///
/// ```swift
/// LogSinks.console = ConsoleLogSink(level: .verbose, domains: .query)
/// ```
public struct ConsoleLogSink: Sendable {
    /// The lowest level of the messages written.
    public let level: LogLevel

    /// The domains whose messages are written.
    public let domains: LogDomains

    /// A console sink writing messages at `level` or above from `domains` (every domain unless
    /// given).
    public init(level: LogLevel, domains: LogDomains = .all) {
        self.level = level
        self.domains = domains
    }

    /// Whether the sink writes a message at `level` from `domain`.
    func admits(_ level: LogLevel, _ domain: LogDomain) -> Bool {
        self.level.admits(level) && domains.admits(domain)
    }
}
