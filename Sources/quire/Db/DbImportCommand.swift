import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder
import QuireFixtures

/// `quire db import DATABASE SOURCE [--collection C ...] [--batch-size N]`.
struct DbImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import documents and blobs from a dataset folder or a JSON Lines file.",
        discussion: """
            SOURCE is a dataset folder (index.json, <collection>.jsonl, Attachments/; what export \
            and fixture generate write), whose collections are created as needed, or a .jsonl file \
            imported into --collection. Each line is a JSON object with its ID in "_id"; a document \
            that exists gets a new revision. Lines are read as a stream and saved in transactions \
            of --batch-size; a progress bar is drawn when standard output is a terminal.

            Example:
              quire db import travel.quire travel-data
              quire db import travel.quire hotels.jsonl --collection inventory.hotel
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Argument(help: "A dataset folder, or a .jsonl file.")
    var source: String

    @Option(
        name: .customLong("collection"),
        help:
            "For a dataset, a collection to import (repeatable, default all); for a .jsonl file, the collection to import into."
    )
    var collections: [String] = []

    @Option(help: "Documents per transaction.")
    var batchSize: Int = 1_000

    func validate() throws {
        guard batchSize > 0 else { throw ValidationError("--batch-size must be positive, not \(batchSize).") }
    }

    func run() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else {
            throw DbFailure("No dataset folder or JSON Lines file at \(source)")
        }
        let (documents, blobs) = try target.with { database in
            isDirectory.boolValue ? try importDataset(into: database) : try importLines(into: database)
        }
        DbOutput.write("Imported \(documents) documents and \(blobs) blobs from \(source)\n")
    }

    private func importDataset(into database: Database) throws -> (Int, Int) {
        let reader = try DatasetReader(folder: URL(fileURLWithPath: source))
        let names = collections.isEmpty ? reader.index.collections : collections
        for name in names where reader.index.listedEntry(for: name) == nil {
            throw DbFailure(
                "Dataset '\(reader.index.name)' has no collection '\(name)' (it has: \(reader.index.collections.joined(separator: ", ")))"
            )
        }
        let progress = DbProgressLine(total: DbOutput.isInteractive ? try lineCount(reader, names) : 0)
        defer { progress.finish() }
        var documents = 0
        var stored: Set<String> = []
        for name in names {
            let destination = try DbCollectionName(DatasetIndex.fullName(of: name)).resolveOrCreate(in: database)
            var batch = DbImportBatch(collection: destination, size: batchSize)
            try reader.forEachDocument(in: name) { document in
                for reference in document.blobReferences where !stored.contains(reference.digest) {
                    try reader.verifyBlob(digest: reference.digest)
                    let blob = try Blob(
                        contentType: reference.contentType ?? "application/octet-stream",
                        fileURL: try reader.blobURL(forDigest: reference.digest))
                    try database.saveBlob(blob: blob)
                    stored.insert(reference.digest)
                }
                try batch.add(id: document.id, body: document.body)
                documents += 1
                progress.advance(destination.fullName)
            }
            try batch.flush()
        }
        return (documents, stored.count)
    }

    private func importLines(into database: Database) throws -> (Int, Int) {
        guard collections.count <= 1 else {
            throw ValidationError("A JSON Lines file goes into one collection; give at most one --collection.")
        }
        let destination = try DbCollectionName(collections.first).resolve(in: database)
        var batch = DbImportBatch(collection: destination, size: batchSize)
        var documents = 0
        try DbLineReader(path: source).forEachLine { line, number in
            let place = "\(source) line \(number)"
            let value: JSONValue
            do {
                value = try JSONReader.parse(line)
            } catch let error as QuireError {
                throw DbFailure("\(place) is not valid JSON: \(error.message)")
            }
            guard case .object(var body) = value else { throw DbFailure("\(place) is not a JSON object") }
            guard case .string(let id)? = body.removeValue(forKey: "_id"), !id.isEmpty else {
                throw DbFailure("\(place) has no \"_id\" string")
            }
            try batch.add(id: id, body: body)
            documents += 1
        }
        try batch.flush()
        return (documents, 0)
    }

    private func lineCount(_ reader: DatasetReader, _ names: [String]) throws -> Int {
        var total = 0
        for name in names { try reader.forEachDocument(in: name) { _ in total += 1 } }
        return total
    }
}
