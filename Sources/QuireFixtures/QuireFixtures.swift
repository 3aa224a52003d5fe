/// Builds, packs, verifies and installs prebuilt Quire databases.
public enum QuireFixtures {
    /// The fixture format version written into manifests.
    public static let formatVersion = 1
}
