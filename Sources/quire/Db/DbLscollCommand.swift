import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// `quire db lscoll DATABASE [--json]`.
struct DbLscollCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lscoll",
        abstract: "List the collections, with their document counts.",
        discussion: """
            The default collection first, then by scope.name. --json prints one line per \
            collection: name, documents, deleted and lastSequence.

            Example:
              quire db lscoll travel.quire
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Flag(help: "Print JSON Lines: one object per collection.")
    var json = false

    func run() throws {
        let entries: [JSONValue] = try target.with { database in
            try database.allCollections().map { collection in
                .object([
                    "name": .string(collection.fullName), "documents": .int(Int64(clamping: collection.count)),
                    "deleted": .int(Int64(clamping: collection.deletedCount)),
                    "lastSequence": .int(Int64(clamping: try collection.lastSequence())),
                ])
            }
        }
        if json {
            for entry in entries { try CommandOutput.json(entry) }
            return
        }
        var table = TextTable(headers: ["COLLECTION", "DOCUMENTS", "DELETED", "LAST SEQ"])
        for entry in entries {
            table.rows.append(
                ["name", "documents", "deleted", "lastSequence"].map { CommandJSONText.cell(entry[$0]) })
        }
        CommandOutput.write(table.text)
    }
}
