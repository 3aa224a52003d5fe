import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// `quire db info DATABASE [index NAME [-c COLLECTION]] [--json]`.
struct DbInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a database's UUIDs, collections, indexes, size, format and checkpoints.",
        discussion: """
            For each collection: live and deleted documents, the last sequence, its indexes and the \
            replication checkpoints kept in it (local documents). `info DATABASE index NAME` shows \
            one index of a collection: its kind, expressions and condition.

            Example:
              quire db info travel.quire --json
              quire db info travel.quire index by_city -c inventory.hotel
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Argument(help: "index NAME: show one index instead.")
    var subject: [String] = []

    @Option(
        name: .shortAndLong, help: "With index NAME, the collection; the default collection when left out.",
        completion: .custom(DbDatabaseArgument.completeCollections))
    var collection: String?

    @Flag(help: "Print the information as JSON.")
    var json = false

    func validate() throws {
        guard subject.isEmpty || (subject.count == 2 && subject[0] == "index") else {
            throw ValidationError("After DATABASE, info takes only 'index NAME'.")
        }
        if subject.isEmpty, collection != nil { throw ValidationError("-c goes with 'index NAME'.") }
    }

    func run() throws {
        if subject.count == 2 {
            try showIndex(named: subject[1])
            return
        }
        let info = try target.with { database in try Self.describe(database) }
        if json {
            try CommandOutput.json(info)
            return
        }
        var text = "Database    \(info["path"]?.stringValue ?? "")\n"
        text += "Size        \(info["size"]?.int64Value ?? 0) bytes\n"
        text += "Format      Quire schema \(info["format"]?.int64Value ?? 0) (SQLite)\n"
        text += "Public UUID \(info["publicUUID"]?.stringValue ?? "")\n"
        text += "Private     \(info["privateUUID"]?.stringValue ?? "")\n"
        let previous = info["previousPrivateUUIDs"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if !previous.isEmpty { text += "Previous    \(previous.joined(separator: ", "))\n" }
        var table = TextTable(headers: ["COLLECTION", "DOCUMENTS", "DELETED", "LAST SEQ", "INDEXES", "CHECKPOINTS"])
        for collection in info["collections"]?.arrayValue ?? [] {
            let indexes = collection["indexes"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
            let checkpoints = collection["checkpoints"]?.arrayValue?.count ?? 0
            table.rows.append([
                CommandJSONText.cell(collection["name"]), CommandJSONText.cell(collection["documents"]),
                CommandJSONText.cell(collection["deleted"]), CommandJSONText.cell(collection["lastSequence"]),
                indexes.isEmpty ? "-" : indexes.joined(separator: ","), String(checkpoints),
            ])
        }
        CommandOutput.write(text + "\n" + table.text)
    }

    /// Prints one index's definition.
    private func showIndex(named name: String) throws {
        let entry = try target.with { database in
            let source = try database.collection(.named(collection))
            guard let index = try source.index(withName: name) else {
                let names = try source.indexes().sorted()
                throw CommandFailure(
                    "\(source.fullName) has no index '\(name)' (it has: \(names.isEmpty ? "none" : names.joined(separator: ", ")))"
                )
            }
            var entry = Self.describe(index)
            entry["collection"] = .string(source.fullName)
            return entry
        }
        if json {
            try CommandOutput.json(.object(entry))
            return
        }
        var text = "Index       \(entry["name"]?.stringValue ?? "")\n"
        text += "Collection  \(entry["collection"]?.stringValue ?? "")\n"
        text += "Kind        \(entry["kind"]?.stringValue ?? "")\n"
        let expressions = entry["expressions"]?.arrayValue?.compactMap(\.stringValue) ?? []
        text += "Expressions \(expressions.joined(separator: ", "))\n"
        if let condition = entry["where"]?.stringValue { text += "Where       \(condition)\n" }
        CommandOutput.write(text)
    }

    /// An index's definition as JSON members: name, kind, expressions, and where when it has one.
    static func describe(_ index: QueryIndex) -> [String: JSONValue] {
        var entry: [String: JSONValue] = [
            "name": .string(index.name), "kind": .string(index.isFullText ? "fts" : "value"),
            "expressions": .array(index.expressions.map(JSONValue.string)),
        ]
        if let condition = index.whereClause { entry["where"] = .string(condition) }
        return entry
    }

    /// Everything `info` shows, as JSON.
    static func describe(_ database: Database) throws -> JSONValue {
        var collections: [JSONValue] = []
        for collection in try database.allCollections() {
            var indexes: [JSONValue] = []
            for name in try collection.indexes().sorted() {
                guard let index = try collection.index(withName: name) else { continue }
                indexes.append(.object(describe(index)))
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
