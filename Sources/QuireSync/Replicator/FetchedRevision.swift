import Quire

/// A fetched revision, or the peer's reason for not sending it.
enum FetchedRevision: Sendable {
    case revision(PulledRevision)
    case failure(documentID: String, QuireError)
}
