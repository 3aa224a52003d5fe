import ArgumentParser

/// The `quire` command-line tool.
@main
struct QuireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire",
        abstract: "Quire: an embedded document store, its conformance runner and fixture packager.",
        version: "0.1.0",
        subcommands: [ConformCommand.self, FixtureCommand.self, ServeCommand.self]
    )
}
