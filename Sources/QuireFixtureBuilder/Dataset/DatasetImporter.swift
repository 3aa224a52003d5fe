import Foundation
import Quire
import QuireFixtures

/// Saves dataset documents into a database: in transactions of ``batchSize`` documents, each
/// document's blobs stored first (once each, checked against their digest and declared
/// length). `quire db import`, `quire fixture build` and the test server's `/reset` all load
/// datasets through it.
///
/// A failed transaction saves none of its documents; what earlier transactions committed
/// stays, and ``finished`` and ``current`` say how much that was, so a caller can tell the
/// person what was kept.
package final class DatasetImporter {
    /// How blob files reach the database.
    package enum BlobStorage: Sendable {
        /// Through `Database.saveBlob(blob:)`, as an app stores a blob.
        case save
        /// Copied as they are into the database folder's `Attachments/`, under the dataset's
        /// file name: the fixture builder's way (no second hash; the bytes and names a
        /// fixture archives do not depend on the blob store).
        case copyFiles
    }

    /// What the import committed into one collection.
    package struct CollectionTally {
        /// The collection.
        package let collection: Quire.Collection
        /// Documents committed.
        package fileprivate(set) var saved = 0
        /// Transactions committed.
        package fileprivate(set) var batches = 0
        /// The dataset line of the last document committed.
        package fileprivate(set) var lastSavedLine: Int?
    }

    /// The database documents go into.
    package let database: Database
    /// Documents per transaction.
    package let batchSize: Int
    /// Whether a document that exists already gets a new revision on top of its current one
    /// (`quire db import` into a database in use); a new database need not look.
    package let updatesExisting: Bool
    private let blobStorage: BlobStorage
    private let committed: (_ tally: CollectionTally, _ loaded: Int) -> Void
    /// The digests of the blobs stored so far.
    package private(set) var storedBlobs: Set<String> = []
    /// The collections done with, in order.
    package private(set) var finished: [CollectionTally] = []
    /// The collection under way.
    package private(set) var current: CollectionTally?
    /// Documents committed, in every collection.
    package private(set) var loaded = 0
    private var pending: [(document: MutableDocument, json: String, expiration: Date?, place: String?, line: Int)] = []

    /// An importer into `database`; `committed` is called after each transaction with the
    /// collection's tally and the documents committed in all.
    package init(
        database: Database, batchSize: Int, updatesExisting: Bool = false, blobStorage: BlobStorage = .save,
        committed: @escaping (_ tally: CollectionTally, _ loaded: Int) -> Void = { _, _ in }
    ) {
        self.database = database
        self.batchSize = max(1, batchSize)
        self.updatesExisting = updatesExisting
        self.blobStorage = blobStorage
        self.committed = committed
    }

    /// Ends the collection under way (saving what is pending) and directs what follows into
    /// `collection`.
    package func begin(_ collection: Quire.Collection) throws {
        try finish()
        current = CollectionTally(collection: collection)
    }

    /// Saves what is pending and ends the collection under way.
    package func finish() throws {
        try flush()
        if let current { finished.append(current) }
        current = nil
    }

    /// Adds `document` to the collection under way, saving the transaction when it is full.
    ///
    /// Its blobs come from `dataset`; `place` (`line 3 of 'hotel.jsonl', document 'h1'`), when
    /// given, starts the message of any error about it; `expiration` gives the date it is to
    /// expire, if any.
    ///
    /// - Returns: the digests of the blobs this document brought that were not stored yet, in order.
    /// - Throws: `QuireError.invalidParameter` for a blob reference without a dataset to take
    ///   it from; `.corruptData` for a blob file that does not match its reference; what
    ///   saving throws.
    @discardableResult
    package func add(
        _ document: DatasetDocument, blobsFrom dataset: DatasetReader?, place: String? = nil,
        expiration: (MutableDocument) throws -> Date? = { _ in nil }
    ) throws -> [String] {
        var newBlobs: [String] = []
        for reference in document.blobReferences where !storedBlobs.contains(reference.digest) {
            try store(reference, from: dataset, place: place)
            storedBlobs.insert(reference.digest)
            newBlobs.append(reference.digest)
        }
        // Through canonical JSON text, not Foundation values: the save then takes its body
        // straight from the parsed text (sorted already) instead of converting every value twice.
        let json: String
        let mutable: MutableDocument
        do {
            if let canonical = document.canonicalJSON {
                json = canonical
                mutable = MutableDocument(id: document.id, checkedCanonicalJSON: canonical)
            } else {
                json = try JSONWriter.string(.object(document.body))
                mutable = try MutableDocument(id: document.id, json: json)
            }
        } catch let error as QuireError {
            throw located(error, place)
        }
        pending.append((mutable, json, try expiration(mutable), place, document.line))
        if pending.count >= batchSize { try flush() }
        return newBlobs
    }

    /// Loads the collections `names` (as listed in its `index.json`; all when nil) of `dataset`,
    /// creating those that are missing; `created` hears of each one made, `added` of each
    /// document added.
    package func importDataset(
        _ dataset: DatasetReader, collections names: [String]? = nil,
        created: (Quire.Collection) -> Void = { _ in }, added: (Quire.Collection) -> Void = { _ in }
    ) throws {
        for listed in names ?? dataset.index.collections {
            let name = CollectionName(fullName: DatasetIndex.fullName(of: listed))
            let collection: Quire.Collection
            if let existing = try database.collection(name: name.name, scope: name.scope) {
                collection = existing
            } else {
                collection = try database.createCollection(name: name.name, scope: name.scope)
                created(collection)
            }
            try begin(collection)
            try dataset.forEachDocument(in: listed) { document in
                try add(document, blobsFrom: dataset)
                added(collection)
            }
            try finish()
        }
    }

    /// Saves what is pending in one transaction. A failure saves none of them.
    private func flush() throws {
        guard !pending.isEmpty, var tally = current else { return }
        let documents = pending
        let collection = tally.collection
        let updatesExisting = updatesExisting
        try database.inBatch {
            for item in documents {
                do {
                    var document = item.document
                    if updatesExisting, let existing = try collection.document(id: document.id) {
                        document = try existing.toMutable().setJSON(item.json)
                    }
                    try collection.save(document: document)
                    if let expiration = item.expiration {
                        try collection.setDocumentExpiration(id: document.id, expiration: expiration)
                    }
                } catch let error as QuireError {
                    throw located(error, item.place)
                }
            }
        }
        pending.removeAll(keepingCapacity: true)
        tally.saved += documents.count
        tally.batches += 1
        tally.lastSavedLine = documents.last?.line
        loaded += documents.count
        current = tally
        committed(tally, loaded)
    }

    private func store(_ reference: DatasetBlobReference, from dataset: DatasetReader?, place: String?) throws {
        guard let dataset else {
            throw QuireError(
                .invalidParameter,
                "\(place ?? "a document") refers to blob \(reference.digest), but a jsonl source has no blobs; use a dataset folder"
            )
        }
        let source: URL
        let length: Int64
        do {
            source = try dataset.blobURL(forDigest: reference.digest)
            length = try dataset.verifyBlob(digest: reference.digest)
        } catch let error as QuireError {
            throw located(error, place)
        }
        if let declared = reference.length, declared != length {
            throw QuireError(
                .corruptData,
                "\(place ?? "a document") gives blob \(reference.digest) \(declared) bytes; its file has \(length)")
        }
        switch blobStorage {
        case .save:
            let blob = try Blob(contentType: reference.contentType ?? "application/octet-stream", fileURL: source)
            try database.saveBlob(blob: blob)
        case .copyFiles:
            let attachments = URL(fileURLWithPath: database.path).appendingPathComponent(DatasetBlobName.folderName)
            let target = attachments.appendingPathComponent(try DatasetBlobName.fileName(forDigest: reference.digest))
            do {
                try FileManager.default.createDirectory(at: attachments, withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: source, to: target)
            } catch {
                throw QuireError(
                    .ioError, "cannot copy blob \(reference.digest) into the database: \(error.localizedDescription)")
            }
        }
    }

    private func located(_ error: QuireError, _ place: String?) -> QuireError {
        guard let place else { return error }
        var located = error
        located.message = "\(place): \(error.message)"
        return located
    }
}
