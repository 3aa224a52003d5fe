import Foundation
import FuzzDriver
import Quire

/// Fuzzes the SQL++ parser and compiler through `Database.createQuery(_:)`, then runs what
/// parses against a small database (value and full-text indexes, nested properties, arrays,
/// a second collection to join).
///
/// Any text must either give a `QuireError` or a query that executes or fails with one, on a
/// thread with a 512 KiB stack. Queries with more than three joins are parsed but not run, so
/// a run stays short.
@main
enum QueryParserFuzzer {
    static let database: Database = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let directory = URL(fileURLWithPath: base).appendingPathComponent("quire-fuzz-query-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        do {
            let database = try Database(name: "fuzz", config: DatabaseConfiguration(directory: directory.path))
            let items = try database.createCollection(name: "items", scope: "store")
            let people: [[String: Any]] = [
                [
                    "name": "Ann", "age": 31, "tags": ["x", "y"], "text": "runs in the park",
                    "address": ["city": "Oslo"],
                    "contact": ["address": ["state": "CA"]], "rank": 3, "score": 1.5, "nick": NSNull(),
                ],
                [
                    "name": "bob", "age": 25, "tags": [], "text": "café and cafe", "address": ["city": "Paris"],
                    "contact": ["address": ["state": "WA"]], "rank": 12, "flag": true,
                ],
                ["name": "Émile", "tags": ["z"], "type": "hotel", "g": "a", "n": 7, "s": "m"],
            ]
            for (index, body) in people.enumerated() {
                try items.save(document: MutableDocument(id: ["a", "b", "c"][index], data: body))
            }
            try items.createIndex(withName: "by_name", config: ValueIndexConfiguration(["name", "age"]))
            try items.createIndex(withName: "text", config: FullTextIndexConfiguration(["text"]))
            let states = try database.createCollection(name: "states", scope: "store")
            try states.save(document: MutableDocument(id: "CA", data: ["name": "California"]))
            return database
        } catch {
            FuzzDriver.fail("cannot set up the database: \(error)")
        }
    }()

    /// Queries run where an app might run them: a thread with Apple's 512 KiB secondary stack.
    static let worker = SmallStackThread(stackSize: 512 << 10)

    static func main() {
        _ = database
        FuzzDriver.run { data, size in
            let input = FuzzDriver.buffer(data, size)
            QueryParserFuzzer.worker.run { QueryParserFuzzer.test(input) }
            return 0
        }
    }

    static func test(_ input: UnsafeRawBufferPointer) {
        let text = String(decoding: input, as: UTF8.self)
        let query: Query
        do {
            query = try database.createQuery(text)
        } catch let error as QuireError {
            guard error.code == .invalidQuery else { FuzzDriver.fail("parse error with code \(error.code): \(error)") }
            return
        } catch {
            FuzzDriver.fail("not a QuireError: \(error)")
        }
        guard text.uppercased().components(separatedBy: "JOIN").count <= 4 else { return }
        do {
            let results = try query.execute()
            for (index, row) in results.enumerated() where index < 1000 {
                _ = row.toDictionary()
            }
            _ = try query.explain()
        } catch is QuireError {
            return
        } catch {
            FuzzDriver.fail("not a QuireError: \(error)")
        }
    }
}
