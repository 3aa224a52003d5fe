import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// `quire db cp SOURCE TARGET [--json]`.
struct DbCpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cp",
        abstract: "Copy a database, every collection, index and blob, to a new database.",
        discussion: """
            TARGET is a database folder (<name>.quire) or name that must not exist. The copy is \
            one consistent snapshot, even while SOURCE is being written, and gets new UUIDs while \
            remembering SOURCE's, so its first replication still finds SOURCE's checkpoints (as \
            fixture install does). To merge into a database that exists, export then import.

            Example:
              quire db cp travel.quire travel-backup.quire
            """
    )

    @OptionGroup var source: DbDatabaseArgument

    @Argument(help: "The new database folder (<name>.quire), or a name in the current folder.")
    var target: String

    @Flag(help: "Print the copy's path and collections as JSON.")
    var json = false

    func run() throws {
        let destination = try DbDatabaseArgument.parse([target])
        let (name, directory) = destination.location
        guard !Database.exists(withName: name, inDirectory: directory) else {
            throw CommandFailure(
                "Database '\(name)' already exists in \(directory): cp makes a new database (export then import to merge)"
            )
        }
        let from = try source.with { database in database.path }
        try CommandFailure.reporting {
            try Database.copy(
                fromPath: from, toDatabase: name, withConfig: DatabaseConfiguration(directory: directory))
        }
        let collections = try destination.with { database in try database.allCollections().map(\.fullName) }
        if json {
            try CommandOutput.json(
                .object([
                    "path": .string(destination.folder.path), "collections": .array(collections.map(JSONValue.string)),
                ]))
        } else {
            CommandOutput.write("Copied \(source.folder.path) to \(destination.folder.path)\n")
        }
    }
}
