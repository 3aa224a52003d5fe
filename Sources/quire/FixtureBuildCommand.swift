import ArgumentParser
import Foundation
import QuireFixtureBuilder
import QuireFixtures

/// `quire fixture build RECIPE [-o DIR]`.
struct FixtureBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build <name>.quire.zip from a recipe.",
        discussion: """
            Starts from an empty database, loads the recipe's documents in batches, creates its \
            indexes, compacts the file and packs it with a manifest. Two builds of the same recipe \
            and sources are byte-identical; the one timestamp they carry comes from \
            SOURCE_DATE_EPOCH (2000-01-01T00:00:00Z when unset). A progress bar is drawn when \
            standard error is a terminal and CI is not set.

            Example:
              quire fixture build my-travel.yaml -o out
            """
    )

    @Argument(help: "The recipe file (YAML).")
    var recipe: String

    @Option(name: [.short, .customLong("output")], help: "The folder to write the archive into; created if missing.")
    var output: String = "."

    @Option(help: "Documents per transaction while loading.")
    var batchSize: Int = 1_000

    func validate() throws {
        guard batchSize > 0 else { throw ValidationError("--batch-size must be positive, not \(batchSize).") }
    }

    func run() throws {
        let parsed = try FixtureRecipe.load(from: URL(fileURLWithPath: recipe))
        var progress: (@Sendable (FixtureBuildProgress) -> Void)?
        if TerminalProgressBar.isWanted() {
            let bar = TerminalProgressBar()
            progress = { bar.update($0) }
        }
        let builder = FixtureBuilder(
            recipe: parsed, timestamp: try FixtureTimestamp.fromEnvironment(), batchSize: batchSize, progress: progress)
        let result = try builder.build(into: URL(fileURLWithPath: output))
        let documents = result.manifest.collections.reduce(0) { $0 + $1.documentCount }
        print(
            "Built \(result.archiveURL.path): \(result.manifest.collections.count) collections, \(documents) documents, "
                + "\(result.manifest.indexes.count) indexes, \(result.manifest.blobs.count) blobs")
    }
}
