/// A collection's document reached by subscript (`collection["doc1"]["address"]["city"].string`),
/// as Couchbase Lite's `DocumentFragment`: a document that is missing, deleted or unreadable
/// reads as one that does not exist.
public struct DocumentFragment {
    /// The document, or nil when there is none under the ID.
    public let document: Document?

    /// Whether a document was found.
    public var exists: Bool { document != nil }

    /// The member `key` of the document.
    public subscript(key: String) -> Fragment { Fragment(document?.value(forKey: key)) }
}

extension Collection {
    /// The document `id` as a fragment: `collection["doc1"].exists`, `collection["doc1"]["name"]`.
    /// A document that cannot be read (the collection deleted, a bad ID) does not exist.
    public subscript(id: String) -> DocumentFragment { DocumentFragment(document: try? document(id: id)) }
}
