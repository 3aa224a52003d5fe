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
        let all = importer.finished + (importer.current.map { [$0] } ?? [])
        for collection in created where !all.contains(where: { $0.collection == collection && $0.saved > 0 }) {
            try? importer.database.deleteCollection(name: collection.name, scope: collection.scope.name)
        }
        let reason: String
        switch error {
        case let failure as CommandFailure: reason = failure.description
        case let error as QuireError: reason = CommandFailure(error.message).description
        default: reason = CommandFailure(String(describing: error)).description
        }
        var kept = importer.finished.map { "all \($0.saved) documents of \($0.collection.fullName) are kept" }
        if let current = importer.current { kept.append(Self.kept(current, batchSize: importer.batchSize)) }
        let summary = kept.isEmpty ? "nothing was saved" : kept.joined(separator: "; ")
        return CommandFailure(String(reason.dropLast()) + " (" + summary + ")")
    }

    /// What was kept of a collection, in words: "the 2000 documents up to line 2000 (2 batches of
    /// at most 1000) are kept in inventory.hotel" or "nothing was saved in inventory.hotel".
    private static func kept(_ tally: DatasetImporter.CollectionTally, batchSize: Int) -> String {
        let (saved, batches, collection) = (tally.saved, tally.batches, tally.collection.fullName)
        guard let lastSavedLine = tally.lastSavedLine, saved > 0 else { return "nothing was saved in \(collection)" }
        return
            "the \(saved) \(saved == 1 ? "document" : "documents") up to line \(lastSavedLine) "
            + "(\(batches) \(batches == 1 ? "batch" : "batches") of at most \(batchSize)) are kept in \(collection)"
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
        let reader = try JSONLinesReader(path: source)
        while let line = try reader.nextLine() {
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            let place = "\(source) line \(reader.lineNumber)"
            let value: JSONValue
            do {
                value = try line.withUnsafeBytes { try JSONReader.parse($0) }
            } catch let error as QuireError {
                throw CommandFailure("\(place) is not valid JSON: \(error.message)")
            }
            guard case .object(var body) = value else { throw CommandFailure("\(place) is not a JSON object") }
            guard case .string(let id)? = body.removeValue(forKey: "_id"), !id.isEmpty else {
                throw CommandFailure("\(place) has no \"_id\" string")
            }
            // Blob references stay as they are: a JSON Lines file carries no blobs.
            try importer.add(
                DatasetDocument(id: id, line: reader.lineNumber, body: body, blobReferences: []), blobsFrom: nil)
        }
        try importer.finish()
    }

    private func lineCount(_ reader: DatasetReader, _ names: [String]) throws -> Int {
        var total = 0
        for name in names { try reader.forEachDocument(in: name) { _ in total += 1 } }
        return total
    }
}
