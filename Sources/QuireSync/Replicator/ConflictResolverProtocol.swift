import Quire

/// Decides how a conflict ends.
public protocol ConflictResolverProtocol: Sendable {
    /// The resolved document: one of the two sides, a new document with the same ID, or nil
    /// to delete the document.
    func resolve(conflict: Conflict) -> Document?
}
