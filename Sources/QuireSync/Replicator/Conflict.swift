import Quire

/// Two revisions of one document that replication found diverging.
public struct Conflict: Sendable {
    /// The document's ID.
    public let documentID: String
    /// The local revision; nil when it is a deletion.
    public let localDocument: Document?
    /// The remote revision; nil when it is a deletion.
    public let remoteDocument: Document?

    /// Makes a conflict.
    public init(documentID: String, localDocument: Document?, remoteDocument: Document?) {
        self.documentID = documentID
        self.localDocument = localDocument
        self.remoteDocument = remoteDocument
    }
}
