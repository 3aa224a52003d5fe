import Quire
import QuireSync

/// The parameters of a `_changes` request, from the query string and, for POST, the JSON
/// body (whose members win).
struct ChangesOptions: Sendable {
    /// How results are delivered.
    enum Feed: String, Sendable {
        /// Everything now, in one response.
        case normal
        /// Everything now; if nothing, wait for the next change (or the timeout).
        case longpoll
        /// One line per change, forever (until the timeout, the client or the listener ends it).
        case continuous
        /// As continuous, as Server-Sent Events (`text/event-stream`) for browsers' EventSource.
        case eventsource
    }

    /// Which documents count.
    enum Filter: Equatable, Sendable {
        /// All.
        case none
        /// `filter=_doc_ids`: only these IDs.
        case documentIDs(Set<JSONKey>)
        /// `filter=sync_gateway/bychannel`: documents whose top-level `channels` (a string or
        /// an array of strings) names one of these; `*` matches every document.
        case channels(Set<String>)
    }

    /// Where to start: after this sequence; nil for `now`.
    var since: UInt64?
    /// At most this many results (continuous: then the feed ends).
    var limit: Int?
    var feed: Feed = .normal
    /// `style=all_docs`: every leaf under `changes`, not just the current revision.
    var allLeaves = false
    var includeDocs = false
    /// With `include_docs`, attachment bytes instead of stubs.
    var attachments = false
    var filter: Filter = .none
    /// How long a longpoll or continuous feed waits for a change.
    var timeout: Duration
    /// For longpoll and continuous feeds, a newline this often while nothing happens; the
    /// feed then never times out.
    var heartbeat: Duration?

    /// `descending=true`: newest change first, from the end of the feed (`since` is not
    /// used, as in CouchDB).
    var descending = false

    /// CouchDB's default wait (60 s), also the heartbeat of `heartbeat=true`.
    static let defaultWait = Duration.milliseconds(60_000)

    /// The shortest heartbeat: a shorter one asked for is raised to this, so a client cannot
    /// make the listener write a newline every millisecond (Sync Gateway raises it to 25 s;
    /// Quire's own replicator asks for no less than 50 ms).
    static let minimumHeartbeat = Duration.milliseconds(50)

    /// Reads the options; 400 for any value of the wrong form.
    init(query: QueryParameters, body: JSONValue?, maxTimeout: Duration) throws {
        if let body, body.objectMembers == nil {
            throw HTTPFailure.badRequest("The _changes body must be a JSON object")
        }
        func text(_ name: String) throws -> String? {
            switch body?[name] {
            case .string(let value): return value
            case .int(let value): return String(value)
            case .bool(let value): return value ? "true" : "false"
            case nil: return query[name]
            case .some(let other):
                // A fraction, an object, an array or null is no value of any option.
                throw HTTPFailure.badRequest(
                    "Invalid '\(name)' in the body: \(ChangesOptions.describe(other)), expected a string, an integer or a boolean"
                )
            }
        }
        func flag(_ name: String) throws -> Bool {
            guard let value = try text(name) else { return false }
            switch value.lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: throw HTTPFailure.badRequest("Invalid boolean parameter '\(name)': '\(value)'")
            }
        }
        func milliseconds(_ name: String) throws -> Duration? {
            guard let value = try text(name) else { return nil }
            guard let number = Int(value), number >= 0 else {
                throw HTTPFailure.badRequest("Invalid value for '\(name)': '\(value)' is not a number of milliseconds")
            }
            return .milliseconds(number)
        }

        switch body?["since"] {
        case .some(.int(let number)) where number >= 0:
            since = UInt64(number)
        default:
            if let value = try text("since"), value != "now" {
                guard let sequence = ChangesSequence(parameter: value)?.localSequence else {
                    throw HTTPFailure.badRequest("Invalid 'since': '\(value)' is not a sequence of this database")
                }
                since = sequence
            } else {
                since = try text("since") == "now" ? nil : 0
            }
        }
        descending = try flag("descending")
        if let value = try text("limit") {
            guard let number = Int(value), number >= 0 else {
                throw HTTPFailure.badRequest("Invalid 'limit': '\(value)' is not a non-negative integer")
            }
            limit = max(1, number)
        }
        if let value = try text("feed") {
            guard let feed = Feed(rawValue: value) else {
                throw HTTPFailure.badRequest(
                    "Unsupported feed '\(value)': use normal, longpoll, continuous or eventsource")
            }
            self.feed = feed
        }
        if let style = try text("style") {
            guard style == "all_docs" || style == "main_only" else {
                throw HTTPFailure.badRequest("Invalid 'style': '\(style)'; use all_docs or main_only")
            }
            allLeaves = style == "all_docs"
        }
        includeDocs = try flag("include_docs")
        attachments = try flag("attachments")

        let timeout = try milliseconds("timeout") ?? ChangesOptions.defaultWait
        self.timeout = min(timeout, maxTimeout)
        if let value = try text("heartbeat") {
            if value == "true" {
                heartbeat = ChangesOptions.defaultWait
            } else if value != "false" {
                guard let period = try milliseconds("heartbeat"), period > .zero else {
                    throw HTTPFailure.badRequest("Invalid 'heartbeat': '\(value)'")
                }
                heartbeat = min(max(period, ChangesOptions.minimumHeartbeat), maxTimeout)
            }
        }
        if descending, feed != .normal {
            throw HTTPFailure.badRequest("'descending' is supported with feed=normal only")
        }

        switch try text("filter") {
        case nil:
            break
        case "_doc_ids":
            let ids = try ChangesOptions.list("doc_ids", body: body, query: query, commaSeparated: false)
            filter = .documentIDs(Set(ids.map(JSONKey.init)))
        case "sync_gateway/bychannel":
            filter = .channels(Set(try ChangesOptions.list("channels", body: body, query: query, commaSeparated: true)))
        case .some(let other):
            throw HTTPFailure.badRequest("Unsupported filter '\(other)': use _doc_ids or sync_gateway/bychannel")
        }
    }

    /// A short name for a JSON value's type, for messages.
    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int: return "an integer"
        case .double: return "a number with a fraction or exponent"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// A list parameter: a JSON array in the body; in the query a JSON array, or (for
    /// channels) comma-separated names. 400 when missing or malformed.
    private static func list(
        _ name: String, body: JSONValue?, query: QueryParameters, commaSeparated: Bool
    ) throws -> [String] {
        var value = body?[name]
        if value == nil, let text = query[name] {
            if text.hasPrefix("[") {
                value = try query.json(name)
            } else if commaSeparated {
                value = .array(text.split(separator: ",").map { .string(String($0)) })
            }
        }
        if commaSeparated, case .string(let text) = value {
            value = .array(text.split(separator: ",").map { .string(String($0)) })
        }
        guard let items = value?.arrayValue else {
            throw HTTPFailure.badRequest("The filter needs '\(name)' as an array of strings")
        }
        return try items.map { item in
            guard let text = item.stringValue else {
                throw HTTPFailure.badRequest("'\(name)' must hold strings only")
            }
            return text
        }
    }
}
