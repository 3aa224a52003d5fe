import ArgumentParser
import Foundation
import Quire

/// `quire db ls DATABASE [COLLECTION] [--limit N] [--offset N] [--deleted] [--sort id|seq] [--body] [--json]`.
struct DbLsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the documents of a collection.",
        discussion: """
            Lists IDs with their current revisions, by ID (UTF-8 byte order) or by sequence. \
            With --json, one JSON object per line: id, rev, sequence, deleted, and the body with --body.

            Example:
              quire db ls travel.quire inventory.hotel --limit 10 --body
            """
    )

    /// The orders `ls` lists in.
    enum Order: String, ExpressibleByArgument, CaseIterable {
        case id, seq
    }

    @OptionGroup var target: DbDatabaseArgument

    @Argument(help: "The collection (scope.name or name); the default collection when left out.")
    var collection: String?

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
    }

    func run() throws {
        try target.with { database in
            let source = try DbCollectionName(collection).resolve(in: database)
            var table = DbTable(headers: body ? ["ID", "REVISION", "BODY"] : ["ID", "REVISION"])
            if deleted || sort == .seq { table.headers.insert("SEQ", at: 1) }
            if deleted { table.headers.insert("DELETED", at: 2) }
            try forEachListed(in: source) { id, revision, sequence, isDeleted in
                var document: [String: JSONValue]?
                if body, !isDeleted, let stored = try source.document(id: id) {
                    document = try DbJSONText.body(of: stored)
                }
                if json {
                    var entry: [String: JSONValue] = ["id": .string(id), "rev": .string(revision)]
                    if let sequence { entry["sequence"] = .int(Int64(clamping: sequence)) }
                    if deleted { entry["deleted"] = .bool(isDeleted) }
                    if let document { entry["body"] = .object(document) }
                    try DbOutput.json(.object(entry))
                    return
                }
                var row = [id, revision]
                if deleted || sort == .seq { row.insert(sequence.map(String.init) ?? "", at: 1) }
                if deleted { row.insert(isDeleted ? "yes" : "", at: 2) }
                if body { row.append(try document.map { try DbJSONText.compact(.object($0)) } ?? "") }
                table.rows.append(row)
            }
            if !json { DbOutput.write(table.text) }
        }
    }

    /// Calls `body` with each listed document: ID, revision, sequence (when known), deleted.
    /// A listing by ID of live documents pages through the ID order; the others read the changes feed.
    private func forEachListed(in source: Collection, _ body: (String, String, UInt64?, Bool) throws -> Void) throws {
        if !deleted, sort == .id {
            var remaining = limit ?? Int.max
            var after: String?
            var skip = offset
            while remaining > 0 {
                let page = try source.liveDocuments(
                    from: after, skip: skip + (after == nil ? 0 : 1), limit: min(remaining, 1_000))
                for listing in page { try body(listing.id, listing.revisionID, nil, false) }
                guard page.count == min(remaining, 1_000) else { return }
                remaining -= page.count
                after = page.last?.id
                skip = 0
            }
            return
        }
        var entries = try source.changes(since: 0)
        if !deleted { entries.removeAll(where: \.isDeleted) }
        if sort == .id { entries.sort { $0.documentID.utf8.lexicographicallyPrecedes($1.documentID.utf8) } }
        for entry in entries.dropFirst(offset).prefix(limit ?? Int.max) {
            try body(entry.documentID, entry.revisionID, entry.sequence, entry.isDeleted)
        }
    }
}
