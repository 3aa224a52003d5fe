import Foundation

/// Identifies a listener; pass it to ``remove()`` to stop notifications.
public final class ListenerToken: Sendable, Hashable {
    let id: UUID
    private let hub: ChangeHub

    init(id: UUID, hub: ChangeHub) {
        self.id = id
        self.hub = hub
    }

    /// A token for a listener that was never added (its database could not be opened):
    /// removing it does nothing.
    static var inert: ListenerToken { ListenerToken(id: UUID(), hub: ChangeHub()) }

    /// Stops the listener; nothing is delivered to it afterwards.
    public func remove() {
        hub.remove(id)
    }

    /// Tokens are equal when they identify the same listener.
    public static func == (lhs: ListenerToken, rhs: ListenerToken) -> Bool { lhs.id == rhs.id }

    /// Hashes the listener's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
