import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore
import Quire
import ServiceLifecycle

/// Quire as a Couchbase Lite test server: the test-kit REST API (`couchbase-lite-tests`,
/// API version 2) over HTTP, so the test kit's clients, and `quire conform --engine testkit:`,
/// drive Quire as they drive any Couchbase Lite.
///
/// ```swift
/// let server = TestServer(configuration: TestServerConfiguration(port: 8080, datasetRoot: datasets))
/// try await server.start()
/// // POST http://127.0.0.1:8080/newSession, /reset, /updateDatabase ...
/// await server.stop()
/// ```
///
/// Every response carries `CBLTest-API-Version` and `CBLTest-Server-ID`; failures are the
/// protocol's error object (`domain`, `code`, `message`) with status 400, 404 or 500.
public final class TestServer: Sendable {
    private struct Running: Sendable {
        let task: Task<Void, Never>
        let services: ServiceGroup
        let port: UInt16
    }

    /// The largest request body read; larger ones get 400.
    static let maximumBodySize = 64 * 1024 * 1024

    /// The configuration the server was made with.
    public let configuration: TestServerConfiguration
    /// The endpoints and their state.
    public let engine: TestServerEngine
    private let running = Locked<Running?>(nil)

    /// A server for `configuration`; nothing listens until ``start()``.
    public init(configuration: TestServerConfiguration) {
        self.configuration = configuration
        engine = TestServerEngine(configuration: configuration)
    }

    /// The port being listened on; nil while stopped.
    public var port: UInt16? { running.withLock { $0?.port } }

    /// Starts listening; returns once the port is bound. Throws a network error when the
    /// address cannot be bound, invalidParameter when already started.
    public func start() async throws {
        guard running.withLock({ $0 == nil }) else {
            throw QuireError(.invalidParameter, "the test server is already started")
        }
        try FileManager.default.createDirectory(at: configuration.directory, withIntermediateDirectories: true)
        let engine = engine
        let (host, requestedPort) = (configuration.interface, Int(configuration.port))
        let (started, continuation) = AsyncStream<Result<UInt16, QuireError>>.makeStream()
        var application = Application(
            responder: CallbackResponder<BasicRequestContext> { request, _ in
                await TestServer.respond(to: request, engine: engine)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: requestedPort), serverName: "Quire-TestServer/\(QuireVersion.current)"),
            onServerRunning: { channel in
                continuation.yield(.success(UInt16(clamping: channel.localAddress?.port ?? requestedPort)))
            })
        application.logger.logLevel = .critical
        var groupConfiguration = ServiceGroupConfiguration(services: [application], logger: application.logger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(5)
        let services = ServiceGroup(configuration: groupConfiguration)
        let task = Task {
            let problem: String
            do {
                try await services.run()
                problem = "the test server on \(host):\(requestedPort) ended before it started"
            } catch {
                problem = "cannot listen on \(host):\(requestedPort): \(error)"
            }
            continuation.yield(.failure(QuireError(.networkError, problem, domain: .network)))
            continuation.finish()
        }
        var outcome: Result<UInt16, QuireError> = .failure(
            QuireError(.networkError, "the test server did not start", domain: .network))
        for await first in started {
            outcome = first
            break
        }
        switch outcome {
        case .success(let port):
            running.withLock { $0 = Running(task: task, services: services, port: port) }
        case .failure(let error):
            task.cancel()
            await task.value
            throw error
        }
    }

    /// Stops listening, stops the replicators and listeners it started and deletes its
    /// databases. Does nothing when not running.
    public func stop() async {
        guard
            let current = running.withLock({ running -> Running? in
                defer { running = nil }
                return running
            })
        else { return }
        await current.services.triggerGracefulShutdown()
        await current.task.value
        await engine.shutdown()
    }

    private static func respond(to request: Request, engine: TestServerEngine) async -> Response {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let answer: TestServerResponse
        var request = request
        do {
            let buffer = try await request.collectBody(upTo: maximumBodySize)
            answer = await engine.respond(
                method: request.method.rawValue, path: request.uri.path, headers: headers,
                body: Array(buffer.readableBytesView))
        } catch {
            answer = .failure(.request("cannot read the request body (at most \(maximumBodySize) bytes): \(error)"))
        }
        var fields = HTTPFields()
        if let name = HTTPFields.Element.Name(TestServerEngine.versionHeader) {
            fields[name] = String(engine.spokenVersion)
        }
        if let name = HTTPFields.Element.Name(TestServerEngine.serverHeader) { fields[name] = engine.serverID }
        fields[.cacheControl] = "no-cache, no-store, must-revalidate, private, max-age=0"
        guard let body = answer.body, let bytes = try? JSONWriter.bytes(body) else {
            fields[.contentLength] = "0"
            return Response(status: HTTPResponse.Status(code: answer.status), headers: fields, body: ResponseBody())
        }
        fields[.contentType] = "application/json"
        return Response(
            status: HTTPResponse.Status(code: answer.status), headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
