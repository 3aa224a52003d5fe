import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore
import Quire
import QuireSync
import ServiceLifecycle

#if TLS
    import NIOSSL
#endif

/// Serves collections to peers over HTTP with the CouchDB replication protocol, so CouchDB
/// replicators, PouchDB and Quire's own replicator can push to and pull from them.
///
/// ```swift
/// let listener = URLEndpointListener(config: URLEndpointListenerConfiguration(
///     collections: [try database.defaultCollection()], port: 4984, networkInterface: "127.0.0.1"))
/// try await listener.start()
/// print(listener.urls ?? [])      // [http://127.0.0.1:4984/mydb]
/// await listener.stop()
/// ```
///
/// Each collection is at a keyspace path: `/<database name>` for the default collection,
/// `/<database name>.<scope>.<collection>` for the others. Besides the replication endpoints
/// (`_changes`, `_revs_diff`, `_bulk_get`, `_bulk_docs`, `_local`, `_ensure_full_commit`), it
/// answers what clients ask around replication: `GET /`, `GET /<db>`, `_all_docs`, and single
/// documents and attachments. Failures are CouchDB error objects with a 4xx or 5xx status;
/// no request can crash the server.
///
/// It serves plain HTTP unless ``URLEndpointListenerConfiguration/disableTLS`` is set to
/// false (Couchbase Lite's listener serves TLS by default); then it serves HTTPS with the
/// configured ``URLEndpointListenerConfiguration/tlsIdentity`` or a self-signed one, whose
/// certificate is ``tlsIdentity`` while running. A client that does not speak TLS to it is
/// disconnected. (HTTPS needs the package's `TLS` trait, on by default.)
public final class URLEndpointListener: Sendable {
    private struct Running {
        /// Runs `services` until it has shut down.
        let task: Task<Void, Never>
        /// The server, as a service group so it can be shut down gracefully.
        let services: ServiceGroup
        let port: UInt16
        let feeds: FeedRegistry
        let connections: ListenerChannel.Counter
        let bodyBudget: RequestBodyBudget
        let responseBudget: RequestBodyBudget
        #if TLS
            let identity: TLSIdentity?
        #endif
        /// Where the listener is registered with the databases it serves, to be stopped
        /// when one closes.
        var registrations: [(users: DatabaseUsers, id: UUID)] = []
    }

    /// How long ``stop()`` lets connections finish before cancelling them.
    static let shutdownGracePeriod: Duration = .seconds(5)

    /// The configuration the listener was made with.
    public let config: URLEndpointListenerConfiguration
    private let state = Locked((running: Running?.none, starting: false))
    #if TLS
        /// The self-signed identity made at the first start with TLS on and no identity
        /// configured, kept so that later starts present the same certificate.
        private let generatedIdentity = Locked(TLSIdentity?.none)

        /// The identity HTTPS is served with: the configured ``URLEndpointListenerConfiguration/tlsIdentity``
        /// or the self-signed one made at the first start. Nil while stopped or when TLS is
        /// disabled. Pin its ``TLSIdentity/certificatePEM`` or ``TLSIdentity/sha256Fingerprint``
        /// in a replicator (`ReplicatorConfiguration.pinnedServerCertificate`) to trust it.
        public var tlsIdentity: TLSIdentity? {
            state.withLock { $0.running?.identity }
        }
    #endif

    /// A listener for `config`; nothing listens until ``start()``.
    public init(config: URLEndpointListenerConfiguration) {
        self.config = config
    }

    /// The port being listened on; nil while stopped.
    public var port: UInt16? {
        state.withLock { $0.running?.port }
    }

    /// The connections open now and those answering a request; both 0 while stopped.
    public var status: ConnectionStatus {
        let counter = state.withLock { $0.running?.connections }
        return ConnectionStatus(
            connectionCount: UInt64(max(0, counter?.openCount ?? 0)),
            activeConnectionCount: UInt64(max(0, counter?.activeCount ?? 0)))
    }

    /// The number of longpoll and continuous `_changes` feeds in progress.
    var activeFeedCount: Int {
        state.withLock { $0.running?.feeds.count ?? 0 }
    }

    /// The number of connections accepted since the listener started (0 while stopped).
    var acceptedConnectionCount: Int {
        state.withLock { $0.running?.connections.acceptedCount ?? 0 }
    }

