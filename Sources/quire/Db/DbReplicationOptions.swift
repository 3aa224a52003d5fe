import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder
import QuireSync

/// The options `push` and `pull` share: the remote, the collections, and the replicator's
/// filters (channels, document IDs, a server filter), credentials and time limits.
struct DbReplicationOptions: ParsableArguments {
    @Argument(help: "The remote database URL (http://host:port/db, as quire serve or CouchDB gives it).")
    var url: String

    @Option(
        name: [.customShort("c"), .customLong("collection")],
        help: "A collection to replicate (repeatable); every collection when left out.",
        completion: .custom(DbDatabaseArgument.completeCollections)
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

    @Flag(
        help:
            "Keep replicating, picking up new changes on both sides as they come, until Ctrl-C (the checkpoint is kept)."
    )
    var continuous = false

    @Flag(help: "Push and pull in one replication (both directions).")
    var bidi = false

    @Flag(
        help:
            "Pushing: create the remote database, and its scope.collection keyspaces, when missing (CouchDB's create_target; quire serve FOLDER needs --create-databases)."
    )
    var createTarget = false

    @Option(
        name: .customLong("pinned-cert"),
        help:
            "Trust only this server certificate: a DER or PEM file, or its SHA-256 fingerprint (64 hex digits, as quire serve prints it)."
    )
    var pinnedCertificate: String?

    @Option(name: .customLong("ca"), help: "A PEM file of root certificates to trust instead of the system's.")
    var rootsFile: String?

    @Flag(help: "Accept any server certificate (no check of chain, name or pin): for trying things out only.")
    var insecure = false

    @Option(help: "Seconds one request may go without an answer.")
    var timeout: Double = 60

    @Option(help: "Tries in all before a network failure ends the run.")
    var attempts: UInt = 1

    @Flag(help: "Start from the beginning instead of the saved checkpoint.")
    var reset = false

    @Flag(help: "Print the summary as JSON.")
    var json = false

    func validate() throws {
        guard let remote = URLComponents(string: url), let scheme = remote.scheme?.lowercased(),
            ["http", "https", "ws", "wss"].contains(scheme), remote.host?.isEmpty == false
        else {
            throw ValidationError(
                "'\(DbReplicationOptions.redacted(url))' is not an http(s) URL of a database such as http://127.0.0.1:4984/travel."
            )
        }
        if (user == nil) != (passwordFile == nil) { throw ValidationError("--user and --password-file go together.") }
        if remote.user != nil, user != nil {
            throw ValidationError("give the user in the URL or with --user, not both.")
        }
        if remote.user != nil, remote.password == nil {
            throw ValidationError("the URL names a user without a password: use --user and --password-file.")
        }
        let tlsOptions = [pinnedCertificate != nil, rootsFile != nil, insecure].filter { $0 }.count
        if tlsOptions > 1 { throw ValidationError("--pinned-cert, --ca and --insecure exclude each other.") }
        if tlsOptions > 0, !["https", "wss"].contains(scheme) {
            throw ValidationError(
                "--pinned-cert, --ca and --insecure are for an https URL; '\(displayURL)' is \(scheme).")
        }
        #if !TLS
            if tlsOptions > 0 {
                throw ValidationError(
                    "--pinned-cert, --ca and --insecure need the package trait 'TLS', which this build of quire leaves out."
                )
            }
        #endif
        if let rootsFile, !FileManager.default.isReadableFile(atPath: rootsFile) {
            throw ValidationError("--ca: cannot read '\(rootsFile)'.")
        }
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
        var components = URLComponents(string: url)!
        let urlUser = components.user
        let urlPassword = components.password
        components.user = nil
        components.password = nil
        var config = ReplicatorConfiguration(target: URLEndpoint(url: components.url!))
        config.replicatorType = bidi ? .pushAndPull : direction
        config.continuous = continuous
        config.createsMissingTarget = createTarget
        config.requestTimeout = timeout
        // A continuous replication keeps trying through outages, as Couchbase Lite's does.
        config.maxAttempts = continuous && attempts == 1 ? 0 : attempts
        config.maxAttemptWaitTime = 10
        if let user, let passwordFile {
            config.authenticator = BasicAuthenticator(
                username: user, password: try ServeCommand.password(from: passwordFile))
        } else if let urlUser, let urlPassword {
            config.authenticator = BasicAuthenticator(username: urlUser, password: urlPassword)
        }
        #if TLS
            if let pinnedCertificate {
                if FileManager.default.fileExists(atPath: pinnedCertificate) {
                    do {
                        config.pinnedServerCertificate = try Data(contentsOf: URL(fileURLWithPath: pinnedCertificate))
                    } catch {
                        throw CommandFailure(
                            "--pinned-cert: cannot read '\(pinnedCertificate)': \(error.localizedDescription)")
                    }
                } else {
                    config.pinnedServerCertificateSHA256 = pinnedCertificate
                }
            }
            config.trustedRootCertificatesFile = rootsFile.map { URL(fileURLWithPath: $0) }
            config.acceptsAnyServerCertificate = insecure
        #endif
        var collectionConfig = CollectionConfiguration()
        if !channels.isEmpty { collectionConfig.channels = channels }
        if !documentIDs.isEmpty { collectionConfig.documentIDs = documentIDs }
        collectionConfig.filter = filter
        var chosen: [Collection] = []
        if collections.isEmpty { chosen = try database.allCollections() }
        for text in collections {
            let name = CollectionName.named(text)
            if createMissing, try database.collection(name: name.name, scope: name.scope) == nil {
                let made = try database.collection(creatingIfMissing: name)
                created.append(made)
                chosen.append(made)
            } else {
                chosen.append(try database.collection(name))
            }
        }
        config.addCollections(chosen, config: collectionConfig)
        return config
    }

    /// The remote URL as output shows it: without the password the URL may carry.
    var displayURL: String { DbReplicationOptions.redacted(url) }

    /// `text` with the password of a `scheme://user:password@host` URL replaced by `***`.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }
}
