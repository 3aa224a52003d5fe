/// Which way a replicator copies changes.
public enum ReplicatorType: UInt8, Sendable {
    /// Both ways.
    case pushAndPull = 0
    /// Local changes to the remote.
    case push
    /// Remote changes to the local database.
    case pull

    var pushes: Bool { self != .pull }
    var pulls: Bool { self != .push }
}
