/// One entry of an archive as ``SafeArchiveReader`` reports it.
public struct ArchiveEntry: Sendable, Equatable, Hashable {
    /// What an entry is; nothing else passes validation.
    public enum Kind: String, Sendable, Equatable, Hashable {
        /// A regular file.
        case file
        /// A folder.
        case directory
    }

    /// The normalised relative path (`a/./b/` reads as `a/b`).
    public var path: String
    /// File or folder.
    public var kind: Kind
    /// For files: the declared size from ``SafeArchiveReader/validate()``, the counted size
    /// from ``SafeArchiveReader/listing()``; nil for folders or when the format does not say.
    public var size: Int64?
    /// For files read by ``SafeArchiveReader/listing()``: the lowercase hex SHA-256 of the content.
    public var sha256: String?

    /// Makes an entry description.
    public init(path: String, kind: Kind, size: Int64? = nil, sha256: String? = nil) {
        self.path = path
        self.kind = kind
        self.size = size
        self.sha256 = sha256
    }
}
