import Foundation
import Hummingbird
import NIOCore
import Quire
import QuireSync

/// Answers every request of a listener: CORS preflights, then authenticates, routes, reads
/// the body within the size limit and the in-flight budget, runs the endpoint, and turns
/// every failure into a CouchDB error response; then adds the CORS headers and logs the
/// request.
///
/// Every answer leaves the connection usable for the next request, or says
/// `Connection: close` (and the connection closes after it): an error answered before a
/// large or unbounded body was read closes rather than reading that body to its end.
struct ListenerResponder: Sendable {
    let configuration: URLEndpointListenerConfiguration
    let keyspaces: Keyspaces
    let feeds: FeedRegistry
    let bodyBudget: RequestBodyBudget
    /// The bytes of streamed responses (`_all_docs`, `_bulk_get`) and of large documents
    /// being written (see ``ResponseReservation``) held at once, server-wide: as many as the
    /// in-flight body budget.
    let responseBudget: RequestBodyBudget
    let cors: CORSPolicy
    /// Cross-site and DNS-rebinding refusals.
    let webPolicy: WebRequestPolicy
    /// The threads that run the endpoints' database work, off the cooperative pool.
    let work: DatabaseWork
    /// The cookie sessions `/_session` logs in.
    let sessions = ListenerSessions()

    /// Bodies up to this size are read without a reservation, and an error answered before
    /// reading one keeps the connection (the server reads and drops it).
    static let smallBodySize = 64 * 1024

    init(configuration: URLEndpointListenerConfiguration, keyspaces: Keyspaces, feeds: FeedRegistry) {
        self.configuration = configuration
        self.keyspaces = keyspaces
        self.feeds = feeds
        bodyBudget = RequestBodyBudget(total: max(configuration.maxInFlightBodyBytes, configuration.maxRequestBodySize))
        responseBudget = RequestBodyBudget(total: max(configuration.maxInFlightBodyBytes, StreamedRows.batchBytes))
        cors = CORSPolicy(origins: configuration.corsOrigins)
        #if TLS
            let scheme = configuration.disableTLS ? "http" : "https"
        #else
            let scheme = "http"
        #endif
        webPolicy = WebRequestPolicy(configuration: configuration, cors: cors, scheme: scheme)
        work = DatabaseWork()
    }

    func respond(to request: Request, connection: (any Channel)? = nil) async -> Response {
        let arrived = Date()
        var user: String?
        var response: Response
        if let preflight = cors.preflight(request) {
            response = preflight
        } else {
            response = await answer(request, connection: connection, user: &user)
        }
        cors.decorate(&response, origin: request.headers[.origin])
        // The path alone: a query string may carry secrets.
        Log.write(.listener, .verbose, "\(request.method.rawValue) \(request.uri.path): \(response.status.code)")
        if let log = configuration.accessLog {
            let client = connection?.remoteAddress?.ipAddress
            let method = request.method.rawValue
            let target = request.uri.description
            let status = response.status.code
            let loggedUser = user
            response = log.recording(response) { bytes in
                ListenerAccessLog.line(
                    client: client, user: loggedUser, time: arrived, method: method, target: target, status: status,
                    bytes: bytes)
            }
        }
        return response
    }

    private func answer(_ request: Request, connection: (any Channel)?, user: inout String?) async -> Response {
        var request = request
        var reserved = 0
        defer { bodyBudget.release(reserved) }
        var bodyRead = false
        do {
            try webPolicy.check(request)
            if request.uri.path == "/_up", request.method == .get || request.method == .head {
                let response = ServerEndpoints.up()
                return request.method == .head ? response.createHeadResponse() : response
            }
            if request.uri.path == "/_session" {
                // Logging in needs no credentials; the answer says whether there were any.
                let credentials = try sessionCredentials(request.headers)
                user = credentials.user
                reserved = try await reserveBody(request.headers)
                let body = try await readBody(&request, reserved: &reserved)
                bodyRead = true
                let response = try sessionEndpoint.respond(
                    method: request.method, headers: request.headers, body: body, credentials: credentials)
                return request.method == .head ? response.createHeadResponse() : response
            }
            user = try authenticate(request.headers)
            if configuration.databaseFolder != nil {
                // Listing, creating and deleting databases touch files: off the cooperative pool.
                let responder = self
                let writing = request.method != .get && request.method != .head
                let folderRequest = request
                if let response = try await work.run(
                    writing: writing, { try responder.databaseFolderResponse(folderRequest) })
                {
                    return response
                }
            }
            let route = try ListenerRoute(path: request.uri.path)
            guard route.allowedMethods.contains(request.method) else {
                throw HTTPFailure.methodNotAllowed(route.allowedMethods)
            }
            let method: HTTPRequest.Method = request.method == .head ? .get : request.method
            if configuration.readOnly, route.isDocumentWrite(method) { throw HTTPFailure.readOnly }
            try WebRequestPolicy.checkJSONContentType(request.headers, route: route, method: method)
            reserved = try await reserveBody(request.headers)
            let body = try await readBody(&request, reserved: &reserved)
            bodyRead = true
            let listenerRequest = ListenerRequest(
                method: method, query: try QueryParameters(request.uri.query), headers: request.headers, body: body,
                raw: request, connection: connection)
            let response = try await dispatch(route, listenerRequest)
            return request.method == .head ? response.createHeadResponse() : response
        } catch {
            var response = JSONResponse.failure(HTTPFailure.from(error))
            if !bodyRead, ListenerResponder.mayHoldLargeBody(request.headers) {
                // Reading a large or endless body only to drop it would hold the connection
                // (and the client) for nothing: say so and close instead.
                response.headers[.connection] = "close"
            }
            return response
        }
    }

