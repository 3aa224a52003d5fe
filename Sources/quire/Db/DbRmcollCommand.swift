import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// `quire db rmcoll DATABASE COLLECTION... [--json]`.
struct DbRmcollCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rmcoll",
        abstract: "Delete collections with all their documents, indexes and checkpoints.",
        discussion: """
            Deleting a collection is not a change that replicates: the remote keeps its copy. \
            The default collection cannot be deleted; a scope goes with its last collection.

            Example:
              quire db rmcoll travel.quire inventory.airline
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Argument(
        help: "The collections to delete (scope.name or name).",
        completion: .custom(DbDatabaseArgument.completeCollections))
    var collections: [String]

    @Flag(help: "Print the collections deleted as JSON.")
    var json = false

    func validate() throws {
        guard !collections.isEmpty else { throw ValidationError("Give at least one collection.") }
    }

    func run() throws {
        let deleted = try target.with { database in
            // Every name is checked before anything is deleted.
            let found = try collections.map { try database.collection(.named($0)) }
            for collection in found {
                try database.deleteCollection(name: collection.name, scope: collection.scope.name)
            }
            return found.map(\.fullName)
        }
        if json {
            try CommandOutput.json(.object(["collections": .array(deleted.map(JSONValue.string))]))
        } else {
            CommandOutput.write("Deleted \(deleted.joined(separator: ", "))\n")
        }
    }
}
