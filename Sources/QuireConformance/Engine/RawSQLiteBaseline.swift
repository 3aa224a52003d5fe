import Foundation
import Quire

/// The storage work of saving documents with nothing of a document store around it: one
/// table of ID and JSON text, prepared statements, one transaction, the same pragmas (WAL,
/// `synchronous=NORMAL`) as Quire's writer.
enum RawSQLiteBaseline {
    static func insert(iterations: Int, in directory: URL) throws {
        let path = directory.appendingPathComponent("baseline-\(UUID().uuidString).sqlite3").path
        let database = Database(path: path)
        defer {
            try? database.close(onClosed: {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            })
        }
        try database.write { connection in
            try connection.execute("CREATE TABLE baseline (id TEXT PRIMARY KEY NOT NULL, json TEXT NOT NULL)")
            let statement = try connection.cachedStatement("INSERT INTO baseline (id, json) VALUES (?, ?)")
            for index in 0..<iterations {
                statement.reset()
                try statement.bind("doc-\(index)", at: 1)
                try statement.bind(#"{"n":"\#(index)","name":"name \#(index)","tags":["a","b"]}"#, at: 2)
                try statement.run()
            }
        }
    }
}
