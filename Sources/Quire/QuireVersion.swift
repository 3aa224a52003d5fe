/// The version of the Quire library, the one place it is written.
///
/// Everything that records or reports which Quire made something (fixture manifests, the
/// `quire` tool's `--version`, the replicator) reads it from here, so they cannot drift apart.
/// A type of its own rather than a member of a `Quire` type, which would shadow the module
/// name in qualified references such as `Quire.Collection`.
public enum QuireVersion {
    /// The library's semantic version, such as `0.1.0`.
    public static let current = "0.1.0"
}
