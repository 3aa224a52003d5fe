import ArgumentParser
import Quire
import QuireFixtureBuilder

/// `quire db check DATABASE [--json]`.
struct DbCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the database file and every blob a document refers to.",
        discussion: """
            Runs Couchbase Lite's `integrityCheck` maintenance; exits 1 naming the damage when something is wrong.

            Example:
              quire db check travel.quire
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Flag(help: "Print the outcome as JSON.")
    var json = false

    func run() throws {
        try target.with { database in try database.performMaintenance(type: .integrityCheck) }
        try CommandOutput.done("Checked", path: target.folder.path, json: json)
    }
}
