import Foundation
import Quire
import QuireListener
import QuireSync

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The baseline of the replication case, `bulkDocsPush`: the documents a push replicates,
/// sent by hand with one `POST /{db}/_bulk_docs` (`new_edits: false`, each document with its
/// revision and `_revisions`) to a listener of the same kind, an in-process
/// ``URLEndpointListener`` on 127.0.0.1 serving an empty database.
///
/// The documents are the specs' (``RawSQLiteBaseline/body(_:)``), keyed `p-<i>` as the
/// workload's preparation saves them, each at generation 1. Preparing starts the listener and
/// encodes the request body (untimed, as the replicator's documents are already stored);
/// running it sends the request and waits for the listener's answer, which must be a 201.
final class BulkDocsBaseline {
    /// The baseline's name in a spec.
    static let name = "bulkDocsPush"

    private let database: Database
    private let listener: URLEndpointListener
    private let url: URL
    private var body = Data()

    /// Opens an empty database in `directory` and serves it on 127.0.0.1.
    init(directory: URL) throws {
        database = try Database(
            name: "bulk-docs-\(UUID().uuidString)", config: DatabaseConfiguration(directory: directory.path))
        let listener = URLEndpointListener(
            config: URLEndpointListenerConfiguration(
                collections: [try database.defaultCollection()], port: 0, networkInterface: "127.0.0.1"))
        try QuireSession.blocking { try await listener.start() }
        self.listener = listener
        guard let port = listener.port,
            let url = URL(string: "http://127.0.0.1:\(port)/\(database.name)/_bulk_docs")
        else {
            QuireSession.waitFor { await listener.stop() }
            throw QuireError(.unexpectedError, "the bulkDocsPush baseline's listener started without a port")
        }
        self.url = url
    }

    deinit {
        let listener = listener
        QuireSession.waitFor { await listener.stop() }
        try? database.close()
    }

    /// Untimed: encodes the `_bulk_docs` body of `count` documents.
    func prepare(count: Int) throws {
        var text = #"{"new_edits":false,"docs":["#
        for index in 0..<count {
            let digest = Self.digest(index)
            let document = RawSQLiteBaseline.body(index).dropFirst()
            if index > 0 { text += "," }
            text +=
                #"{"_id":"p-\#(index)","_rev":"1-\#(digest)","_revisions":{"start":1,"ids":["\#(digest)"]},"#
                + document
        }
        text += "]}"
        body = Data(text.utf8)
    }

    /// Timed: sends the body once, `iterations` times (later sends find the revisions there,
    /// as a second push finds nothing to send).
    func run(iterations: Int) throws {
        for _ in 0..<iterations {
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
            let sent = request
            let status = try QuireSession.blocking { () async throws -> Int in
                let (_, response) = try await URLSession.shared.data(for: sent)
                return (response as? HTTPURLResponse)?.statusCode ?? 0
            }
            guard status == 201 else {
                throw QuireError(.unexpectedError, "the bulkDocsPush baseline's POST answered \(status), not 201")
            }
        }
    }

    /// A 40-digit hexadecimal revision digest for document `index`.
    private static func digest(_ index: Int) -> String {
        let hex = String(index, radix: 16)
        return String(repeating: "0", count: 40 - hex.count) + hex
    }
}
