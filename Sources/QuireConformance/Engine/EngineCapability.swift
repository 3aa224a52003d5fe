/// Something an engine can do, by name: a step (`save`, `query` ...) or a feature a step may
/// need beyond the step itself (`concurrencyControl`, `transactions`, `documentState` ...).
///
/// Every engine declares its capabilities (``ConformanceEngine/capabilities``). A case that
/// needs one the engine lacks is reported as skipped, naming it: never passed, never failed.
/// The runner checks what a step needs before performing it (``Step/requiredCapabilities``);
/// an engine that finds out only while performing a step (a collection created after documents
/// were written, say) throws ``EngineError/missingCapability(_:_:)``.
package struct EngineCapability: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The capability's name: a step keyword, or a feature's name.
    package var name: String

    /// A capability by name.
    package init(_ name: String) { self.name = name }

    /// A capability by name, from a literal.
    package init(stringLiteral name: String) { self.name = name }

    /// The name.
    package var description: String { name }

    /// Orders by name, for reports.
    package static func < (lhs: EngineCapability, rhs: EngineCapability) -> Bool { lhs.name < rhs.name }

    /// Running a batch of steps as one transaction (`batch`).
    package static let transactions: EngineCapability = "transactions"
    /// Saving or deleting with failOnConflict or from a known revision.
    package static let concurrencyControl: EngineCapability = "concurrencyControl"
    /// Saving a body given as JSON text, for the engine's own parser.
    package static let rawJSON: EngineCapability = "rawJSON"
    /// Saving a document without an ID (the engine makes one up).
    package static let generatedIDs: EngineCapability = "generatedIDs"
    /// Queries with named parameters.
    package static let queryParameters: EngineCapability = "queryParameters"
    /// Reading a query's rows by index, as JSON text, its column names, or row by row
    /// (`query` with `result` or `reads`).
    package static let queryResultSets: EngineCapability = "queryResultSets"
    /// Working with document objects held across steps (`object:`, `toMutable`).
    package static let heldObjects: EngineCapability = "heldObjects"
    /// Telling a tombstone from an absent document, and reading a document's sequence.
    package static let documentState: EngineCapability = "documentState"
    /// Documents' sequences (`_meta.sequence` in the documents steps return).
    package static let sequences: EngineCapability = "sequences"
    /// Collection and scope names the test-kit protocol's `<scope>.<collection>` form cannot
    /// carry (empty, or with a dot), to check that the store refuses them.
    package static let collectionNames: EngineCapability = "collectionNames"
    /// Creating a collection in a database that already holds documents.
    package static let collectionsAfterWrites: EngineCapability = "collectionsAfterWrites"
    /// Opening another database once documents were written.
    package static let databasesAfterWrites: EngineCapability = "databasesAfterWrites"
    /// Starting a case from a prebuilt fixture (`given: fixture:`).
    package static let fixtures: EngineCapability = "fixtures"
    /// A manual clock (`given: clock:`, `advanceClock`).
    package static let manualClock: EngineCapability = "manualClock"
    /// Performance cases: timing a workload against a baseline run in the runner's process.
    package static let performance: EngineCapability = "performance"
    /// A replication's checkpoint report (`resumed`, `examined`, `since`, `checkpoints`).
    package static let replicationCheckpoints: EngineCapability = "replicationCheckpoints"
    /// Couchbase Lite's Snowball stemmers for full-text indexes (the package trait `Snowball`).
    package static let snowball: EngineCapability = "snowball"
    /// Checking that a blob's content is stored.
    package static let blobChecks: EngineCapability = "blobChecks"
}
