import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder
import QuireFixtures

/// `quire db import DATABASE SOURCE [-c COLLECTION ...] [--batch-size N] [--json]`.
struct DbImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import documents and blobs from a dataset folder or a JSON Lines file.",
        discussion: """
            SOURCE is a dataset folder (index.json, <collection>.jsonl, Attachments/; what export \
            and fixture generate write), whose collections are created as needed, or a .jsonl file \
            imported into --collection, else into the collection its name gives (inventory.hotel.jsonl; \
            created as needed), else into the default collection. Each line is a JSON object with its \
            ID in "_id"; a document that exists gets a new revision. Lines are read as a stream and \
            saved in transactions of --batch-size; a progress bar is drawn when standard output is a \
            terminal. When a line is bad the import stops and says which documents were kept (the \
            transactions committed before it); a collection it created and saved nothing into is \
            deleted again.

            Example:
              quire db import travel.quire travel-data
              quire db import travel.quire hotels.jsonl -c inventory.hotel
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Argument(help: "A dataset folder, or a .jsonl file.")
    var source: String

    @Option(
        name: [.customShort("c"), .customLong("collection")],
        help: """
            For a dataset, a collection to import (repeatable, default all); for a .jsonl file, \
            the collection to import into.
            """
    )
    var collections: [String] = []

    @Option(help: "Documents per transaction.")
    var batchSize: Int = 1_000

    @Flag(help: "Print what was imported as JSON.")
    var json = false

    func validate() throws {
        guard batchSize > 0 else { throw ValidationError("--batch-size must be positive, not \(batchSize).") }
    }

    func run() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else {
            throw CommandFailure("No dataset folder or JSON Lines file at \(source)")
        }
        if !isDirectory.boolValue, collections.count > 1 {
            throw CommandFailure("A JSON Lines file goes into one collection; give at most one --collection")
        }
        let (importer, names) = try target.with { database in
            let importer = DatasetImporter(database: database, batchSize: batchSize, updatesExisting: true)
            var created: [Collection] = []
            do {
                try isDirectory.boolValue
                    ? importDataset(with: importer, created: &created)
                    : importLines(with: importer, created: &created)
            } catch {
                throw Self.failure(error, importer: importer, created: created)
            }
            return (importer, importer.finished.map(\.collection.fullName))
        }
        if json {
            try CommandOutput.json(
                .object([
                    "source": .string(source), "documents": .int(Int64(importer.loaded)),
                    "blobs": .int(Int64(importer.storedBlobs.count)),
                    "collections": .array(names.map(JSONValue.string)),
                ]))
        } else {
            CommandOutput.write(
                "Imported \(importer.loaded) documents and \(importer.storedBlobs.count) blobs from \(source)\n")
        }
    }

    /// `error` with what the import kept; collections it created and saved nothing into are deleted.
    private static func failure(_ error: any Error, importer: DatasetImporter, created: [Collection]) -> CommandFailure
    {
        importer.deleteUnused(created)
        let reason: String
        switch error {
        case let failure as CommandFailure: reason = failure.description
        case let error as QuireError: reason = CommandFailure(error.message).description
        default: reason = CommandFailure(String(describing: error)).description
        }
        return CommandFailure(String(reason.dropLast()) + " (" + importer.keptSummary + ")")
    }

    /// The collection a JSON Lines file goes into: --collection; else the one its name gives
    /// (`inventory.hotel.jsonl`), created when missing; else the default collection.
    private func destination(forLinesIn database: Database, created: inout [Collection]) throws -> Collection {
        if let named = collections.first { return try database.collection(.named(named)) }
        let stem = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
        guard URL(fileURLWithPath: source).pathExtension == "jsonl", stem.contains(".") else {
            return try database.collection(.named(nil))
        }
        let name = CollectionName.named(stem)
        if let existing = try database.collection(name: name.name, scope: name.scope) { return existing }
        let made = try CommandFailure.reporting { try database.collection(creatingIfMissing: name) }
        created.append(made)
        return made
    }

    private func importDataset(with importer: DatasetImporter, created: inout [Collection]) throws {
        let reader = try DatasetReader(folder: URL(fileURLWithPath: source))
        let names = collections.isEmpty ? reader.index.collections : collections
        for name in names where reader.index.listedEntry(for: name) == nil {
            throw CommandFailure(
                "Dataset '\(reader.index.name)' has no collection '\(name)' (it has: \(reader.index.collections.joined(separator: ", ")))"
            )
        }
        let total = CommandOutput.isInteractive ? try lineCount(reader, names) : 0
        let progress = CommandOutput.isInteractive ? TerminalProgressBar() : nil
        defer { progress?.finish() }
        var count = 0
        try importer.importDataset(reader, collections: names, created: { created.append($0) }) { collection in
            count += 1
            progress?.update(count: count, total: total, label: collection.fullName)
        }
    }

    private func importLines(with importer: DatasetImporter, created: inout [Collection]) throws {
        try importer.begin(try destination(forLinesIn: importer.database, created: &created))
        var reader = JSONLinesDocumentReader(url: URL(fileURLWithPath: source))
        reader.lineName = { [source] in "\(source) line \($0)" }
        reader.requiresUniqueIDs = false
        reader.readsBlobReferences = false
        reader.acceptsIntegerIDs = false
        try reader.forEachDocument { document, _ in try importer.add(document, blobsFrom: nil) }
        try importer.finish()
    }

    private func lineCount(_ reader: DatasetReader, _ names: [String]) throws -> Int {
        var total = 0
        for name in names { try reader.forEachDocument(in: name) { _ in total += 1 } }
        return total
    }
}
