import ArgumentParser
import Foundation
import Quire
import QuireSync

/// The options `push` and `pull` share: the remote, the collections, and the replicator's
/// filters (channels, document IDs, a server filter), credentials and time limits.
struct DbReplicationOptions: ParsableArguments {
    @Argument(help: "The remote database URL (http://host:port/db, as quire serve or CouchDB gives it).")
    var url: String

    @Option(
        name: [.customShort("c"), .customLong("collection")],
        help: "A collection to replicate (repeatable); every collection when left out."
    )
    var collections: [String] = []

    @Option(name: .customLong("channel"), help: "Replicate only documents in this channel (repeatable; Sync Gateway).")
    var channels: [String] = []

    @Option(name: .customLong("doc-id"), help: "Replicate only this document (repeatable).")
    var documentIDs: [String] = []

    @Option(help: "The user name for HTTP Basic authentication; needs --password-file.")
    var user: String?

    @Option(help: "A file whose first line is the password for --user.")
    var passwordFile: String?

    @Option(help: "Seconds one request may go without an answer.")
    var timeout: Double = 60

    @Option(help: "Tries in all before a network failure ends the run.")
    var attempts: UInt = 1

    @Flag(help: "Start from the beginning instead of the saved checkpoint.")
    var reset = false

    @Flag(help: "Print the summary as JSON.")
    var json = false

    func validate() throws {
        guard let remote = URL(string: url), let scheme = remote.scheme?.lowercased(),
            ["http", "https", "ws", "wss"].contains(scheme), remote.host != nil
        else {
            throw ValidationError("'\(url)' is not an http(s) URL of a database such as http://127.0.0.1:4984/travel.")
        }
        if (user == nil) != (passwordFile == nil) { throw ValidationError("--user and --password-file go together.") }
        guard timeout > 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be more than 0 and at most 86400 seconds.")
        }
        guard attempts >= 1 else { throw ValidationError("--attempts must be at least 1.") }
    }

    /// The configuration for replicating `database` in `direction` with these options;
    /// `createMissing` creates named collections that do not exist (for a pull), adding them
    /// to `created`.
    func configuration(
        for database: Database, direction: ReplicatorType, filter: String?, createMissing: Bool,
        created: inout [Collection]
    ) throws -> ReplicatorConfiguration {
        var config = ReplicatorConfiguration(target: URLEndpoint(url: URL(string: url)!))
        config.replicatorType = direction
        config.continuous = false
        config.requestTimeout = timeout
        config.maxAttempts = attempts
        config.maxAttemptWaitTime = 10
        if let user, let passwordFile {
            config.authenticator = BasicAuthenticator(
                username: user, password: try ServeCommand.password(from: passwordFile))
        }
        var collectionConfig = CollectionConfiguration()
        if !channels.isEmpty { collectionConfig.channels = channels }
        if !documentIDs.isEmpty { collectionConfig.documentIDs = documentIDs }
        collectionConfig.filter = filter
        var chosen: [Collection] = []
        if collections.isEmpty { chosen = try DbCollectionName.all(in: database) }
        for text in collections {
            let name = DbCollectionName(text)
            if createMissing, try database.collection(name: name.name, scope: name.scope) == nil {
                let made = try name.resolveOrCreate(in: database)
                created.append(made)
                chosen.append(made)
            } else {
                chosen.append(try name.resolve(in: database))
            }
        }
        config.addCollections(chosen, config: collectionConfig)
        return config
    }
}
