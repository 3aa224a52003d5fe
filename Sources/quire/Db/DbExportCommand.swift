import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder
import QuireFixtures

/// `quire db export DATABASE OUTPUT [-c COLLECTION ...] [--format dataset|jsonl] [--name NAME] [--json]`.
struct DbExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export documents and blobs as a dataset folder (what fixture build reads) or JSON Lines.",
        discussion: """
            The dataset format writes Couchbase's test-kit layout: index.json, one <collection>.jsonl \
            per collection (the document ID in "_id", canonical JSON) and Attachments/ with every \
            blob the documents refer to. OUTPUT must be missing or empty. --format jsonl writes the \
            documents of one collection to the file OUTPUT ('-' for standard output), without blobs. \
            Live documents only, in ID order, streamed; a progress bar is drawn when standard \
            output is a terminal.

            Example:
              quire db export travel.quire travel-data
              quire fixture build travel.yaml -o out   # source: {dataset: travel-data}
              quire db export travel.quire - --format jsonl -c inventory.hotel
            """
    )

    /// What export writes.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case dataset, jsonl
    }

    @OptionGroup var target: DbDatabaseArgument

    @Argument(help: "The dataset folder to write, or with --format jsonl the file ('-' for standard output).")
    var output: String

    @Option(
        name: [.customShort("c"), .customLong("collection")],
        help: "A collection to export (repeatable); every collection when left out.",
        completion: .custom(DbDatabaseArgument.completeCollections))
    var collections: [String] = []

    @Option(help: "dataset (a folder) or jsonl (one collection, one file).")
    var format: Format = .dataset

    @Option(help: "The dataset's name in index.json; the database's name when left out.")
    var name: String?

    @Flag(help: "Print what was exported as JSON (not with output '-').")
    var json = false

    func validate() throws {
        if json, output == "-" {
            throw ValidationError("--json needs an output file: standard output holds the documents.")
        }
        if format == .jsonl, collections.count > 1 {
            throw ValidationError("--format jsonl exports one collection; give at most one --collection.")
        }
    }

    func run() throws {
        try target.with { database in
            let sources =
                collections.isEmpty && format == .dataset
                ? try database.allCollections()
                : try (collections.isEmpty ? [nil] : collections.map(Optional.some)).map {
                    try database.collection(.named($0))
                }
            let total = sources.reduce(0) { $0 + Int(clamping: $1.count) }
            let progress = output != "-" && CommandOutput.isInteractive ? TerminalProgressBar() : nil
            defer { progress?.finish() }
            switch format {
            case .jsonl:
                let (documents, blobCount) = try DatasetWriter.writeJSONLines(of: sources[0], to: output) {
                    progress?.update(count: $0, total: total, label: sources[0].fullName)
                }
                progress?.finish()
                if blobCount > 0 {
                    FileHandle.standardError.write(
                        Data(
                            "Warning: \(blobCount) blob references written without their blobs; export a dataset to keep them.\n"
                                .utf8))
                }
                if json {
                    try Self.summary(output, documents: documents, collections: [sources[0].fullName], blobs: 0)
                } else if output != "-" {
                    CommandOutput.write("Exported \(documents) documents of \(sources[0].fullName) to \(output)\n")
                }
            case .dataset:
                let writer = try DatasetWriter(folder: URL(fileURLWithPath: output))
                for source in sources {
                    let listed = source.scope.name == Database.defaultScopeName ? source.name : source.fullName
                    try writer.addCollection(source, listedAs: listed) {
                        progress?.update(count: writer.documents, total: total, label: source.fullName)
                    }
                }
                let index = try writer.finish(name: name ?? database.name)
                progress?.finish()
                if json {
                    try Self.summary(
                        output, documents: writer.documents, collections: sources.map(\.fullName),
                        blobs: writer.blobs.count)
                } else {
                    CommandOutput.write(
                        "Exported \(writer.documents) documents in \(index.collections.count) collections and \(writer.blobs.count) blobs to \(output)\n"
                    )
                }
            }
        }
    }

    /// Prints what was exported as JSON: the same members for both formats.
    private static func summary(_ output: String, documents: Int, collections: [String], blobs: Int) throws {
        try CommandOutput.json(
            .object([
                "output": .string(output), "documents": .int(Int64(documents)),
                "collections": .array(collections.map(JSONValue.string)), "blobs": .int(Int64(blobs)),
            ]))
    }
}