    /// Whether the request may still have more than ``smallBodySize`` bytes of body unread.
    private static func mayHoldLargeBody(_ headers: HTTPFields) -> Bool {
        if let declared = headers[.contentLength] {
            guard let length = Int(declared) else { return true }
            return length > smallBodySize
        }
        return headers[.transferEncoding] != nil
    }

    /// Runs the endpoint; its database work goes to ``work``'s threads (writes to the writer
    /// threads), so no handler blocks a cooperative thread.
    private func dispatch(_ route: ListenerRoute, _ request: ListenerRequest) async throws -> Response {
        let keyspaces = self.keyspaces
        guard let keyspace = route.keyspace else {
            return try await work.read { try ServerEndpoints.welcome(keyspaces: keyspaces) }
        }
        let served: ServedCollection?
        if configuration.databaseFolder == nil {
            served = keyspaces.resolve(keyspace)
        } else {
            // A folder's database may be opened here, which touches files.
            let responder = self
            served = try await work.read { try responder.resolveKeyspace(keyspace) }
        }
        guard let served else {
            throw HTTPFailure.notFound("Database does not exist.")
        }
        let writing = route.isDocumentWrite(request.method)
        let conflicts = configuration.conflicts
        let streaming = ResponseStreaming(work: work, budget: responseBudget)
        switch route {
        case .root: return try await work.read { try ServerEndpoints.welcome(keyspaces: keyspaces) }
        case .database where request.method == .post:
            return try await work.write { try DocumentEndpoint.post(request, served: served, conflicts: conflicts) }
        case .database: return try await work.read { try ServerEndpoints.database(served) }
        case .changes:
            return try await ChangesEndpoint(
                served: served, feeds: feeds, maxTimeout: configuration.maxFeedTimeout, work: work
            ).respond(request)
        case .revsDiff: return try await work.read { try BulkEndpoints(served: served).revsDiff(request) }
        case .bulkGet:
            return try await work.read { try BulkEndpoints(served: served, streaming: streaming).bulkGet(request) }
        case .bulkDocs:
            return try await work.write { try BulkEndpoints(served: served, conflicts: conflicts).bulkDocs(request) }
        case .ensureFullCommit: return try await work.read { try BulkEndpoints(served: served).ensureFullCommit() }
        case .allDocs:
            return try await work.read { try AllDocsEndpoint(served: served, streaming: streaming).respond(request) }
        case .localDocument(_, let id):
            return try await work.run(writing: writing) {
                try LocalDocumentEndpoint(served: served, id: id).respond(request)
            }
        case .document(_, let id) where request.method == .get:
            return try await budgeted(served, id: id) {
                try DocumentEndpoint(served: served, id: id, conflicts: conflicts).respond(request)
            }
        case .document(_, let id):
            return try await work.run(writing: writing) {
                try DocumentEndpoint(served: served, id: id, conflicts: conflicts).respond(request)
            }
        case .attachment(_, let id, let name):
            return try await budgeted(served, id: id) {
                try DocumentEndpoint(served: served, id: id).attachment(name, request: request)
            }
        }
    }

    private var sessionEndpoint: SessionEndpoint {
        #if TLS
            let secure = !configuration.disableTLS
        #else
            let secure = false
        #endif
        return SessionEndpoint(authenticator: configuration.passwordAuthenticator, sessions: sessions, secure: secure)
    }

