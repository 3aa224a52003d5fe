import Hummingbird
import Quire
import QuireSync

/// `GET /`, `GET /_up` and `GET /{db}`.
enum ServerEndpoints {
    /// CouchDB's health check, `GET /_up`: `{"status":"ok"}` while the server serves. Like
    /// CouchDB's, it needs no credentials (load balancers and clients such as couchdb3's
    /// `up()` ask it before logging in), and says nothing about the databases.
    static func up() -> Response {
        JSONResponse.make(.ok, ["status": "ok"])
    }

    /// CouchDB's welcome object; `uuid` is the first served database's public UUID.
    static func welcome(keyspaces: Keyspaces) throws -> Response {
        let database = keyspaces.canonical.first?.collection.database
        let uuid = try database?.publicUUID().replacingOccurrences(of: "-", with: "").lowercased() ?? ""
        return JSONResponse.make(
            .ok,
            [
                "couchdb": "Welcome",
                "vendor": ["name": "Quire", "version": .string(QuireSync.version)],
                "version": "3.3.0",
                "uuid": .string(uuid),
            ])
    }

    /// The database information of one keyspace.
    static func database(_ served: ServedCollection) throws -> Response {
        let collection = served.collection
        let sequence = try collection.lastSequence()
        // Both counts read narrow indexes (the key index and the index of deleted rows), never
        // the documents' bodies.
        let live = collection.count
        let deleted = collection.deletedCount
        let updateSequence = ChangesSequence(sequence).value
        return JSONResponse.make(
            .ok,
            [
                "db_name": .string(served.keyspace),
                "update_seq": updateSequence,
                "committed_update_seq": updateSequence,
                "purge_seq": "0",
                "doc_count": .int(Int64(clamping: live)),
                "doc_del_count": .int(Int64(clamping: deleted)),
                "instance_start_time": "0",
                "compact_running": false,
            ])
    }
}
