/// Writing a message to the log sinks, as Quire does itself.
///
/// ```swift
/// Log.log(domain: .database, level: .info, message: "imported \(count) documents")
/// ```
public final class Log: Sendable {
    private init() {}

    /// Hands `message` to every sink in ``LogSinks`` that takes `level` and `domain`, on the
    /// calling thread; the message is written as given (a `%` in it is only a percent sign).
    public static func log(domain: LogDomain, level: LogLevel, message: String) {
        LogCenter.dispatch(domain, level, message)
    }

    /// Logs what `message` makes, making it only when some sink takes `level` from `domain`:
    /// how Quire's own modules log, so a message nobody reads costs one lock.
    package static func write(_ domain: LogDomain, _ level: LogLevel, _ message: @autoclosure () -> String) {
        guard LogCenter.admits(level, domain) else { return }
        LogCenter.dispatch(domain, level, message())
    }
}
