/// Runs declarative scenario files against a document-store engine.
public enum QuireConformance {
    /// The scenario format version this runner reads.
    public static let formatVersion = 1
}
