/// Runs declarative scenario files against a document-store engine.
package enum QuireConformance {
    /// The scenario format version this runner reads.
    package static let formatVersion = 1
}
