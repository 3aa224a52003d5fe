import Foundation
import Quire

@testable import QuireListener
@testable import QuireSync

/// A database served by a ``URLEndpointListener`` on 127.0.0.1.
final class ListeningPeer: @unchecked Sendable {
    let store: SyncTestDatabase
    private(set) var listener: URLEndpointListener
    private(set) var port: UInt16 = 0
    var database: Database { store.database }
    var collection: Collection { store.collection }

    init(name: String = "remote", extraCollections: [(scope: String, name: String)] = []) async throws {
        store = try SyncTestDatabase(name: name)
        var collections = [store.collection]
        for extra in extraCollections {
            collections.append(try store.database.createCollection(name: extra.name, scope: extra.scope))
        }
        listener = URLEndpointListener(
            config: URLEndpointListenerConfiguration(collections: collections, networkInterface: "127.0.0.1"))
        try await listener.start()
        port = listener.port ?? 0
    }

    /// `http://127.0.0.1:<port>/<database name>`.
    var url: URL {
        URL(string: "http://127.0.0.1:\(port)/\(database.name)") ?? URL(fileURLWithPath: "/")
    }

    func stop() async {
        await listener.stop()
    }

    /// Starts listening again on the same port.
    func restart() async throws {
        var config = listener.config
        config.port = port
        listener = URLEndpointListener(config: config)
        try await listener.start()
    }

    @discardableResult
    func save(_ id: String, _ json: String) throws -> MutableDocument {
        try store.save(id, json)
    }
}
