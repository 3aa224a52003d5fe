import Foundation
import Quire

/// Documents waiting to be saved in one transaction, and a tally of what earlier
/// transactions saved, so a failed import can say exactly what it kept.
struct DbImportBatch {
    /// Where they go.
    let collection: Collection
    /// How many a transaction holds.
    let size: Int
    private var pending: [(id: String, json: String, line: Int)] = []
    /// Documents saved (committed) so far.
    private(set) var saved = 0
    /// Transactions committed so far.
    private(set) var batches = 0
    /// The line of the last document committed.
    private(set) var lastSavedLine: Int?

    init(collection: Collection, size: Int) {
        self.collection = collection
        self.size = size
    }

    /// Adds the document of line `line`, saving the batch when it is full.
    mutating func add(id: String, body: [String: JSONValue], line: Int) throws {
        pending.append((id, try JSONWriter.string(.object(body)), line))
        if pending.count >= size { try flush() }
    }

    /// Saves what is pending in one transaction: a new document, or a new revision of an
    /// existing one. A failure saves none of them.
    mutating func flush() throws {
        guard !pending.isEmpty else { return }
        let documents = pending
        let destination = collection
        try destination.database.inBatch {
            for (id, json, _) in documents {
                let document =
                    try destination.document(id: id).map { try $0.toMutable().setJSON(json) }
                    ?? MutableDocument(id: id, json: json)
                try destination.save(document: document)
            }
        }
        saved += documents.count
        batches += 1
        lastSavedLine = documents.last?.line
        pending.removeAll(keepingCapacity: true)
    }

    /// What was kept, in words: "the 2000 documents of lines 1-2000 (2 batches of 1000) are kept
    /// in inventory.hotel" or "nothing was saved in inventory.hotel".
    var kept: String {
        guard let lastSavedLine, saved > 0 else { return "nothing was saved in \(collection.fullName)" }
        return
            "the \(saved) \(saved == 1 ? "document" : "documents") up to line \(lastSavedLine) "
            + "(\(batches) \(batches == 1 ? "batch" : "batches") of at most \(size)) are kept in \(collection.fullName)"
    }
}
