import ArgumentParser
import Quire
import QuireFixtureBuilder

/// `quire db reindex DATABASE [--json]`.
struct DbReindexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reindex",
        abstract: "Rebuild every index.",
        discussion: """
            Runs Couchbase Lite's `reindex` maintenance; useful after a change of collation or stemmer.

            Example:
              quire db reindex travel.quire
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Flag(help: "Print the outcome as JSON.")
    var json = false

    func run() throws {
        try target.with { database in try database.performMaintenance(type: .reindex) }
        try CommandOutput.done("Reindexed", path: target.folder.path, json: json)
    }
}
