import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// `quire db ls DATABASE [-c COLLECTION] [--limit N] [--offset N] [--deleted] [--sort id|seq] [--body] [--json]`.
struct DbLsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the documents of a collection.",
        discussion: """
            Lists IDs with their current revisions and sequences, by ID (UTF-8 byte order) or by \
            sequence, as the rows come (a table's widths are set by its first rows). With --json, \
            one JSON object per line, always with id, rev, sequence and deleted, and with body \
            when --body asks for it (null for a deleted document).

            Example:
              quire db ls travel.quire -c inventory.hotel --limit 10 --body
            """
    )

    /// The orders `ls` lists in.
    enum Order: String, ExpressibleByArgument, CaseIterable {
        case id, seq
    }

    @OptionGroup var target: DbDatabaseArgument

    @Option(
        name: .shortAndLong, help: "The collection (scope.name or name); the default collection when left out.",
        completion: .custom(DbDatabaseArgument.completeCollections))
    var collection: String?

    // The collection as a second argument, as `ls` first took it.
    @Argument(help: .hidden)
    var positionalCollection: String?

    @Option(help: "List at most this many.")
    var limit: Int?

    @Option(help: "Skip this many first.")
    var offset: Int = 0

    @Flag(help: "Include deleted documents (tombstones).")
    var deleted = false

    @Option(help: "The order: id or seq.")
    var sort: Order = .id

    @Flag(help: "Include each document's body.")
    var body = false

    @Flag(help: "Print JSON Lines: one object per document.")
    var json = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative, not \(limit).") }
        guard offset >= 0 else { throw ValidationError("--offset must not be negative, not \(offset).") }
        if let collection, let positionalCollection, collection != positionalCollection {
            throw ValidationError("Name the collection once, with -c.")
        }
    }

    func run() throws {
        try target.with { database in
            let source = try database.collection(.named(collection ?? positionalCollection))
            let writer = try BufferedFileWriter.replacing("-")
            var headers = body ? ["ID", "REVISION", "SEQ", "BODY"] : ["ID", "REVISION", "SEQ"]
            if deleted { headers.insert("DELETED", at: 3) }
            let table = json ? nil : TextTableStream(headers: headers, writer: writer)
            try forEachListed(in: source) { id, revision, sequence, isDeleted in
                var document: [String: JSONValue]?
                if body, !isDeleted, let stored = try source.document(id: id) {
                    document = try CommandJSONText.body(of: stored)
                }
                if let table {
                    var row = [id, revision, String(sequence)]
                    if deleted { row.append(isDeleted ? "yes" : "") }
                    if body { row.append(try document.map { try CommandJSONText.compact(.object($0)) } ?? "") }
                    try table.append(row)
                    return
                }
                var entry: [String: JSONValue] = [
                    "id": .string(id), "rev": .string(revision), "sequence": .int(Int64(clamping: sequence)),
                    "deleted": .bool(isDeleted),
                ]
                if body { entry["body"] = document.map(JSONValue.object) ?? .null }
                try writer.append(Array((try CommandJSONText.compact(.object(entry)) + "\n").utf8))
            }
            try table?.finish()
            try writer.close()
        }
    }

    /// Calls `body` with each listed document: ID, revision, sequence, deleted; a page at a time.
    private func forEachListed(in source: Collection, _ body: (String, String, UInt64, Bool) throws -> Void) throws {
        let pageSize = 1_000
        var remaining = limit ?? Int.max
        if !deleted, sort == .id {
            // Live documents by ID: pages through the table's key order.
            var after: String?
            var skip = offset
            while remaining > 0 {
                let page = try source.liveDocuments(
                    from: after, skip: skip + (after == nil ? 0 : 1), limit: min(remaining, pageSize))
                for listing in page {
                    // A document deleted since the page was read is passed over.
                    guard let info = try source.revisionInfo(id: listing.id), !info.isDeleted else { continue }
                    try body(listing.id, info.revisionID, info.sequence, false)
                }
                guard page.count == min(remaining, pageSize) else { return }
                remaining -= page.count
                after = page.last?.id
                skip = 0
            }
            return
        }
        if sort == .seq {
            // By sequence: pages through the changes feed.
            var since: UInt64 = 0
            var skip = offset
            while remaining > 0 {
                let page = try source.changes(since: since, limit: pageSize)
                for entry in page where deleted || !entry.isDeleted {
                    if skip > 0 {
                        skip -= 1
                        continue
                    }
                    guard remaining > 0 else { return }
                    try body(entry.documentID, entry.revisionID, entry.sequence, entry.isDeleted)
                    remaining -= 1
                }
                guard page.count == pageSize, let last = page.last else { return }
                since = last.sequence
            }
            return
        }
        // Every document by ID, tombstones included: the IDs are sorted in memory (bodies are
        // read one at a time as they are listed).
        var entries = try source.changes(since: 0)
        entries.sort { $0.documentID.utf8.lexicographicallyPrecedes($1.documentID.utf8) }
        for entry in entries.dropFirst(offset).prefix(remaining) {
            try body(entry.documentID, entry.revisionID, entry.sequence, entry.isDeleted)
        }
    }
}
