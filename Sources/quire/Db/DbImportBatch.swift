import Foundation
import Quire

/// Documents waiting to be saved in one transaction.
struct DbImportBatch {
    /// Where they go.
    let collection: Collection
    /// How many a transaction holds.
    let size: Int
    private var pending: [(id: String, json: String)] = []

    init(collection: Collection, size: Int) {
        self.collection = collection
        self.size = size
    }

    /// Adds a document, saving the batch when it is full.
    mutating func add(id: String, body: [String: JSONValue]) throws {
        pending.append((id, try JSONWriter.string(.object(body))))
        if pending.count >= size { try flush() }
    }

    /// Saves what is pending in one transaction: a new document, or a new revision of an existing one.
    mutating func flush() throws {
        guard !pending.isEmpty else { return }
        let documents = pending
        let destination = collection
        try destination.database.inBatch {
            for (id, json) in documents {
                let document =
                    try destination.document(id: id).map { try $0.toMutable().setJSON(json) }
                    ?? MutableDocument(id: id, json: json)
                try destination.save(document: document)
            }
        }
        pending.removeAll(keepingCapacity: true)
    }
}
