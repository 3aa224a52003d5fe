import Foundation
import Quire
import QuireFixtures

/// Loads a recipe's documents into the database being built: in batches (one transaction
/// each), with their blobs and expirations, hashing every input for ``FixtureIdentity``.
final class FixtureDocumentLoader {
    private let recipe: FixtureRecipe
    private let timestamp: FixtureTimestamp
    private let dataset: DatasetReader?
    private let importer: DatasetImporter
    private(set) var inputs = FixtureIdentity.InputHasher()
    var loaded: Int { importer.loaded }

    /// `report` is called with the collection and the running document count after each batch.
    init(
        recipe: FixtureRecipe, database: Database, timestamp: FixtureTimestamp, batchSize: Int,
        report: @escaping (_ collection: String, _ loaded: Int) -> Void
    ) throws {
        self.recipe = recipe
        self.timestamp = timestamp
        switch recipe.source {
        case .dataset(let folder): dataset = try DatasetReader(folder: folder)
        case .jsonLines, .remote: dataset = nil
        }
        importer = DatasetImporter(database: database, batchSize: batchSize, blobStorage: .copyFiles) { tally, loaded in
            report(tally.collection.fullName, loaded)
        }
    }

    /// Loads every document of one collection, in file order.
    func load(_ settings: FixtureRecipe.CollectionSettings, into collection: Quire.Collection) throws {
        let reader = try recipe.documentReader(for: settings)
        inputs.beginCollection(settings.name)
        try importer.begin(collection)
        let fileName = reader.url.lastPathComponent
        try reader.forEachDocument { document, line in
            let place = "line \(document.line) of '\(fileName)', document '\(document.id)'"
            inputs.addLine(line)
            let blobs = try importer.add(document, blobsFrom: dataset, place: place) { parsed in
                try self.expiration(of: document, parsed: parsed, settings: settings, place: place)
            }
            for digest in blobs { inputs.addBlob(digest) }
        }
        try importer.finish()
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
