import Foundation
import Quire
import QuireFixtures

/// Loads a recipe's documents into the database being built: in batches (one transaction
/// each), with their blobs and expirations, hashing every input for ``FixtureIdentity``.
final class FixtureDocumentLoader {
    private let recipe: FixtureRecipe
    private let database: Database
    private let timestamp: FixtureTimestamp
    private let batchSize: Int
    private let report: (_ collection: String, _ loaded: Int) -> Void
    private let dataset: DatasetReader?
    private let attachments: URL
    private(set) var inputs = FixtureIdentity.InputHasher()
    private(set) var loaded = 0
    private var copiedBlobs: Set<String> = []

    /// `report` is called with the collection and the running document count after each batch.
    init(
        recipe: FixtureRecipe, database: Database, timestamp: FixtureTimestamp, batchSize: Int,
        report: @escaping (_ collection: String, _ loaded: Int) -> Void
    ) throws {
        self.recipe = recipe
        self.database = database
        self.timestamp = timestamp
        self.batchSize = batchSize
        self.report = report
        switch recipe.source {
        case .dataset(let folder): dataset = try DatasetReader(folder: folder)
        case .jsonLines, .remote: dataset = nil
        }
        attachments = URL(fileURLWithPath: database.path).appendingPathComponent(DatasetBlobName.folderName)
    }

    /// Loads every document of one collection, in file order.
    func load(_ settings: FixtureRecipe.CollectionSettings, into collection: Quire.Collection) throws {
        let reader = try recipe.documentReader(for: settings)
        inputs.beginCollection(settings.name)
        var batch: [(document: MutableDocument, expiration: Date?, where: String)] = []
        func flush() throws {
            guard !batch.isEmpty else { return }
            try database.inBatch {
                for item in batch {
                    do {
                        try collection.save(document: item.document)
                        if let expiration = item.expiration {
                            try collection.setDocumentExpiration(id: item.document.id, expiration: expiration)
                        }
                    } catch let error as QuireError {
                        var located = error
                        located.message = "\(item.where): \(error.message)"
                        throw located
                    }
                }
            }
            loaded += batch.count
            batch.removeAll(keepingCapacity: true)
            report(settings.name, loaded)
        }
        let fileName = reader.url.lastPathComponent
        try reader.forEachDocument { document, line in
            let place = "line \(document.line) of '\(fileName)', document '\(document.id)'"
            inputs.addLine(line)
            for reference in document.blobReferences where !copiedBlobs.contains(reference.digest) {
                try copyBlob(reference, place: place)
            }
            // Through canonical JSON text, not Foundation values: the save then takes its
            // body straight from the parsed text (sorted already) instead of converting every
            // value twice.
            let mutable: MutableDocument
            do {
                mutable = try MutableDocument(id: document.id, json: JSONWriter.string(.object(document.body)))
            } catch let error as QuireError {
                throw QuireError(error.code, "\(place): \(error.message)")
            }
            let expiration = try expiration(of: document, parsed: mutable, settings: settings, place: place)
            batch.append((mutable, expiration, place))
            if batch.count >= batchSize { try flush() }
        }
        try flush()
    }

    private func copyBlob(_ reference: DatasetBlobReference, place: String) throws {
        guard let dataset else {
            throw QuireError(
                .invalidParameter,
                "\(place) refers to blob \(reference.digest), but a jsonl source has no blobs; use a dataset folder")
        }
        let source: URL
        let length: Int64
        do {
            source = try dataset.blobURL(forDigest: reference.digest)
            length = try dataset.verifyBlob(digest: reference.digest)
        } catch let error as QuireError {
            throw QuireError(error.code, "\(place): \(error.message)")
        }
        if let declared = reference.length, declared != length {
            throw QuireError(
                .corruptData, "\(place) gives blob \(reference.digest) \(declared) bytes; its file has \(length)")
        }
        let target = attachments.appendingPathComponent(try DatasetBlobName.fileName(forDigest: reference.digest))
        do {
            try FileManager.default.createDirectory(at: attachments, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: target)
        } catch {
            throw QuireError(
                .ioError, "cannot copy blob \(reference.digest) into the database: \(error.localizedDescription)")
        }
        copiedBlobs.insert(reference.digest)
        inputs.addBlob(reference.digest)
    }

    private func expiration(
        of document: DatasetDocument, parsed: MutableDocument, settings: FixtureRecipe.CollectionSettings, place: String
    ) throws -> Date? {
        let date: Date
        switch settings.expiration {
        case nil:
            return nil
        case .after(let seconds)?:
            date = Date(timeIntervalSince1970: TimeInterval(timestamp.secondsSinceEpoch + seconds))
        case .field(let field)?:
            switch document.body[field] {
            case nil, .null?:
                return nil
            case .string(let text)?:
                guard let moment = parsed.date(forKey: field) else {
                    throw QuireError(
                        .invalidParameter,
                        "\(place): expiration field '\(field)' holds '\(text)', which is not an ISO 8601 date")
                }
                date = moment
            case .int(let milliseconds)?:
                date = Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
            default:
                throw QuireError(
                    .invalidParameter,
                    "\(place): expiration field '\(field)' must be milliseconds since the epoch or an ISO 8601 date")
            }
        }
        guard date > timestamp.date else {
            throw QuireError(
                .invalidParameter,
                "\(place) would expire at \(ISO8601DateFormatter().string(from: date)), not after the build timestamp "
                    + "\(timestamp.iso8601): it would be purged before anyone used it")
        }
        return date
    }
}
