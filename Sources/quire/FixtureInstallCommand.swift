import ArgumentParser
import Foundation
import Quire
import QuireFixtures

/// `quire fixture install ZIP --name NAME --directory DIR [--if-absent]`.
struct FixtureInstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install a fixture archive as a named database.",
        discussion: """
            Extracts the archive safely into a temporary folder, checks it against its manifest, \
            then copies the database into DIR/NAME.quire with new UUIDs, keeping the fixture's \
            private UUID as the previous one. A refused archive leaves nothing in DIR.

            Example:
              quire fixture install out/my-travel.quire.zip --name travel --directory db
            """
    )

    @Argument(help: "The fixture archive (.quire.zip).")
    var archive: String

    @Option(help: "The database name to install as.")
    var name: String

    @Option(help: "The folder holding databases.")
    var directory: String

    @Flag(help: "Leave an existing database of that name untouched instead of failing.")
    var ifAbsent = false

    func run() throws {
        let outcome = try FixtureInstaller.install(
            archive: URL(fileURLWithPath: archive), name: name, config: DatabaseConfiguration(directory: directory),
            ifAbsent: ifAbsent)
        let target = URL(fileURLWithPath: directory).appendingPathComponent("\(name).quire").path
        switch outcome {
        case .installed: print("Installed \(archive) as \(target)")
        case .alreadyPresent: print("\(target) exists; left untouched")
        }
    }
}
