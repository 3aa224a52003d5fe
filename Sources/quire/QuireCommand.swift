import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// The `quire` command-line tool.
@main
struct QuireCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire",
        abstract: "Quire: an embedded document store, its conformance runner and fixture packager.",
        version: BuildTraits.versionLine(QuireVersion.current),
        subcommands: [
            ConformCommand.self, DbCommand.self, FixtureCommand.self, ServeCommand.self, TestServerCommand.self,
        ]
    )

    /// Parses and runs the command (the long-running ones, `serve`, `testserver` and `fixture
    /// install`, are async); a `QuireError` prints as the one sentence of its message
    /// (`Error: cannot read archive 'x.zip'.`), without its domain and code, exit status 1.
    static func main() async {
        // The tool says what failed itself, in one sentence: Quire's console log would say it
        // again, before it. It keeps the listener's errors (a response it could not write), and
        // `QUIRE_LOG_LEVEL` (debug, verbose, info, warning, error) turns on every domain's.
        let level = ProcessInfo.processInfo.environment["QUIRE_LOG_LEVEL"]
        LogSinks.console =
            LogLevel.allCases.first { "\($0)" == level }.map { ConsoleLogSink(level: $0) }
            ?? ConsoleLogSink(level: .error, domains: .listener)
        do {
            var command = try parseAsRoot()
            if var running = command as? any AsyncParsableCommand {
                try await running.run()
            } else {
                try command.run()
            }
        } catch let error as QuireError {
            exit(withError: CommandFailure(error.message, capitalizing: false))
        } catch {
            exit(withError: error)
        }
    }
}
