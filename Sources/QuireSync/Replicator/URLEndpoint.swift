import Foundation

/// Where a replicator replicates to.
public protocol Endpoint: Sendable {}

/// A remote database reached over HTTP(S) with the CouchDB replication protocol:
/// `http://host:port/db` (or `ws://`, `wss://`, taken as `http://`, `https://`).
public struct URLEndpoint: Endpoint, Equatable {
    /// The database URL.
    public let url: URL

    /// An endpoint for the database at `url`.
    public init(url: URL) {
        self.url = url
    }
}
