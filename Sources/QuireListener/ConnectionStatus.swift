/// A ``URLEndpointListener``'s connections at one moment (``URLEndpointListener/status``).
public struct ConnectionStatus: Sendable, Equatable {
    /// The connections open: each client keeps one or two while it replicates.
    public let connectionCount: UInt64
    /// The open connections answering a request now (a request head has arrived and its
    /// response has not ended; a waiting `_changes` feed counts); the others are idle.
    public let activeConnectionCount: UInt64
}
