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
            throw DbFailure("No dataset folder or JSON Lines file at \(source)")
        }
        if !isDirectory.boolValue, collections.count > 1 {
            throw DbFailure("A JSON Lines file goes into one collection; give at most one --collection")
        }
        var tally = Tally()
        try target.with { database in
            do {
                try isDirectory.boolValue
                    ? importDataset(into: database, tally: &tally) : importLines(into: database, tally: &tally)
            } catch {
                throw tally.failure(error, database: database)
            }
        }
        let names = tally.finished.map(\.collection.fullName)
        if json {
            try DbOutput.json(
                .object([
                    "source": .string(source), "documents": .int(Int64(tally.documents)),
                    "blobs": .int(Int64(tally.blobs.count)), "collections": .array(names.map(JSONValue.string)),
                ]))
        } else {
            DbOutput.write("Imported \(tally.documents) documents and \(tally.blobs.count) blobs from \(source)\n")
        }
    }

    /// What an import has done so far: the batches of the collections finished and of the one
    /// under way, the collections it created, and the blobs it stored.
    private struct Tally {
        var finished: [DbImportBatch] = []
        var current: DbImportBatch?
        var created: [Collection] = []
        var blobs: Set<String> = []

        var documents: Int { finished.reduce(0) { $0 + $1.saved } }

        /// `error` with what the import kept; collections it created and saved nothing into are deleted.
        func failure(_ error: any Error, database: Database) -> DbFailure {
            let all = finished + (current.map { [$0] } ?? [])
            for collection in created where !all.contains(where: { $0.collection == collection && $0.saved > 0 }) {
                try? database.deleteCollection(name: collection.name, scope: collection.scope.name)
            }
            let reason: String
            switch error {
            case let failure as DbFailure: reason = failure.description
            case let error as QuireError: reason = DbFailure(error.message).description
            default: reason = DbFailure(String(describing: error)).description
            }
            var kept = finished.map { "all \($0.saved) documents of \($0.collection.fullName) are kept" }
            if let current { kept.append(current.kept) }
            let summary = kept.isEmpty ? "nothing was saved" : kept.joined(separator: "; ")
            return DbFailure(String(reason.dropLast()) + " (" + summary + ")")
        }
    }

    /// The collection a JSON Lines file goes into: --collection; else the one its name gives
    /// (`inventory.hotel.jsonl`), created when missing; else the default collection.
    private func destination(forLinesIn database: Database, tally: inout Tally) throws -> Collection {
        if let named = collections.first { return try DbCollectionName(named).resolve(in: database) }
        let stem = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
        guard URL(fileURLWithPath: source).pathExtension == "jsonl", stem.contains(".") else {
            return try DbCollectionName(nil).resolve(in: database)
        }
        let name = DbCollectionName(stem)
        if let existing = try database.collection(name: name.name, scope: name.scope) { return existing }
        let created = try DbFailure.reporting { try name.resolveOrCreate(in: database) }
        tally.created.append(created)
        return created
    }

    private func importDataset(into database: Database, tally: inout Tally) throws {
        let reader = try DatasetReader(folder: URL(fileURLWithPath: source))
        let names = collections.isEmpty ? reader.index.collections : collections
        for name in names where reader.index.listedEntry(for: name) == nil {
            throw DbFailure(
                "Dataset '\(reader.index.name)' has no collection '\(name)' (it has: \(reader.index.collections.joined(separator: ", ")))"
            )
        }
        let progress = DbProgressLine(total: DbOutput.isInteractive ? try lineCount(reader, names) : 0)
        defer { progress.finish() }
        for name in names {
            let collectionName = DbCollectionName(DatasetIndex.fullName(of: name))
            let destination: Collection
            if let existing = try database.collection(name: collectionName.name, scope: collectionName.scope) {
                destination = existing
            } else {
                destination = try collectionName.resolveOrCreate(in: database)
                tally.created.append(destination)
            }
            tally.current = DbImportBatch(collection: destination, size: batchSize)
            try reader.forEachDocument(in: name) { document in
                for reference in document.blobReferences where !tally.blobs.contains(reference.digest) {
                    try reader.verifyBlob(digest: reference.digest)
                    let blob = try Blob(
                        contentType: reference.contentType ?? "application/octet-stream",
                        fileURL: try reader.blobURL(forDigest: reference.digest))
                    try database.saveBlob(blob: blob)
                    tally.blobs.insert(reference.digest)
                }
                try tally.current?.add(id: document.id, body: document.body, line: document.line)
                progress.advance(destination.fullName)
            }
            try tally.current?.flush()
            if let done = tally.current { tally.finished.append(done) }
            tally.current = nil
        }
    }

    private func importLines(into database: Database, tally: inout Tally) throws {
        let destination = try destination(forLinesIn: database, tally: &tally)
        tally.current = DbImportBatch(collection: destination, size: batchSize)
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
            try tally.current?.add(id: id, body: body, line: number)
        }
        try tally.current?.flush()
        if let done = tally.current { tally.finished.append(done) }
        tally.current = nil
    }

    private func lineCount(_ reader: DatasetReader, _ names: [String]) throws -> Int {
        var total = 0
        for name in names { try reader.forEachDocument(in: name) { _ in total += 1 } }
        return total
    }
}