    /// 401 unless the request has a session cookie from `/_session` or Basic credentials
    /// that pass the authenticator (when there is one); the user name when it does.
    private func authenticate(_ headers: HTTPFields) throws -> String? {
        guard configuration.passwordAuthenticator != nil else { return nil }
        guard let user = try sessionCredentials(headers).user else { throw HTTPFailure.unauthorized }
        return user
    }

    /// How the request authenticates: a live session cookie, else Basic credentials (401
    /// when they are given and wrong), else none.
    private func sessionCredentials(_ headers: HTTPFields) throws -> SessionEndpoint.Credentials {
        if let token = ListenerSessions.token(in: headers[values: .cookie]), let user = sessions.user(token: token) {
            return .cookie(user)
        }
        guard headers[.authorization] != nil else { return .none }
        return try basicUser(headers).map { .basic($0) } ?? .none
    }

    /// The user of the request's Basic credentials: 401 unless they pass the authenticator;
    /// nil when there is no authenticator (every request is let in).
    private func basicUser(_ headers: HTTPFields) throws -> String? {
        guard let authenticator = configuration.passwordAuthenticator else { return nil }
        guard let header = headers[.authorization] else { throw HTTPFailure.unauthorized }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let credentials = String(data: decoded, encoding: .utf8),
            let colon = credentials.firstIndex(of: ":")
        else { throw HTTPFailure.unauthorized }
        let username = String(credentials[..<colon])
        let password = String(credentials[credentials.index(after: colon)...])
        guard authenticator.authenticate(username: username, password: password) else { throw HTTPFailure.unauthorized }
        return username
    }

    /// Reserves room in the in-flight budget for a body whose `Content-Length` is larger than
    /// ``smallBodySize``, waiting for it; 413 at once for a declared size over the limit.
    /// Returns the bytes reserved. (A chunked body is charged as it arrives, by ``readBody(_:reserved:)``.)
    private func reserveBody(_ headers: HTTPFields) async throws -> Int {
        let limit = configuration.maxRequestBodySize
        let size: Int
        if let declared = headers[.contentLength] {
            guard let length = Int(declared), length >= 0 else { return 0 }
            if length > limit { throw HTTPFailure.tooLarge(limit: limit) }
            size = length
        } else {
            return 0
        }
        guard size > ListenerResponder.smallBodySize else { return 0 }
        return try await bodyBudget.reserve(size)
    }

    /// The body, at most `maxRequestBodySize` bytes (413 beyond, before reading when
    /// `Content-Length` already says so), decoded when gzipped (the limit applies to both
    /// the bytes received and the decoded ones; 415 for a coding other than gzip).
    ///
    /// A body without `Content-Length` (chunked) is charged to the in-flight budget by the
    /// bytes received beyond ``smallBodySize``, at least that many at a time, added to
    /// `reserved`: a trickling body holds what it sent, not the whole limit.
    ///
    /// `request.body` is replaced by the bytes read (an empty body when there is none to
    /// read), as Hummingbird's `collectBody` does.
    private func readBody(_ request: inout Request, reserved: inout Int) async throws -> [UInt8] {
        let limit = configuration.maxRequestBodySize
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw HTTPFailure.tooLarge(limit: limit)
        }
        _ = try RequestBodyDecoder.coding(request.headers)
        guard
            request.method == .post || request.method == .put || request.headers[.contentLength] != nil
                || request.headers[.transferEncoding] != nil
        else {
            request.body = RequestBody(buffer: ByteBuffer())
            return []
        }
        let chargedByReceipt = request.headers[.contentLength] == nil
        var bytes: [UInt8] = []
        do {
            for try await buffer in request.body {
                guard bytes.count + buffer.readableBytes <= limit else { throw HTTPFailure.tooLarge(limit: limit) }
                let received = bytes.count + buffer.readableBytes
                if chargedByReceipt, received > ListenerResponder.smallBodySize, received > reserved {
                    reserved += try await bodyBudget.reserve(max(received - reserved, ListenerResponder.smallBodySize))
                }
                bytes.append(contentsOf: buffer.readableBytesView)
            }
        } catch let failure as HTTPFailure {
            throw failure
        } catch {
            // Broken framing (a bad chunk size, a connection closed mid-body) is the client's fault.
            throw HTTPFailure.badRequest("The request body could not be read: \(error)")
        }
        bytes = try RequestBodyDecoder.decode(bytes, headers: request.headers, limit: limit)
        request.body = RequestBody(buffer: ByteBuffer(bytes: bytes))
        return bytes
    }
}
