import Quire
import QuireSync

/// The options of an `_all_docs` request, from the query string and, for POST, the JSON
/// body, whose members win (as CouchDB reads them from either): `keys` (or `key`),
/// `include_docs`, `conflicts`, `attachments`, `start_key`/`startkey`, `end_key`/`endkey`,
/// `inclusive_end`, `descending`, `skip` and `limit`.
struct AllDocsOptions: Sendable {
    var keys: [String]?
    var includeDocs = false
    var conflicts = false
    var attachments = false
    var startKey: String?
    var endKey: String?
    var inclusiveEnd = true
    var descending = false
    var skip = 0
    var limit: Int?

    /// Reads the options; 400 naming the option for a value of the wrong form.
    init(query: QueryParameters, body: JSONValue?) throws {
        let body = body?.objectMembers ?? [:]
        /// The option as JSON: the body's member, else the query value parsed as JSON.
        func json(_ name: String) throws -> JSONValue? {
            if let value = body[name] { return value }
            return try query.json(name)
        }
        func flag(_ name: String, default fallback: Bool) throws -> Bool {
            if let value = body[name] {
                guard case .bool(let flag) = value else {
                    throw HTTPFailure.badRequest("Invalid boolean parameter '\(name)': \(value)")
                }
                return flag
            }
            return try query.bool(name, default: fallback)
        }
        func count(_ name: String) throws -> Int? {
            if let value = body[name] {
                guard case .int(let number) = value, number >= 0, let count = Int(exactly: number) else {
                    throw HTTPFailure.badRequest("Invalid value for '\(name)': \(value) is not a non-negative integer")
                }
                return count
            }
            return try query.integer(name)
        }
        func key(_ name: String, _ alias: String) throws -> String? {
            guard let value = try json(name) ?? json(alias) else { return nil }
            guard let text = value.stringValue else { throw HTTPFailure.badRequest("'\(name)' must be a JSON string") }
            return text
        }

        if let list = try json("keys") {
            guard let items = list.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
                throw HTTPFailure.badRequest("'keys' must be a JSON array of document IDs")
            }
            keys = items.compactMap(\.stringValue)
        } else if let single = try json("key") {
            guard let id = single.stringValue else { throw HTTPFailure.badRequest("'key' must be a JSON string") }
            keys = [id]
        }
        includeDocs = try flag("include_docs", default: false)
        conflicts = try flag("conflicts", default: false)
        attachments = try flag("attachments", default: false)
        startKey = try key("start_key", "startkey")
        endKey = try key("end_key", "endkey")
        inclusiveEnd = try flag("inclusive_end", default: true)
        descending = try flag("descending", default: false)
        skip = try count("skip") ?? 0
        limit = try count("limit")
    }
}
