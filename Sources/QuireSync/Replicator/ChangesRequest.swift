import Foundation
import Quire

/// What to ask a remote `_changes` feed for.
struct ChangesRequest: Sendable {
    /// How the feed answers.
    enum Feed: String, Sendable {
        /// Answer at once with what there is.
        case normal
        /// Wait (up to the timeout) until there is something.
        case longpoll
    }

    var since: ChangesSequence
    var limit: Int
    var feed: Feed = .normal
    /// For longpoll: how long the server may wait.
    var timeout: TimeInterval = 60
    /// For longpoll: how often the server sends a newline while it waits, to keep the
    /// connection from looking idle.
    var heartbeat: TimeInterval = 30
    var channels: [String] = []
    var filter: String?
    var filterParameters: [String: String] = [:]
    var documentIDs: [String] = []

    /// The query string. Channels use Sync Gateway's `sync_gateway/bychannel` filter;
    /// document IDs CouchDB's `_doc_ids` filter (the IDs go in the POST body); a named filter
    /// gets its parameters as query members. Only one filter can be named: document IDs win
    /// over channels (still sent, for servers that combine them), channels over a named
    /// filter.
    var query: [(String, String)] {
        var items: [(String, String)] = [
            ("style", "all_docs"), ("since", since.parameter), ("limit", String(limit)), ("feed", feed.rawValue),
        ]
        if feed == .longpoll {
            items.append(("timeout", String(Int(max(0.05, timeout) * 1000))))
            items.append(("heartbeat", String(Int(max(0.05, min(heartbeat, timeout)) * 1000))))
        }
        if !documentIDs.isEmpty {
            items.append(("filter", "_doc_ids"))
            if !channels.isEmpty { items.append(("channels", channels.joined(separator: ","))) }
        } else if !channels.isEmpty {
            items.append(("filter", "sync_gateway/bychannel"))
            items.append(("channels", channels.joined(separator: ",")))
        } else if let filter {
            items.append(("filter", filter))
            for (key, value) in filterParameters.sorted(by: { $0.key < $1.key }) { items.append((key, value)) }
        }
        return items
    }

    /// The POST body, when the request filters by document IDs.
    var body: JSONValue? {
        // Spelled out: JSONValue takes the nil literal, so a ternary could yield `.null`.
        guard !documentIDs.isEmpty else { return .none }
        return .some(.object(["doc_ids": .array(documentIDs.map { .string($0) })]))
    }
}
