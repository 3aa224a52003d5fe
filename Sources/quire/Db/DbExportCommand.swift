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
        completion: .custom(DbCompletion.collections))
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
                ? try DbCollectionName.all(in: database)
                : try (collections.isEmpty ? [nil] : collections.map(Optional.some)).map {
                    try DbCollectionName($0).resolve(in: database)
                }
            let progress = DbProgressLine(
                total: sources.reduce(0) { $0 + Int(clamping: $1.count) },
                shown: output != "-" && DbOutput.isInteractive)
            defer { progress.finish() }
            switch format {
            case .jsonl:
                let writer = try DbFileWriter(path: output)
                var blobCount = 0
                try Self.forEachDocument(in: sources[0]) { line, body in
                    try writer.append(line)
                    blobCount += DbJSONText.blobs(in: .object(body)).count
                    progress.advance(sources[0].fullName)
                }
                try writer.close()
                progress.finish()
                if blobCount > 0 {
                    FileHandle.standardError.write(
                        Data(
                            "Warning: \(blobCount) blob references written without their blobs; export a dataset to keep them.\n"
                                .utf8))
                }
                if json {
                    try Self.summary(output, documents: progress.count, collections: [sources[0].fullName], blobs: 0)
                } else if output != "-" {
                    DbOutput.write("Exported \(progress.count) documents of \(sources[0].fullName) to \(output)\n")
                }
            case .dataset:
                let folder = URL(fileURLWithPath: output)
                try Self.prepare(folder)
                let attachments = folder.appendingPathComponent(DatasetBlobName.folderName)
                var written: Set<String> = []
                var listed: [String] = []
                for source in sources {
                    let entry = source.scope.name == Database.defaultScopeName ? source.name : source.fullName
                    listed.append(entry)
                    let writer = try DbFileWriter(path: DatasetReader.documentsURL(in: folder, listed: entry).path)
                    try Self.forEachDocument(in: source) { line, body in
                        try writer.append(line)
                        for blob in DbJSONText.blobs(in: .object(body)) {
                            let digest = blob["digest"]?.stringValue ?? ""
                            guard written.insert(digest).inserted else { continue }
                            try Self.copyBlob(blob, from: database, into: attachments)
                        }
                        progress.advance(source.fullName)
                    }
                    try writer.close()
                }
                let index = JSONValue.object([
                    "name": .string(name ?? database.name), "collections": .array(listed.map(JSONValue.string)),
                ])
                let indexWriter = try DbFileWriter(path: folder.appendingPathComponent(DatasetIndex.fileName).path)
                try indexWriter.append(try JSONWriter.bytes(index) + [0x0a])
                try indexWriter.close()
                progress.finish()
                if json {
                    try Self.summary(
                        output, documents: progress.count, collections: sources.map(\.fullName), blobs: written.count)
                } else {
                    DbOutput.write(
                        "Exported \(progress.count) documents in \(listed.count) collections and \(written.count) blobs to \(output)\n"
                    )
                }
            }
        }
    }

    /// Prints what was exported as JSON: the same members for both formats.
    private static func summary(_ output: String, documents: Int, collections: [String], blobs: Int) throws {
        try DbOutput.json(
            .object([
                "output": .string(output), "documents": .int(Int64(documents)),
                "collections": .array(collections.map(JSONValue.string)), "blobs": .int(Int64(blobs)),
            ]))
    }

    /// Calls `body` with each live document of `source` in ID order, as its JSON line (with
    /// `_id`, canonical, newline-terminated) and its body; reads a page of IDs at a time.
    static func forEachDocument(in source: Collection, _ body: ([UInt8], [String: JSONValue]) throws -> Void) throws {
        var after: String?
        while true {
            let page = try source.liveDocuments(from: after, skip: after == nil ? 0 : 1, limit: 500)
            for listing in page {
                // A document deleted since the page was read is passed over.
                guard let document = try source.document(id: listing.id) else { continue }
                var members = try DbJSONText.body(of: document)
                let properties = members
                members["_id"] = .string(listing.id)
                try body(try JSONWriter.bytes(.object(members)) + [0x0a], properties)
            }
            guard page.count == 500 else { return }
            after = page.last?.id
        }
    }

    /// Writes the content of the blob `properties` describe into `attachments`, streaming.
    static func copyBlob(_ properties: [String: JSONValue], from database: Database, into attachments: URL) throws {
        let digest = properties["digest"]?.stringValue ?? ""
        guard let blob = try database.getBlob(properties: properties.mapValues(\.anyValue)),
            let stream = blob.contentStream
        else {
            throw DbFailure(
                "A document refers to blob \(digest), which the database does not hold (run quire db check)")
        }
        try FileManager.default.createDirectory(at: attachments, withIntermediateDirectories: true)
        let writer = try DbFileWriter(
            path: attachments.appendingPathComponent(try DatasetBlobName.fileName(forDigest: digest)).path)
        stream.open()
        defer { stream.close() }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = stream.read(&chunk, maxLength: chunk.count)
            if count < 0 {
                throw DbFailure(
                    "Cannot read blob \(digest): \(stream.streamError?.localizedDescription ?? "read failed")")
            }
            if count == 0 { break }
            try writer.append(Array(chunk[..<count]))
        }
        try writer.close()
    }

    /// Creates `folder`, or checks that it is an empty folder.
    static func prepare(_ folder: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw DbFailure("\(folder.path) exists and is not a folder") }
            guard try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty else {
                throw DbFailure("The output folder \(folder.path) is not empty")
            }
        } else {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }
}
