import QuireFixtures

/// How far a fixture build has come, reported to ``FixtureBuilder/progress``.
public struct FixtureBuildProgress: Sendable, Equatable {
    /// What the build is doing.
    public enum Stage: Sendable, Equatable {
        /// Loading documents into the collection with this full name.
        case loading(collection: String)
        /// Creating indexes.
        case indexing
        /// Checkpointing and compacting the database.
        case compacting
        /// Writing the archive.
        case packing
        /// Done.
        case finished
    }

    /// The current stage.
    public var stage: Stage
    /// Documents loaded so far, over all collections.
    public var documentsLoaded: Int
    /// Documents to load in all (the non-blank lines of the sources).
    public var documentsTotal: Int

    /// Makes a progress report.
    public init(stage: Stage, documentsLoaded: Int, documentsTotal: Int) {
        self.stage = stage
        self.documentsLoaded = documentsLoaded
        self.documentsTotal = documentsTotal
    }

    /// Loaded over total, 0...1 (1 when there is nothing to load).
    public var fraction: Double {
        documentsTotal > 0 ? min(1, Double(documentsLoaded) / Double(documentsTotal)) : 1
    }
}
