import Quire

/// Builds, packs, verifies and installs prebuilt Quire databases.
public enum QuireFixtures {
    /// The fixture format version written into manifests.
    public static let formatVersion = 1
    /// The Quire version recorded in manifests this build writes: the library's own,
    /// ``QuireVersion/current``.
    public static let quireVersion = QuireVersion.current
}