    /// The request-body bytes reserved by requests being read, and the requests waiting for
    /// room (0 while stopped).
    var bodyBudgetUse: (bytes: Int, waiting: Int) {
        guard let budget = state.withLock({ $0.running?.bodyBudget }) else { return (0, 0) }
        return (budget.inUse, budget.waiting)
    }

    /// The server-wide budget of streamed response bytes (nil while stopped).
    var responseBudget: RequestBodyBudget? {
        state.withLock { $0.running?.responseBudget }
    }

    /// The number of connections open now (0 while stopped).
    var openConnectionCount: Int {
        state.withLock { $0.running?.connections.openCount ?? 0 }
    }

    /// The URLs of the first served database, one per address the listener can be reached
    /// at (the configured interface, or every IPv4 address of the machine); nil while stopped.
    public var urls: [URL]? {
        guard let port, let first = config.collections.first else { return nil }
        let hosts: [String]
        if let interface = config.networkInterface, interface != "0.0.0.0" {
            hosts = [interface]
        } else {
            hosts = NetworkAddresses.ipv4()
        }
        let name =
            first.database.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? first.database.name
        return hosts.compactMap {
            URL(string: "\(urlScheme)://\($0.contains(":") ? "[\($0)]" : $0):\(port)/\(name)")
        }
    }

    /// `https` when the listener serves TLS, else `http`.
    var urlScheme: String {
        #if TLS
            return config.disableTLS ? "http" : "https"
        #else
            return "http"
        #endif
    }

    #if TLS
        /// The identity to serve with, making and keeping a self-signed one when none is
        /// configured; nil when TLS is disabled.
        private func identityToServe() throws -> TLSIdentity? {
            guard !config.disableTLS else { return nil }
            if let configured = config.tlsIdentity { return configured }
            return try generatedIdentity.withLock { generated in
                if let generated { return generated }
                let made = try TLSIdentity.selfSigned()
                generated = made
                return made
            }
        }
    #endif

    /// Starts listening; returns once the port is bound. Throws invalidParameter for a bad
    /// configuration (no collections, two collections at one keyspace, a limit that cannot
    /// work, already started) and a network error when the address cannot be bound.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for a bad configuration or a listener already
    ///   started; ``QuireError/Code/networkError`` (domain `.network`) when the address cannot be
    ///   bound.
    public func start() async throws {
        try state.withLock { state in
            guard state.running == nil, !state.starting else {
                throw QuireError(.invalidParameter, "the listener is already started")
            }
            state.starting = true
        }
        do {
            var started = try await launch()
            // Closing a served database stops the listener, as in Couchbase Lite.
            var closedDatabase: String?
            for database in Self.distinctDatabases(config.collections) {
                guard let id = database.users.add({ [weak self] in self?.stopInBackground() }) else {
                    closedDatabase = database.name
                    break
                }
                started.registrations.append((database.users, id))
            }
            if let closedDatabase {
                Self.unregister(started)
                await Self.shutDown(started)
                state.withLock { $0.starting = false }
                throw QuireError(.notOpen, "cannot serve database '\(closedDatabase)': it is closed")
            }
            state.withLock { state in
                state.running = started
                state.starting = false
            }
        } catch {
            state.withLock { $0.starting = false }
            throw error
        }
    }

    /// Stops listening: no new connection is accepted, open changes feeds end (continuous
    /// ones with their `last_seq` line), requests in progress are answered, then every
    /// connection closes. Returns once the server has shut down. Does nothing when not running.
    public func stop() async {
        guard let current = takeRunning() else { return }
        await Self.shutDown(current)
    }

    /// What ``stop()`` does when a served database closes: the listener is stopped at once
    /// (no port, no URLs) and shuts its server down in the background.
    private func stopInBackground() {
        guard let current = takeRunning() else { return }
        Task { await Self.shutDown(current) }
    }

    /// The running server, taken away so the listener reads as stopped; nil when none.
    private func takeRunning() -> Running? {
        let current = state.withLock { state -> Running? in
            defer { state.running = nil }
            return state.running
        }
        if let current { Self.unregister(current) }
        return current
    }

    private static func unregister(_ running: Running) {
        for (users, id) in running.registrations { users.remove(id) }
    }

