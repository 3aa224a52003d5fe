import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// `quire db mkcoll DATABASE COLLECTION... [--json]`.
struct DbMkcollCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mkcoll",
        abstract: "Create collections.",
        discussion: """
            Each COLLECTION is scope.name, or name in the default scope; the scope is created with \
            it. Fails, creating none, when one exists already or breaks the naming rules.

            Example:
              quire db mkcoll travel.quire inventory.hotel inventory.airline
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Argument(help: "The collections to create (scope.name or name).")
    var collections: [String]

    @Flag(help: "Print the collections created as JSON.")
    var json = false

    func validate() throws {
        guard !collections.isEmpty else { throw ValidationError("Give at least one collection.") }
    }

    func run() throws {
        let created = try target.with { database in
            let names = collections.map { CollectionName.named($0) }
            for name in names where try database.collection(name: name.name, scope: name.scope) != nil {
                throw CommandFailure("Database '\(database.name)' already has a collection '\(name.fullName)'")
            }
            var created: [String] = []
            do {
                for name in names { created.append(try database.collection(creatingIfMissing: name).fullName) }
            } catch {
                for name in created.map({ CollectionName.named($0) }) {
                    try? database.deleteCollection(name: name.name, scope: name.scope)
                }
                throw error
            }
            return created
        }
        if json {
            try CommandOutput.json(.object(["collections": .array(created.map(JSONValue.string))]))
        } else {
            CommandOutput.write("Created \(created.joined(separator: ", "))\n")
        }
    }
}
