/// Bounds an archive must stay within before and while it is read, against decompression
/// bombs and archives built to exhaust disk or memory.
///
/// Declared sizes are checked up front, and the bytes actually produced are counted while
/// reading, since a hostile archive can declare anything.
public struct ArchiveLimits: Sendable, Equatable {
    /// Most entries (files and folders) an archive may hold.
    public var maximumEntryCount: Int
    /// Most bytes all entries may expand to, together.
    public var maximumTotalSize: Int64
    /// Most bytes one entry may expand to.
    public var maximumEntrySize: Int64
    /// Most an entry may expand relative to the compressed bytes read for it. Deflate cannot
    /// exceed about 1032:1; real database files stay far below the default.
    public var maximumCompressionRatio: Double
    /// Entries that expand to fewer bytes than this are not held to the ratio, since tiny
    /// runs of zeros legitimately compress very well.
    public var compressionRatioThreshold: Int64

    /// The defaults: 10,000 entries, 16 GiB in total and per entry, ratio 200:1 for entries
    /// over 1 MiB.
    public static let `default` = ArchiveLimits()

    /// Makes limits; every parameter has the default value described on ``default``.
    public init(
        maximumEntryCount: Int = 10_000,
        maximumTotalSize: Int64 = 16 << 30,
        maximumEntrySize: Int64 = 16 << 30,
        maximumCompressionRatio: Double = 200,
        compressionRatioThreshold: Int64 = 1 << 20
    ) {
        self.maximumEntryCount = maximumEntryCount
        self.maximumTotalSize = maximumTotalSize
        self.maximumEntrySize = maximumEntrySize
        self.maximumCompressionRatio = maximumCompressionRatio
        self.compressionRatioThreshold = compressionRatioThreshold
    }
}
