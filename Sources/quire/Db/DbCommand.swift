import ArgumentParser

/// `quire db`: create, look inside, edit, query, export, import and replicate a database
/// from the shell, as Couchbase's `cblite` does.
struct DbCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Create, inspect, edit, query, export, import and replicate a database.",
        discussion: """
            DATABASE is a database folder (<name>.quire) or the name of one in the current folder; \
            a collection is always -c scope.name (or -c name in the default scope). Every \
            subcommand prints readable text, or JSON for scripts with --json; it exits with 0 when \
            it did what was asked, 1 when it failed (one line naming the fault), 64 for a command \
            line it does not understand.

            Example:
              quire db create travel.quire --collection inventory.hotel
              quire db put travel.quire h1 '{"name": "Le Monde"}' -c inventory.hotel
              quire db query travel.quire "SELECT name FROM inventory.hotel"
            """,
        subcommands: [
            DbCreateCommand.self, DbInfoCommand.self, DbCheckCommand.self, DbCompactCommand.self, DbReindexCommand.self,
            DbCpCommand.self, DbMkcollCommand.self, DbRmcollCommand.self, DbLscollCommand.self,
            DbLsCommand.self, DbCatCommand.self, DbRevsCommand.self, DbPutCommand.self, DbRmCommand.self,
            DbExpireCommand.self, DbQueryCommand.self, DbMkindexCommand.self, DbRmindexCommand.self,
            DbExportCommand.self, DbImportCommand.self, DbPushCommand.self, DbPullCommand.self,
        ]
    )
}