    /// The databases of `collections`, each once.
    private static func distinctDatabases(_ collections: [Collection]) -> [Database] {
        var seen: Set<ObjectIdentifier> = []
        return collections.map(\.database).filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    private static func shutDown(_ current: Running) async {
        current.feeds.endAll()
        // Graceful shutdown closes the listening socket, lets every accepted connection finish
        // its request and then closes it. Cancelling the server task instead would drop the
        // connections accepted but not yet handed to a handler, and NIO stops the process when
        // their writers go away unfinished.
        await current.services.triggerGracefulShutdown()
        await current.task.value
    }

    private func launch() async throws -> Running {
        try config.validate()
        let keyspaces =
            config.databaseFolder != nil && config.collections.isEmpty
            ? Keyspaces() : try Keyspaces(collections: config.collections)
        let feeds = FeedRegistry()
        let responder = ListenerResponder(configuration: config, keyspaces: keyspaces, feeds: feeds)
        let host = config.networkInterface ?? "0.0.0.0"
        let requestedPort = Int(config.port ?? 0)
        let startup = StartupSignal()
        let connections = ListenerChannel.Counter()
        let (idleTimeout, headTimeout) = (config.idleTimeout, config.requestHeadTimeout)
        let writeTimeout = config.responseWriteTimeout
        let bodyClock = ListenerConnectionHandler.BodyClock(
            grace: TimeAmount(config.requestBodyTimeout), rate: config.minimumBodyRate)
        #if TLS
            let identity = try identityToServe()
            let clientCertificates = config.authenticator as? ListenerCertificateAuthenticator
            if clientCertificates != nil, identity == nil {
                // Without TLS no certificate would be checked: every client would be let in.
                throw QuireError(
                    .invalidParameter,
                    "a listener with a ListenerCertificateAuthenticator must serve TLS (disableTLS false)")
            }
            let tls: NIOSSLContext?
            do {
                tls = try identity?.serverContext(requestsClientCertificate: clientCertificates != nil)
            } catch {
                throw QuireError(.crypto, "cannot serve TLS with the listener's identity: \(error)")
            }
        #endif
        var application = Application(
            responder: CallbackResponder<ListenerContext> { request, context in
                await responder.respond(to: request, connection: context.channel)
            },
            server: HTTPServerBuilder { respond in
                var channel = ListenerChannel(
                    responder: respond, idleTimeout: idleTimeout, headTimeout: headTimeout, bodyClock: bodyClock,
                    writeTimeout: writeTimeout, counter: connections,
                    feeds: feeds)
                #if TLS
                    channel.tls = tls
                    channel.clientCertificates = clientCertificates
                #endif
                return channel
            },
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: requestedPort), serverName: "Quire/\(QuireSync.version)",
                // Beyond the cap the server stops accepting: clients wait in the accept
                // queue until a connection closes.
                availableConnectionsDelegate: MaximumAvailableConnections(config.maxConnections)),
            onServerRunning: { channel in
                startup.succeed(port: UInt16(clamping: channel.localAddress?.port ?? requestedPort))
            })
        // Failures reach clients as responses; connections a shutdown cuts short are expected.
        application.logger.logLevel = .critical
        var groupConfiguration = ServiceGroupConfiguration(services: [application], logger: application.logger)
        // A connection still busy this long after stop() (a request body that never ends) is
        // cancelled; by then the server no longer accepts, so no connection is left unhandled.
        groupConfiguration.maximumGracefulShutdownDuration = URLEndpointListener.shutdownGracePeriod
        let services = ServiceGroup(configuration: groupConfiguration)
        let work = responder.work
        let task = Task {
            let problem: String
            do {
                try await services.run()
                problem = "the listener on \(host):\(requestedPort) ended before it started"
            } catch {
                problem = "cannot listen on \(host):\(requestedPort): \(error)"
            }
            // The server has stopped: its database threads end once their work is done.
            work.shutdown()
            // Ignored once the server has started: the signal settles once.
            startup.fail(QuireError(.networkError, problem, domain: .network))
        }
        do {
            let port = try await startup.value()
            #if TLS
                return Running(
                    task: task, services: services, port: port, feeds: feeds, connections: connections,
                    bodyBudget: responder.bodyBudget, responseBudget: responder.responseBudget, identity: identity)
            #else
                return Running(
                    task: task, services: services, port: port, feeds: feeds, connections: connections,
                    bodyBudget: responder.bodyBudget, responseBudget: responder.responseBudget)
            #endif
        } catch {
            task.cancel()
            await task.value
            throw error
        }
    }
}
