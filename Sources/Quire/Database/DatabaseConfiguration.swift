import Foundation

/// Settings for opening a database with ``Database/init(name:config:)``.
public struct DatabaseConfiguration: Sendable {
    /// The folder that holds `<name>.quire/` database folders.
    /// Defaults to the current directory's `Quire/` folder, created on demand.
    public var directory: String
    /// Commit with `synchronous=FULL`, so a commit that returned survives power loss;
    /// `NORMAL` (the default) can lose the last commits on power loss, never consistency.
    public var fullSync: Bool
    /// How many ancestor revision IDs each document keeps (Couchbase Lite's default is 20).
    public var maxRevTreeDepth: Int
    /// Where time comes from for expiration: the system clock unless a test or spec sets one
    /// it advances.
    public var clock: any QuireClock

    /// The default directory: `./Quire` under the current working directory.
    public static var defaultDirectory: String {
        FileManager.default.currentDirectoryPath + "/Quire"
    }

    /// A configuration for databases in `directory` (``defaultDirectory`` when nil), with
    /// `synchronous=FULL` commits when `fullSync` is true, revision histories kept to
    /// `maxRevTreeDepth` ancestors, and expiration timed by `clock`.
    public init(
        directory: String? = nil,
        fullSync: Bool = false,
        maxRevTreeDepth: Int = 20,
        clock: any QuireClock = SystemClock()
    ) {
        self.directory = directory ?? DatabaseConfiguration.defaultDirectory
        self.fullSync = fullSync
        self.maxRevTreeDepth = max(1, maxRevTreeDepth)
        self.clock = clock
    }
}
