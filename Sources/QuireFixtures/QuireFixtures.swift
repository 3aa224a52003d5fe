import Quire

/// Builds, packs, verifies and installs prebuilt Quire databases.
public enum QuireFixtures {
    /// The fixture format version written into manifests. Version 5: Quire schema version 7,
    /// which stores bodies with their identifier keys bare (a Quire before it cannot read
    /// them); fixtures of versions 1 to 4 install and are upgraded as they open.
    /// Version 4: Quire schema version 6,
    /// whose document tables store Quire's own revision IDs packed (a Quire before it would
    /// misread them); fixtures of versions 1 to 3 install and are upgraded as they open.
    /// Version 3: Quire schema version 5,
    /// whose value and array indexes read bodies with `quire_extract` (a Quire before it cannot
    /// write to them); fixtures of versions 1 and 2 install and are upgraded as they open.
    /// Version 2: the database's document
    /// tables are keyed by sequence (Quire schema versions 3 and 4; 4 only adds an index, which
    /// opening a version-3 file creates). Version 1: `WITHOUT ROWID`
    /// document tables (schema versions 1 and 2); such fixtures still verify and install, and
    /// the database is upgraded as it is installed.
    public static let formatVersion = 5
    /// The format versions this Quire reads.
    public static let readableFormatVersions: ClosedRange<Int> = 1...5
    /// The Quire version recorded in manifests this build writes: the library's own,
    /// `QuireVersion.current`.
    public static let quireVersion = QuireVersion.current

    /// The Quire schema versions (`PRAGMA user_version`) a fixture of `formatVersion` holds,
    /// or nil for a format this Quire does not read.
    public static func schemaVersions(forFormat formatVersion: Int) -> ClosedRange<Int64>? {
        switch formatVersion {
        case 1: 1...2
        case 2: 3...4
        case 3: 5...5
        case 4: 6...6
        case 5: 7...7
        default: nil
        }
    }
}
