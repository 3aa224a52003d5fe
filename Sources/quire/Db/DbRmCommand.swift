import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// `quire db rm DATABASE ID... [-c COLLECTION] [--purge] [--json]`.
struct DbRmCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete documents (leaving tombstones that replicate), or purge them.",
        discussion: """
            A deletion is a new revision that replicators send on; --purge removes every trace \
            of the document instead, as if it had never been there. --json prints one line per \
            document: its id, the tombstone's rev (null when purged) and purged.

            Example:
              quire db rm travel.quire hotel_1 -c inventory.hotel
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Argument(help: "The document IDs.")
    var ids: [String]

    @OptionGroup var collection: DbCollectionOption

    @Flag(help: "Purge instead of deleting: no tombstone is kept.")
    var purge = false

    @Flag(help: "Print one line of JSON per document.")
    var json = false

    func validate() throws {
        guard !ids.isEmpty else { throw ValidationError("Give at least one document ID.") }
    }

    func run() throws {
        try target.with { database in
            let source = try collection.collection(in: database)
            for id in ids {
                if purge {
                    guard try source.revisionInfo(id: id) != nil else {
                        throw CommandFailure("\(source.fullName) has no document '\(id)'")
                    }
                    try source.purge(id: id)
                    try report(id, revision: nil)
                } else {
                    guard let document = try source.document(id: id) else {
                        throw CommandFailure("\(source.fullName) has no document '\(id)'")
                    }
                    try source.delete(document: document)
                    try report(id, revision: try source.revisionInfo(id: id)?.revisionID)
                }
            }
        }
    }

    private func report(_ id: String, revision: String?) throws {
        guard json else {
            CommandOutput.write(purge ? "Purged \(id)\n" : "Deleted \(id)\n")
            return
        }
        try CommandOutput.json(
            .object(["id": .string(id), "rev": revision.map(JSONValue.string) ?? .null, "purged": .bool(purge)]))
    }
}
