import ArgumentParser
import Quire
import QuireFixtureBuilder

/// `quire db compact DATABASE [--json]`.
struct DbCompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Delete unreferenced blobs and rebuild the file without free pages.",
        discussion: """
            Runs Couchbase Lite's `compact` maintenance; the database must not be open elsewhere while it runs.

            Example:
              quire db compact travel.quire
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Flag(help: "Print the outcome as JSON.")
    var json = false

    func run() throws {
        try target.with { database in try database.performMaintenance(type: .compact) }
        try CommandOutput.done("Compacted", path: target.folder.path, json: json)
    }
}
