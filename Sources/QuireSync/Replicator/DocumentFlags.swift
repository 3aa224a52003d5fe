/// Facts about a replicated revision, given to filters and document-replication listeners.
public struct DocumentFlags: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int

    /// Flags from raw bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The revision is a deletion.
    public static let deleted = DocumentFlags(rawValue: 1 << 0)
    /// The user lost access to the document on the remote (Sync Gateway's `_removed`).
    public static let accessRemoved = DocumentFlags(rawValue: 1 << 1)
}
