import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// `quire db rmindex DATABASE NAME [-c COLLECTION] [--json]`.
struct DbRmindexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rmindex",
        abstract: "Delete an index.",
        discussion: """
            Example:
              quire db rmindex travel.quire by_city -c inventory.hotel
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Argument(help: "The index name.")
    var name: String

    @OptionGroup var collection: DbCollectionOption

    @Flag(help: "Print what was deleted as JSON.")
    var json = false

    func run() throws {
        try target.with { database in
            let source = try collection.collection(in: database)
            guard try source.indexes().contains(name) else {
                throw CommandFailure("\(source.fullName) has no index '\(name)'")
            }
            try source.deleteIndex(forName: name)
            if json {
                try CommandOutput.json(.object(["collection": .string(source.fullName), "index": .string(name)]))
            } else {
                CommandOutput.write("Deleted index \(name) from \(source.fullName)\n")
            }
        }
    }
}
