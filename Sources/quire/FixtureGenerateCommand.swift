import ArgumentParser
import Foundation
import QuireFixtureBuilder
import QuireFixtures

/// `quire fixture generate KIND --count N --seed S -o DIR`.
struct FixtureGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a synthetic dataset in the test-kit layout.",
        discussion: """
            The same kind, count and seed always produce the same bytes. Kinds:
              names   people in the default collection (COUNT people)
              travel  inventory.airline/airport/hotel/landmark/route with PNG blobs (COUNT hotels)

            Example:
              quire fixture generate travel --count 20 --seed 1 -o my-travel
            """
    )

    @Argument(help: "The kind of dataset: \(DatasetKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var kind: String

    @Option(help: "How many documents (people for names, hotels for travel).")
    var count: Int

    @Option(help: "The random seed; the same seed gives the same dataset.")
    var seed: UInt64 = 1

    @Option(name: [.short, .customLong("output")], help: "The folder to write; created if missing, must be empty.")
    var output: String

    func validate() throws {
        guard DatasetKind(rawValue: kind) != nil else {
            throw ValidationError(
                "Unknown kind '\(kind)'; expected one of: \(DatasetKind.allCases.map(\.rawValue).joined(separator: ", "))."
            )
        }
        guard (1...DatasetGenerator.maximumCount).contains(count) else {
            throw ValidationError("--count must be between 1 and \(DatasetGenerator.maximumCount), not \(count).")
        }
    }

    func run() throws {
        guard let datasetKind = DatasetKind(rawValue: kind) else { throw ExitCode.validationFailure }
        let folder = URL(fileURLWithPath: output)
        let index = try DatasetGenerator(kind: datasetKind, count: count, seed: seed).write(to: folder)
        print("Wrote dataset '\(index.name)' (\(index.collections.joined(separator: ", "))) to \(folder.path)")
    }
}
