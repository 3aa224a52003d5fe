import ArgumentParser
import Foundation
import Quire

/// `quire db info DATABASE [--json]`.
struct DbInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a database's UUIDs, collections, indexes, size, format and checkpoints.",
        discussion: """
            For each collection: live and deleted documents, the last sequence, its indexes and the \
            replication checkpoints kept in it (local documents).

            Example:
              quire db info travel.quire --json
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Flag(help: "Print the information as JSON.")
    var json = false

    func run() throws {
        let info = try target.with { database in try Self.describe(database) }
        if json {
            try DbOutput.json(info)
            return
        }
        var text = "Database    \(info["path"]?.stringValue ?? "")\n"
        text += "Size        \(info["size"]?.int64Value ?? 0) bytes\n"
        text += "Format      Quire schema \(info["format"]?.int64Value ?? 0) (SQLite)\n"
        text += "Public UUID \(info["publicUUID"]?.stringValue ?? "")\n"
        text += "Private     \(info["privateUUID"]?.stringValue ?? "")\n"
        let previous = info["previousPrivateUUIDs"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if !previous.isEmpty { text += "Previous    \(previous.joined(separator: ", "))\n" }
        var table = DbTable(headers: ["COLLECTION", "DOCUMENTS", "DELETED", "LAST SEQ", "INDEXES", "CHECKPOINTS"])
        for collection in info["collections"]?.arrayValue ?? [] {
            let indexes = collection["indexes"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
            let checkpoints = collection["checkpoints"]?.arrayValue?.count ?? 0
            table.rows.append([
                DbJSONText.cell(collection["name"]), DbJSONText.cell(collection["documents"]),
                DbJSONText.cell(collection["deleted"]), DbJSONText.cell(collection["lastSequence"]),
                indexes.isEmpty ? "-" : indexes.joined(separator: ","), String(checkpoints),
            ])
        }
        DbOutput.write(text + "\n" + table.text)
    }

    /// Everything `info` shows, as JSON.
    static func describe(_ database: Database) throws -> JSONValue {
        var collections: [JSONValue] = []
        for collection in try DbCollectionName.all(in: database) {
            var indexes: [JSONValue] = []
            for name in try collection.indexes().sorted() {
                guard let index = try collection.index(withName: name) else { continue }
                var entry: [String: JSONValue] = [
                    "name": .string(name), "kind": .string(index.isFullText ? "fts" : "value"),
                    "expressions": .array(index.expressions.map(JSONValue.string)),
                ]
                if let condition = index.whereClause { entry["where"] = .string(condition) }
                indexes.append(.object(entry))
            }
            collections.append(
                .object([
                    "name": .string(collection.fullName), "documents": .int(Int64(clamping: collection.count)),
                    "deleted": .int(Int64(clamping: collection.deletedCount)),
                    "lastSequence": .int(Int64(clamping: try collection.lastSequence())),
                    "indexes": .array(indexes),
                    "checkpoints": .array(try collection.localDocumentIDs().sorted().map(JSONValue.string)),
                ]))
        }
        let format = try database.read { try $0.scalarInt("PRAGMA user_version") } ?? 0
        return .object([
            "path": .string(database.path), "name": .string(database.name),
            "publicUUID": .string(try database.publicUUID()), "privateUUID": .string(try database.privateUUID()),
            "previousPrivateUUIDs": .array(try database.previousPrivateUUIDs().map(JSONValue.string)),
            "format": .int(format), "size": .int(folderSize(URL(fileURLWithPath: database.path))),
            "collections": .array(collections),
        ])
    }

    /// The bytes of every file under `folder`.
    static func folderSize(_ folder: URL) -> Int64 {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey])
        else {
            return 0
        }
        var total: Int64 = 0
        for case let url as URL in enumerator {
            total += Int64((try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
        }
        return total
    }
}
