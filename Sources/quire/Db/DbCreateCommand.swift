import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// `quire db create DATABASE [--collection scope.name ...]`.
struct DbCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an empty database, with collections.",
        discussion: """
            Fails when the database exists. The default collection always exists; --collection adds others.

            Example:
              quire db create travel.quire --collection inventory.hotel
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Option(
        name: [.customShort("c"), .customLong("collection")],
        help: "A collection to create, as scope.name or name (repeatable).")
    var collections: [String] = []

    @Flag(help: "Print what was created as JSON.")
    var json = false

    func run() throws {
        let (name, directory) = target.location
        guard !Database.exists(withName: name, inDirectory: directory) else {
            throw CommandFailure("Database '\(name)' already exists in \(directory)")
        }
        let database = try CommandFailure.reporting {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return try Database(name: name, config: DatabaseConfiguration(directory: directory))
        }
        defer { try? database.close() }
        let created = try CommandFailure.reporting {
            _ = try database.defaultCollection()
            for text in collections { _ = try database.collection(creatingIfMissing: .named(text)) }
            return try database.allCollections().map(\.fullName)
        }
        if json {
            try CommandOutput.json(
                .object(["path": .string(target.folder.path), "collections": .array(created.map(JSONValue.string))]))
        } else {
            CommandOutput.write("Created \(target.folder.path) with \(created.joined(separator: ", "))\n")
        }
    }
}
