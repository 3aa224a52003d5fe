/// The part of Quire a log message comes from.
///
/// The raw values are Couchbase Lite's bit values, the same as the members of ``LogDomains``
/// that filter a sink by domain.
public enum LogDomain: UInt, Sendable, CaseIterable {
    /// Databases, collections and documents: opening, closing, saving, maintenance.
    case database = 1
    /// Queries: parsing, compiling and running them, and live queries.
    case query = 2
    /// The replicator: its state, checkpoints and the documents it moves.
    case replicator = 4
    /// The network under the replicator: HTTP requests, TLS.
    case network = 8
    /// The URL endpoint listener: its start and stop, its connections and requests.
    case listener = 16

    /// The domain's name in log files, as LiteCore names its domains (`DB`, `Sync`, `WS` …), so
    /// Quire's files read like Couchbase Lite's.
    var fileName: String {
        switch self {
        case .database: "DB"
        case .query: "Query"
        case .replicator: "Sync"
        case .network: "WS"
        case .listener: "Listener"
        }
    }

    /// The domain's name on the console, as Couchbase Lite's console sink names it.
    var consoleName: String {
        switch self {
        case .database: "Database"
        case .query: "Query"
        case .replicator: "Replicator"
        case .network: "Network"
        case .listener: "Listener"
        }
    }
}
