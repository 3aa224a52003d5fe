import ArgumentParser
import Quire

/// The `quire` command-line tool.
@main
struct QuireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire",
        abstract: "Quire: an embedded document store, its conformance runner and fixture packager.",
        version: QuireVersion.current,
        subcommands: [ConformCommand.self, FixtureCommand.self, ServeCommand.self, TestServerCommand.self]
    )
}
