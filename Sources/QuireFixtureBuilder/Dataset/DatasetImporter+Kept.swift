import Quire

extension DatasetImporter {
    /// Deletes those of `created` (collections made for the import) that it saved nothing
    /// into, after a failure: an import that stops leaves no empty collection behind.
    package func deleteUnused(_ created: [Quire.Collection]) {
        let all = finished + (current.map { [$0] } ?? [])
        for collection in created where !all.contains(where: { $0.collection == collection && $0.saved > 0 }) {
            try? database.deleteCollection(name: collection.name, scope: collection.scope.name)
        }
    }

    /// What the import committed, in words, for a message after a failure: "all 40 documents
    /// of inventory.airline are kept; the 2000 documents up to line 2000 (2 batches of at most
    /// 1000) are kept in inventory.hotel", or "nothing was saved".
    package var keptSummary: String {
        var kept = finished.map { "all \($0.saved) documents of \($0.collection.fullName) are kept" }
        if let current { kept.append(Self.kept(current, batchSize: batchSize)) }
        return kept.isEmpty ? "nothing was saved" : kept.joined(separator: "; ")
    }

    private static func kept(_ tally: CollectionTally, batchSize: Int) -> String {
        let (saved, batches, collection) = (tally.saved, tally.batches, tally.collection.fullName)
        guard let lastSavedLine = tally.lastSavedLine, saved > 0 else { return "nothing was saved in \(collection)" }
        return
            "the \(saved) \(saved == 1 ? "document" : "documents") up to line \(lastSavedLine) "
            + "(\(batches) \(batches == 1 ? "batch" : "batches") of at most \(batchSize)) are kept in \(collection)"
    }
}
