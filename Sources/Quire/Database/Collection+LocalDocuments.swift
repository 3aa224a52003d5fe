extension Collection {
    /// The local document `id` (CouchDB's `_local/<id>`): data kept beside the collection,
    /// without revisions, never replicated and never in queries; replication checkpoints live
    /// here. nil when absent. Its keys are told apart by their bytes, as a document's are.
    package func localDocument(id: String) throws -> JSONObject? {
        let text = try reading { connection in
            try connection.scalarText(
                "SELECT body FROM quire_local_docs WHERE collection_id = ? AND key = ?", [.integer(self.id), .text(id)])
        }
        guard let text else { return nil }
        guard case .object(let members) = try JSONReader.parse(text) else {
            throw QuireError(.corruptData, "local document '\(id)' in \(fullName) is not a JSON object")
        }
        return members
    }

    /// Stores (or, with nil, removes) the local document `id`.
    package func setLocalDocument(id: String, body: JSONObject?) throws {
        guard !id.isEmpty else { throw QuireError(.badDocID, "a local document needs a non-empty ID") }
        let text = try body.map { try JSONWriter.string(.object($0)) }
        try writing { connection in
            if let text {
                try connection.run(
                    "INSERT OR REPLACE INTO quire_local_docs (collection_id, key, body) VALUES (?, ?, ?)",
                    [.integer(self.id), .text(id), .text(text)])
            } else {
                try connection.run(
                    "DELETE FROM quire_local_docs WHERE collection_id = ? AND key = ?", [.integer(self.id), .text(id)])
            }
        }
    }
}
