import ArgumentParser
import Foundation
import QuireFixtures

/// `quire fixture verify ZIP`.
struct FixtureVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a fixture archive against its manifest; exit 1 on any mismatch.",
        discussion: """
            Recomputes every entry's hash, opens the database read-only in a temporary folder, \
            runs SQLite's integrity check, and compares collections, document counts and indexes \
            with the manifest.

            Example:
              quire fixture verify out/my-travel.quire.zip
            """
    )

    @Argument(help: "The fixture archive (.quire.zip).")
    var archive: String

    func run() throws {
        let report = FixtureVerifier(archiveURL: URL(fileURLWithPath: archive)).verify()
        print(report.text, terminator: "")
        if !report.isValid { throw ExitCode(1) }
    }
}
