import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder
import QuireListener
import QuireSync

/// `quire serve DATABASE|DIR [--create-databases] [--allow-delete] [--port P] [--interface
/// ADDRESS] [--read-only] [--user NAME --password-file F | --insecure-no-auth] [--max-body SIZE]
/// [--max-connections N] [--idle-timeout SECONDS] [--body-timeout SECONDS] [--min-body-rate BYTES] [--write-timeout SECONDS] [--cors-origin ORIGIN ...] [--log FILE|-]
/// [--conflicts keep|refuse] [--tls-cert F --tls-key F | --tls-self-signed]`.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a database, or every database in a folder, over HTTP with the CouchDB replication protocol.",
        discussion: """
            The default collection is at /<name>, other collections at /<name>.<scope>.<collection>.
            CouchDB replicators, PouchDB and Quire's replicator can push to and pull from it.
            Stop with Ctrl-C (SIGINT) or SIGTERM.

            Given a folder that is not itself a database, every <name>.quire in it is served as
            CouchDB serves its databases: GET /_all_dbs lists them, GET /<name> describes one,
            PUT /<name> creates one with --create-databases, DELETE /<name> deletes one with
            --allow-delete. New names follow CouchDB's rule (^[a-z][a-z0-9_$()+-]*$).
            PUT /<name>.<scope>.<collection> creates a collection (and its database) with
            --create-databases: a replicator pushing a database with named collections to
            /<name> sends each to /<name>.<scope>.<collection>. Nothing outside the folder is
            reachable: a database folder that is a symbolic link, or holds one, is not served.
            A name matches a database by its exact bytes (on Linux, café in NFC and in NFD are
            two databases).

            Examples:
              quire serve travel.quire --port 4984
              quire serve data --create-databases --allow-delete

            A pushed revision that conflicts with the document's current one (a replicator's
            new_edits:false write from a peer that edited the same document) is kept as a
            conflict when serving a folder, as CouchDB keeps it and as PouchDB and other
            CouchDB clients expect; serving one database, it is refused with 409, as Couchbase
            Lite's listener refuses it (the pusher resolves the conflict when it pulls).
            --conflicts keep or --conflicts refuse chooses either way.

            With --user and --password-file every request needs those credentials (HTTP Basic).
            Listening on an interface other than loopback needs them, or --insecure-no-auth.

            Example:
              quire serve travel.quire --port 4984 --read-only

            With --tls-cert and --tls-key (PEM files) it serves HTTPS with that certificate;
            with --tls-self-signed, with a self-signed certificate made on the first start and
            kept, with its key, in .quire-tls in the folder holding the databases (or in
            --tls-identity-dir), so it stays the same across restarts. Either way it prints the
            certificate's SHA-256 fingerprint, which a replicator can pin. A password file or a
            key file that other users can read is warned about.

            Example:
              quire serve travel.quire --tls-self-signed
            """
    )

    @Argument(
        help: "The database folder (<name>.quire), the name of one in the current folder, or a folder of databases.")
    var database: String

    @Option(help: "The TCP port; 0 picks a free one.")
    var port: UInt16 = 4984

    @Option(help: "The address to listen on; 0.0.0.0 for every interface.")
    var interface: String = "127.0.0.1"

    @Flag(help: "Refuse every document write (peers can only pull).")
    var readOnly = false

    @Option(help: "The user name clients must give (HTTP Basic); needs --password-file.")
    var user: String?

    @Option(help: "A file whose first line is the password for --user.")
    var passwordFile: String?

    @Flag(help: "Allow a non-loopback --interface without --user (anyone who can connect can read and write).")
    var insecureNoAuth = false

    @Option(help: "The largest request body accepted, in bytes (suffixes K, M, G).")
    var maxBody: String = "32M"

    @Option(help: "The most connections open at once; more wait until one closes.")
    var maxConnections: Int = 1000

    @Option(help: "Seconds a connection may do nothing before it is closed.")
    var idleTimeout: Double = 120

    @Option(
        help: "Seconds a request body may take beyond what --min-body-rate allows; a slower sender is disconnected.")
    var bodyTimeout: Double = 30

    @Option(help: "The bytes per second a request body must average after --body-timeout.")
    var minBodyRate: Int = 1024

    @Option(help: "Seconds a client may take no response bytes before it is disconnected.")
    var writeTimeout: Double = 60

    @Option(
        help: "A browser origin allowed to call the server with CORS (repeatable; '*' for any, without credentials).")
    var corsOrigin: [String] = []

    @Option(help: "Write an access log line per request (Common Log Format) to FILE, or '-' for standard output.")
    var log: String?

    @Option(
        help: ArgumentHelp(
            "keep: store a pushed conflicting revision as a conflict (CouchDB; the default for a folder); refuse: answer 409 (Couchbase Lite; the default for one database).",
            valueName: "keep|refuse"))
    var conflicts: String?

    @Flag(help: "Commit with synchronous=FULL: every acknowledged write survives a power loss (slower writes).")
    var fullSync = false

    @Option(help: "Serving a folder: the most databases kept open at once; the least recently used closes first.")
    var maxOpenDatabases: Int = 100

    @Flag(help: "Serving a folder: let clients create databases (PUT /<name>).")
    var createDatabases = false

    @Flag(help: "Serving a folder: let clients delete databases and their files (DELETE /<name>).")
    var allowDelete = false

    #if TLS
        @Option(help: "Serve HTTPS with the certificate (and any intermediates) in this PEM file; needs --tls-key.")
        var tlsCert: String?

        @Option(help: "The PEM file of the private key of --tls-cert.")
        var tlsKey: String?

        @Flag(
            help:
                "Serve HTTPS with a self-signed certificate (its fingerprint is printed), made on the first start and kept in --tls-identity-dir."
        )
        var tlsSelfSigned = false

        @Option(
            help:
                "The folder keeping --tls-self-signed's certificate and key (default: .quire-tls in the folder holding the databases)."
        )
        var tlsIdentityDir: String?
    #endif

    func validate() throws {
        if (user == nil) != (passwordFile == nil) {
            throw ValidationError("--user and --password-file go together.")
        }
        guard let isLoopback = ServeCommand.isLoopback(interface) else {
            throw ValidationError("--interface \(interface) does not resolve to an address to listen on.")
        }
        if user == nil, !insecureNoAuth, !isLoopback {
            throw ValidationError(
                "Listening on \(interface) without authentication lets anyone who can reach it read and write the database: give --user and --password-file, or --insecure-no-auth."
            )
        }
        if let user, user.isEmpty || user.contains(":") {
            throw ValidationError("--user must be a non-empty name without ':'.")
        }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1.") }
        guard maxOpenDatabases >= 1 else { throw ValidationError("--max-open-databases must be at least 1.") }
        guard idleTimeout > 0, idleTimeout <= 86_400 else {
            throw ValidationError("--idle-timeout must be more than 0 and at most 86400 seconds.")
        }
        guard bodyTimeout > 0, bodyTimeout <= 86_400 else {
            throw ValidationError("--body-timeout must be more than 0 and at most 86400 seconds.")
        }
        guard writeTimeout > 0, writeTimeout <= 86_400 else {
            throw ValidationError("--write-timeout must be more than 0 and at most 86400 seconds.")
        }
        guard minBodyRate >= 1 else { throw ValidationError("--min-body-rate must be at least 1 byte per second.") }
        _ = try ServeCommand.byteCount(maxBody)
        _ = try conflictRule(default: .keep)
        for origin in corsOrigin where origin != "*" && !(origin.hasPrefix("http://") || origin.hasPrefix("https://")) {
            throw ValidationError("--cors-origin '\(origin)' must be '*' or an origin such as https://app.example.com.")
        }
        #if TLS
            try validateTLS()
        #endif
    }

    /// `text` as a byte count: digits with an optional K, M or G (binary) suffix.
    static func byteCount(_ text: String) throws -> Int {
        var digits = text.trimmingCharacters(in: .whitespaces)
        var unit = 1
        if let last = digits.last, let scale = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30][last.lowercased()] {
            unit = scale
            digits.removeLast()
        }
        guard let value = Int(digits), value >= 0, value <= Int.max / unit else {
            throw ValidationError("'\(text)' is not a size in bytes (such as 1048576, 512K, 32M or 1G).")
        }
        return value * unit
    }

    /// The password: the first line of `path`, which must not be empty.
    static func password(from path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("Cannot read the password file \(path).")
        }
        warnIfExposed(path, what: "password file")
        let text = String(decoding: data, as: UTF8.self)
        // `isNewline`, not "\n": a Swift string reads "\r\n" as one character, so a file written
        // on Windows would otherwise become one long password.
        let line =
            text.split(maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: \.isNewline).first.map(
                String.init)
            ?? ""
        guard !line.isEmpty else { throw ValidationError("The password file \(path) has an empty first line.") }
        return line
    }

    /// An authenticator accepting `user` with `password`, comparing in time that does not
    /// depend on where the strings differ.
    static func authenticator(user: String, password: String) -> ListenerPasswordAuthenticator {
        let expected = Array("\(user):\(password)".utf8)
        return ListenerPasswordAuthenticator { name, given in
            let actual = Array("\(name):\(given)".utf8)
            var difference = UInt8(expected.count == actual.count ? 0 : 1)
            for index in 0..<max(expected.count, actual.count) {
                let left = index < expected.count ? expected[index] : 0
                let right = index < actual.count ? actual[index] : 0
                difference |= left ^ right
            }
            return difference == 0
        }
    }

    /// The access log `destination` names: standard output for `-`, else the file (created
    /// if missing, appended to).
    static func accessLog(_ destination: String) throws -> ListenerAccessLog {
        if destination == "-" { return ListenerAccessLog(fileHandle: .standardOutput) }
        if !FileManager.default.fileExists(atPath: destination) {
            guard FileManager.default.createFile(atPath: destination, contents: nil) else {
                throw ValidationError("Cannot create the log file \(destination).")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: destination) else {
            throw ValidationError("Cannot write the log file \(destination).")
        }
        handle.seekToEndOfFile()
        return ListenerAccessLog(fileHandle: handle)
    }

    func run() async throws {
        if let folder = try ServeCommand.databaseFolder(database) {
            try await serveFolder(folder)
            return
        }
        if createDatabases || allowDelete {
            throw ValidationError(
                "--create-databases and --allow-delete apply to a folder of databases, not to one database.")
        }
        let url = URL(fileURLWithPath: database)
        let (name, directory) =
            url.pathExtension == "quire"
            ? (url.deletingPathExtension().lastPathComponent, url.deletingLastPathComponent().path)
            : (database, FileManager.default.currentDirectoryPath)
        guard Database.exists(withName: name, inDirectory: directory) else {
            // A failure, not a misused command line: exit 1 as `quire db info` does, without usage.
            throw CommandFailure("No database '\(name)' in \(directory) (create one with: quire db create \(database))")
        }
        // Read before the database opens, so a bad file leaves nothing open.
        let (authenticator, accessLog) = try serverSettings()
        let opened = try Database(name: name, config: DatabaseConfiguration(directory: directory, fullSync: fullSync))
        // Every collection of every scope; the default collection first, at /<name>.
        let all = try opened.scopes().flatMap { try $0.collections() }
        let isDefault = { (collection: Collection) in
            collection.scope.name == Database.defaultScopeName && collection.name == Database.defaultCollectionName
        }
        let collections = all.filter(isDefault) + all.filter { !isDefault($0) }
        var config = URLEndpointListenerConfiguration(
            collections: collections, port: port, networkInterface: interface, readOnly: readOnly,
            authenticator: authenticator)
        config.conflicts = try conflictRule(default: .refuse)
        try applyLimits(to: &config, accessLog: accessLog)
        defer { try? opened.close() }
        try applyTLS(to: &config, folder: URL(fileURLWithPath: directory))
        let listener = URLEndpointListener(config: config)
        try await serveUntilSignalled(listener) {
            ($0.urls ?? []).map { "Serving \($0.absoluteString)\n" }.joined() + ServeCommand.tlsAnnouncement($0)
        }
        try opened.close()
    }

    /// Sets the limits the options give (`--max-body`, `--max-connections`, `--idle-timeout`,
    /// `--cors-origin`, `--body-timeout`, `--min-body-rate`, `--write-timeout`) and the access
    /// log on `config`.
    func applyLimits(to config: inout URLEndpointListenerConfiguration, accessLog: ListenerAccessLog?) throws {
        config.maxRequestBodySize = try ServeCommand.byteCount(maxBody)
        config.maxConnections = maxConnections
        config.idleTimeout = .milliseconds(Int64(idleTimeout * 1000))
        config.corsOrigins = corsOrigin
        config.accessLog = accessLog
        config.requestBodyTimeout = .milliseconds(Int64(bodyTimeout * 1000))
        config.responseWriteTimeout = .milliseconds(Int64(writeTimeout * 1000))
        config.minimumBodyRate = minBodyRate
    }

    /// What `--conflicts` asks for, `fallback` when it is not given.
    func conflictRule(
        default fallback: URLEndpointListenerConfiguration.Conflicts
    ) throws -> URLEndpointListenerConfiguration.Conflicts {
        guard let conflicts else { return fallback }
        guard let rule = URLEndpointListenerConfiguration.Conflicts(rawValue: conflicts) else {
            throw ValidationError("--conflicts must be keep or refuse, not '\(conflicts)'.")
        }
        return rule
    }

    /// The authenticator and access log the options ask for.
    func serverSettings() throws -> (ListenerPasswordAuthenticator?, ListenerAccessLog?) {
        var authenticator: ListenerPasswordAuthenticator?
        if let user, let passwordFile {
            authenticator = ServeCommand.authenticator(
                user: user, password: try ServeCommand.password(from: passwordFile))
        }
        return (authenticator, try log.map(ServeCommand.accessLog))
    }

    /// Starts `listener`, prints what `announce` says once it listens, and stops it on SIGINT
    /// or SIGTERM; returns once it has stopped (throws when it could not start).
    func serveUntilSignalled(
        _ listener: URLEndpointListener, announce: @escaping @Sendable (URLEndpointListener) -> String
    ) async throws {
        try await cancellingOnSignal {
            try await listener.start()
            FileHandle.standardOutput.write(Data(announce(listener).utf8))
            await Self.waitUntilCancelled()
            await listener.stop()
        }
    }
}
