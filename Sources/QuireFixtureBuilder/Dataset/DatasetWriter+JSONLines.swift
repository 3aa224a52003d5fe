import Quire

extension DatasetWriter {
    /// Writes the live documents of `collection` to `path` (`-`: standard output) as JSON
    /// Lines, one object a line with its ID in `_id`, in ID order; `added` hears the count
    /// after each. Blobs are not written, only the references to them.
    ///
    /// - Returns: the documents written, and the blob references among them (written without
    ///   their blobs, which a dataset folder would keep).
    package static func writeJSONLines(
        of collection: Quire.Collection, to path: String, added: (_ documents: Int) -> Void = { _ in }
    ) throws -> (documents: Int, blobReferences: Int) {
        let writer = try BufferedFileWriter.replacing(path)
        var documents = 0
        var blobReferences = 0
        try forEachDocument(in: collection) { document in
            try writer.append(try JSONWriter.bytes(document) + [0x0a])
            blobReferences += CommandJSONText.blobs(in: document).count
            documents += 1
            added(documents)
        }
        try writer.close()
        return (documents, blobReferences)
    }
}
