import ArgumentParser
import Quire

/// The `quire` command-line tool.
@main
struct QuireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire",
        abstract: "Quire: an embedded document store, its conformance runner and fixture packager.",
        version: BuildTraits.versionLine(QuireVersion.current),
        subcommands: [
            ConformCommand.self, DbCommand.self, FixtureCommand.self, ServeCommand.self, TestServerCommand.self,
        ]
    )

    /// Parses and runs the command; a `QuireError` prints as the one sentence of its message
    /// (`Error: cannot read archive 'x.zip'.`), without its domain and code, exit status 1.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as QuireError {
            exit(withError: DbFailure(error.message, capitalizing: false))
        } catch {
            exit(withError: error)
        }
    }
}
