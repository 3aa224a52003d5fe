import Foundation

/// Identifies a replicator listener; ``remove()`` stops it.
public final class ReplicatorListenerToken: Sendable, Hashable {
    private let id: UUID
    private let removal: @Sendable (UUID) -> Void

    init(id: UUID, removal: @escaping @Sendable (UUID) -> Void) {
        self.id = id
        self.removal = removal
    }

    /// Stops the listener; nothing is delivered to it afterwards.
    public func remove() {
        removal(id)
    }

    /// Tokens are equal when they identify the same listener.
    public static func == (lhs: ReplicatorListenerToken, rhs: ReplicatorListenerToken) -> Bool { lhs.id == rhs.id }

    /// Hashes the listener's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
