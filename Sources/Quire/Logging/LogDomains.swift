/// A set of ``LogDomain``s: the domains a console or custom log sink takes messages from.
///
/// ```swift
/// LogSinks.console = ConsoleLogSink(level: .info, domains: [.replicator, .network])
/// ```
public struct LogDomains: OptionSet, Sendable {
    /// The domains' bits, each ``LogDomain``'s raw value.
    public let rawValue: UInt

    /// The set whose bits are `rawValue`.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Databases, collections and documents.
    public static let database = LogDomains(rawValue: LogDomain.database.rawValue)
    /// Queries.
    public static let query = LogDomains(rawValue: LogDomain.query.rawValue)
    /// The replicator.
    public static let replicator = LogDomains(rawValue: LogDomain.replicator.rawValue)
    /// The replicator's network traffic.
    public static let network = LogDomains(rawValue: LogDomain.network.rawValue)
    /// The URL endpoint listener.
    public static let listener = LogDomains(rawValue: LogDomain.listener.rawValue)
    /// Every domain.
    public static let all: LogDomains = [.database, .query, .replicator, .network, .listener]

    /// Whether the set holds `domain`.
    func admits(_ domain: LogDomain) -> Bool {
        rawValue & domain.rawValue != 0
    }
}
