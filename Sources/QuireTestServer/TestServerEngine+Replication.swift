import Foundation
import Quire
import QuireListener
import QuireSync

extension TestServerEngine {
    /// `/startReplicator`: a replicator to a CouchDB-protocol peer, started; its ID. As
    /// `/quire/v1/startReplicator` (`retries`), the config may also bound a failing run:
    /// `maxAttempts` and `maxAttemptWaitTime` (seconds).
    func startReplicator(_ request: RequestObject, retries: Bool = false) throws -> TestServerResponse {
        let config = try request.object("config")
        let reset = try request.optionalBool("reset") ?? false
        let (name, database) = try database(config)
        let endpoint = try config.string("endpoint")
        guard let url = URL(string: endpoint), let scheme = url.scheme?.lowercased(), url.host != nil else {
            throw TestServerError.request("'config.endpoint' '\(endpoint)' is not a URL")
        }
        var unreachable: TestServerError?
        switch scheme {
        case "http", "https": break
        case "ws", "wss":
            // As a Couchbase Lite replicator whose peer cannot be reached, it starts and stops
            // at once with an error: the message says why.
            unreachable = TestServerError.request(
                "'config.endpoint' '\(endpoint)' is a Sync Gateway (BLIP over WebSocket) endpoint; Quire's replicator "
                    + "speaks the CouchDB replication protocol: give the http:// or https:// URL of a CouchDB-protocol "
                    + "peer (a /startListener listener, quire serve, CouchDB)")
        default:
            throw TestServerError.request("'config.endpoint' '\(endpoint)' must be an http:// or https:// URL")
        }
        if config.value("pinnedServerCert") != nil {
            throw TestServerError.request(
                "'config.pinnedServerCert': certificate pinning is not supported by Quire's replicator")
        }
        var replication = ReplicatorConfiguration(target: URLEndpoint(url: url))
        if let type = try config.optionalString("replicatorType") {
            switch type.lowercased() {
            case "pushandpull": replication.replicatorType = .pushAndPull
            case "push": replication.replicatorType = .push
            case "pull": replication.replicatorType = .pull
            default:
                throw TestServerError.request(
                    "'config.replicatorType' must be pushAndPull, push or pull, not '\(type)'")
            }
        }
        replication.continuous = try config.optionalBool("continuous") ?? false
        if retries {
            if let attempts = try config.optionalInt("maxAttempts") {
                guard attempts >= 1 else { throw TestServerError.request("'config.maxAttempts' must be at least 1") }
                replication.maxAttempts = UInt(attempts)
            }
            if let wait = try config.optionalInt("maxAttemptWaitTime") {
                guard wait >= 0 else { throw TestServerError.request("'config.maxAttemptWaitTime' cannot be negative") }
                replication.maxAttemptWaitTime = TimeInterval(wait)
            }
        }
        replication.enableAutoPurge = try config.optionalBool("enableAutoPurge") ?? true
        if let headers = try config.optionalObject("headers") {
            replication.headers = try Dictionary(
                uniqueKeysWithValues: headers.members.keys.map { ($0, try headers.string($0)) })
        }
        if let authenticator = try config.optionalObject("authenticator") {
            let type = try authenticator.string("type")
            switch type.uppercased() {
            case "BASIC":
                replication.authenticator = BasicAuthenticator(
                    username: try authenticator.string("username"), password: try authenticator.string("password"))
            case "SESSION":
                let session = try authenticator.string("sessionID")
                replication.authenticator =
                    try authenticator.optionalString("cookieName").map {
                        SessionAuthenticator(sessionID: session, cookieName: $0)
                    }
                    ?? SessionAuthenticator(sessionID: session)
            default:
                throw TestServerError.request("'config.authenticator.type' must be BASIC or SESSION, not '\(type)'")
            }
        }
        let entries = config.value("collections") == nil ? [] : try config.objects("collections")
        if entries.isEmpty {
            replication.addCollection(try database.defaultCollection())
        }
        for entry in entries {
            for key in ["pushFilter", "pullFilter"] where entry.value(key) != nil {
                throw TestServerError.request(
                    "'\(entry.name(key))': predefined filters are not supported by Quire's test server")
            }
            let names = try entry.strings("names")
            guard !names.isEmpty else { throw TestServerError.request("'\(entry.name("names"))' is empty") }
            var settings = CollectionConfiguration()
            settings.channels = try entry.optionalStrings("channels")
            settings.documentIDs = try entry.optionalStrings("documentIDs")
            if let resolver = try entry.optionalObject("conflictResolver") {
                settings.conflictResolver = try PredefinedConflictResolver(resolver)
            }
            for collectionName in names {
                let path = try CollectionPath(collectionName)
                replication.addCollection(try path.existing(in: database, databaseName: name), config: settings)
            }
        }
        let id = UUID().uuidString.lowercased()
        if let unreachable {
            replicators[id] = ReplicatorRecord(failure: unreachable)
            return .json(.object(["id": .string(id)]))
        }
        let record = ReplicatorRecord(
            replicator: Replicator(config: replication),
            collectsDocuments: try config.optionalBool("enableDocumentListener") ?? false)
        replicators[id] = record
        record.replicator?.start(reset: reset)
        return .json(.object(["id": .string(id)]))
    }

    /// The replicator a request's `id` names, or a 400.
    func replicatorRecord(_ request: RequestObject) throws -> ReplicatorRecord {
        let id = try request.string("id")
        guard let record = replicators[id] else { throw TestServerError.request("replicator '\(id)' not found") }
        return record
    }

    /// `/getReplicatorStatus`.
    func replicatorStatus(_ request: RequestObject) throws -> TestServerResponse {
        .json(try replicatorRecord(request).status())
    }

    /// `/stopReplicator`: stops it for good.
    func stopReplicator(_ request: RequestObject) throws -> TestServerResponse {
        try replicatorRecord(request).replicator?.stop()
        return .ok
    }

    /// `/startListener`: serves collections over the CouchDB replication protocol (plain HTTP).
    func startListener(_ request: RequestObject) async throws -> TestServerResponse {
        let (name, database) = try database(request)
        let names = try request.strings("collections")
        guard !names.isEmpty else {
            throw TestServerError.request("'collections' is empty: a listener needs at least one")
        }
        let disableTLS = try request.optionalBool("disableTLS") ?? false
        if request.value("identity") != nil || !disableTLS {
            throw TestServerError.request(
                "Quire's listener serves plain HTTP only: TLS is not supported; send \"disableTLS\": true and no identity"
            )
        }
        let port = try request.optionalInt("port") ?? 0
        guard (0...65_535).contains(port) else { throw TestServerError.request("'port' \(port) is not a TCP port") }
        let collections = try names.map { try CollectionPath($0).existing(in: database, databaseName: name) }
        let listener = URLEndpointListener(
            config: URLEndpointListenerConfiguration(
                collections: collections, port: UInt16(port), networkInterface: configuration.interface))
        try await listener.start()
        let id = UUID().uuidString.lowercased()
        listeners[id] = listener
        return .json(.object(["id": .string(id), "port": .int(Int64(listener.port ?? 0))]))
    }

    /// `/stopListener`.
    func stopListener(_ request: RequestObject) async throws -> TestServerResponse {
        let id = try request.string("id")
        guard let listener = listeners.removeValue(forKey: id) else {
            throw TestServerError.request("listener '\(id)' not found")
        }
        await listener.stop()
        return .ok
    }
}
