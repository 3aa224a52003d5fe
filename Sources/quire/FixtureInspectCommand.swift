import ArgumentParser
import Foundation
import QuireFixtures

/// `quire fixture inspect ZIP [--json]`.
struct FixtureInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a fixture archive's manifest and what each collection holds.",
        discussion: """
            Example:
              quire fixture inspect out/my-travel.quire.zip --json
            """
    )

    @Argument(help: "The fixture archive (.quire.zip).")
    var archive: String

    @Flag(help: "Write JSON (sorted keys) instead of text.")
    var json = false

    func run() throws {
        let inspection = try FixtureInspector.inspect(archive: URL(fileURLWithPath: archive))
        if json {
            FileHandle.standardOutput.write(try FixtureInspector.json(inspection))
        } else {
            print(inspection.text, terminator: "")
        }
    }
}
