import Quire
import QuireSync

/// Reads a collection's changes after a sequence, through a `_changes` request's filter, into
/// wire entries.
struct ChangesScanner: Sendable {
    let served: ServedCollection
    let options: ChangesOptions

    /// How many store changes are read at a time while filtering.
    private static let pageSize = 500

    /// The entries after `since`, at most `limit`, and the sequence to continue from: the
    /// last entry's when the limit was reached, else the last change examined (so filtered-out
    /// changes are not examined again), never below `since`.
    func scan(after since: UInt64, limit: Int?) throws -> (entries: [ChangesResponse.Entry], last: UInt64) {
        var entries: [ChangesResponse.Entry] = []
        var cursor = since
        while true {
            let page = try served.collection.changes(since: cursor, limit: ChangesScanner.pageSize)
            for change in page {
                cursor = change.sequence
                guard try matches(change) else { continue }
                entries.append(try entry(change))
                if let limit, entries.count >= limit { return (entries, cursor) }
            }
            if page.count < ChangesScanner.pageSize { return (entries, cursor) }
        }
    }

    /// `descending=true`: the entries from the newest change down, at most `limit`, and the
    /// sequence of the last one given (the current last sequence when there is none).
    func scanDescending(limit: Int?) throws -> (entries: [ChangesResponse.Entry], last: UInt64) {
        var entries: [ChangesResponse.Entry] = []
        var cursor: UInt64?
        var last = try served.collection.lastSequence()
        while true {
            let page = try served.collection.changesDescending(before: cursor, limit: ChangesScanner.pageSize)
            for change in page {
                cursor = change.sequence
                guard try matches(change) else { continue }
                entries.append(try entry(change))
                last = change.sequence
                if let limit, entries.count >= limit { return (entries, last) }
            }
            if page.count < ChangesScanner.pageSize { return (entries, last) }
        }
    }

    private func entry(_ change: ChangeEntry) throws -> ChangesResponse.Entry {
        var entry = ChangesResponse.Entry(
            sequence: ChangesSequence(change.sequence), id: change.documentID,
            revisionIDs: options.allLeaves ? change.leafRevisionIDs : [change.revisionID],
            isDeleted: change.isDeleted)
        if options.includeDocs {
            entry.document =
                try RevisionRenderer(served: served).currentJSON(
                    id: change.documentID,
                    options: RevisionRenderer.Options(attachmentData: options.attachments)) ?? .null
        }
        return entry
    }

    private func matches(_ change: ChangeEntry) throws -> Bool {
        switch options.filter {
        case .none:
            return true
        case .documentIDs(let ids):
            return ids.contains(JSONKey(change.documentID))
        case .channels(let wanted):
            // A tombstone keeps no body, so it cannot say which channels it was in: it goes to
            // every channel feed, so deletions always reach the peers that may hold the document.
            if change.isDeleted || wanted.contains("*") { return true }
            guard let current = try served.collection.leaves(id: change.documentID).first else { return false }
            return !ChangesScanner.channels(of: current.body).isDisjoint(with: wanted)
        }
    }

    /// A body's channels: its top-level `channels`, a string or an array of strings.
    static func channels(of body: JSONObject) -> Set<String> {
        switch body["channels"] {
        case .string(let name): return [name]
        case .array(let items): return Set(items.compactMap(\.stringValue))
        default: return []
        }
    }
}
