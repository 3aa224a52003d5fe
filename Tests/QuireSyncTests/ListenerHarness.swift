import Foundation
import Quire

@testable import QuireListener
@testable import QuireSync

/// A database in a temporary folder, served by a listener on 127.0.0.1 and an ephemeral port.
final class ListenerHarness: @unchecked Sendable {
    let directory: URL
    let database: Database
    let collection: Collection
    let listener: URLEndpointListener
    let client: TestHTTPClient

    /// The listener's base URL, `http://127.0.0.1:<port>`.
    var baseURL: URL { client.baseURL }

    init(
        name: String = "db", readOnly: Bool = false, authenticator: ListenerPasswordAuthenticator? = nil,
        maxRequestBodySize: Int = 32 * 1024 * 1024, extraCollections: [(scope: String, name: String)] = [],
        adjust: (inout URLEndpointListenerConfiguration) -> Void = { _ in }
    ) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("quire-listener-\(UUID().uuidString)")
        database = try Database(name: name, config: DatabaseConfiguration(directory: directory.path))
        collection = try database.defaultCollection()
        var collections = [collection]
        for extra in extraCollections {
            collections.append(try database.createCollection(name: extra.name, scope: extra.scope))
        }
        var config = URLEndpointListenerConfiguration(
            collections: collections, networkInterface: "127.0.0.1", readOnly: readOnly,
            authenticator: authenticator)
        config.maxRequestBodySize = maxRequestBodySize
        adjust(&config)
        listener = URLEndpointListener(config: config)
        try await listener.start()
        let port = listener.port ?? 0
        client = TestHTTPClient(baseURL: URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/"))
    }

    /// Stops the listener, closes the database and removes its folder.
    func shutdown() async {
        await listener.stop()
        try? database.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `body` with a fresh harness, always shutting it down.
    @discardableResult
    static func with<T>(
        readOnly: Bool = false, authenticator: ListenerPasswordAuthenticator? = nil,
        maxRequestBodySize: Int = 32 * 1024 * 1024, extraCollections: [(scope: String, name: String)] = [],
        adjust: (inout URLEndpointListenerConfiguration) -> Void = { _ in },
        _ body: (ListenerHarness) async throws -> T
    ) async throws -> T {
        let harness = try await ListenerHarness(
            readOnly: readOnly, authenticator: authenticator, maxRequestBodySize: maxRequestBodySize,
            extraCollections: extraCollections, adjust: adjust)
        do {
            let result = try await body(harness)
            await harness.shutdown()
            return result
        } catch {
            await harness.shutdown()
            throw error
        }
    }

    /// Saves a document with `json` as its body through the store API.
    @discardableResult
    func save(_ id: String, _ json: String) throws -> MutableDocument {
        let document = try MutableDocument(id: id, json: json)
        try collection.save(document: document)
        return document
    }
}
