import Foundation
import Hummingbird
import Quire

/// Answers every request of a listener: authenticates, routes, reads the body within the
/// size limit, runs the endpoint, and turns every failure into a CouchDB error response.
struct ListenerResponder: Sendable {
    let configuration: URLEndpointListenerConfiguration
    let keyspaces: Keyspaces
    let feeds: FeedRegistry

    func respond(to request: Request) async -> Response {
        var request = request
        do {
            try authenticate(request.headers)
            let route = try ListenerRoute(path: request.uri.path)
            guard route.allowedMethods.contains(request.method) else {
                throw HTTPFailure.methodNotAllowed(route.allowedMethods)
            }
            let method: HTTPRequest.Method = request.method == .head ? .get : request.method
            if configuration.readOnly, route.isDocumentWrite(method) { throw HTTPFailure.readOnly }
            let body = try await readBody(&request)
            let listenerRequest = ListenerRequest(
                method: method, query: try QueryParameters(request.uri.query), headers: request.headers, body: body,
                raw: request)
            let response = try await dispatch(route, listenerRequest)
            return request.method == .head ? response.createHeadResponse() : response
        } catch {
            return JSONResponse.failure(HTTPFailure.from(error))
        }
    }

    private func dispatch(_ route: ListenerRoute, _ request: ListenerRequest) async throws -> Response {
        guard let keyspace = route.keyspace else { return try ServerEndpoints.welcome(keyspaces: keyspaces) }
        guard let served = keyspaces.resolve(keyspace) else {
            throw HTTPFailure.notFound("Database does not exist.")
        }
        switch route {
        case .root: return try ServerEndpoints.welcome(keyspaces: keyspaces)
        case .database: return try ServerEndpoints.database(served)
        case .changes:
            return try await ChangesEndpoint(served: served, feeds: feeds, maxTimeout: configuration.maxFeedTimeout)
                .respond(request)
        case .revsDiff: return try BulkEndpoints(served: served).revsDiff(request)
        case .bulkGet: return try BulkEndpoints(served: served).bulkGet(request)
        case .bulkDocs: return try BulkEndpoints(served: served).bulkDocs(request)
        case .ensureFullCommit: return BulkEndpoints.ensureFullCommit()
        case .allDocs: return try AllDocsEndpoint(served: served).respond(request)
        case .localDocument(_, let id): return try LocalDocumentEndpoint(served: served, id: id).respond(request)
        case .document(_, let id): return try DocumentEndpoint(served: served, id: id).respond(request)
        case .attachment(_, let id, let name):
            return try DocumentEndpoint(served: served, id: id).attachment(name, request: request)
        }
    }

    /// 401 unless the Basic credentials pass the authenticator (when there is one).
    private func authenticate(_ headers: HTTPFields) throws {
        guard let authenticator = configuration.authenticator else { return }
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
    }

    /// The body, at most `maxRequestBodySize` bytes (413 beyond, before reading when
    /// `Content-Length` already says so).
    ///
    /// `request.body` is replaced by the bytes read (an empty body when there is none to
    /// read), as Hummingbird's `collectBody` does. A streamed feed then watches the client
    /// with `consumeWithCancellationOnInboundClose`, which sees the request's end in memory
    /// and so always finishes its inner stream; on a body already read from the connection it
    /// could wait for an end that never comes and leave that stream unfinished, which stops
    /// the process.
    private func readBody(_ request: inout Request) async throws -> [UInt8] {
        let limit = configuration.maxRequestBodySize
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw HTTPFailure.tooLarge(limit: limit)
        }
        guard request.method == .post || request.method == .put || request.headers[.contentLength] != nil
            || request.headers[.transferEncoding] != nil
        else {
            request.body = RequestBody(buffer: ByteBuffer())
            return []
        }
        var bytes: [UInt8] = []
        do {
            for try await buffer in request.body {
                guard bytes.count + buffer.readableBytes <= limit else { throw HTTPFailure.tooLarge(limit: limit) }
                bytes.append(contentsOf: buffer.readableBytesView)
            }
        } catch let failure as HTTPFailure {
            throw failure
        } catch {
            // Broken framing (a bad chunk size, a connection closed mid-body) is the client's fault.
            throw HTTPFailure.badRequest("The request body could not be read: \(error)")
        }
        request.body = RequestBody(buffer: ByteBuffer(bytes: bytes))
        return bytes
    }
}
