import Foundation

/// What a case starts from: the database, its collections and documents, a fixture, a clock.
///
/// The runner creates `collections` and saves `documents` itself, with ordinary steps, right
/// after the session is made; the engine handles the rest in
/// ``ConformanceEngine/makeSession(directory:given:seed:)``.
package struct Given: Sendable, Hashable {
    /// The name of the database the case opens first (`db` unless the spec says otherwise).
    package var database: String
    /// Collections to create before the first step.
    package var collections: [CollectionName]
    /// Documents to save before the first step, in order.
    package var documents: [SeedDocument]
    /// A prebuilt database or dataset to install before the first step (an absolute path): a
    /// `<name>.quire` database folder, a `.quire.zip` fixture archive, or a dataset folder
    /// (`index.json` beside its JSON Lines files), which is built into a fixture first.
    package var fixture: URL?
    /// The clock the database uses.
    package var clock: ClockSetting
    /// Engine-specific configuration, passed through untouched.
    package var options: [String: SpecValue]

    /// Makes a starting point; the defaults are an empty database named `db` on the system clock.
    package init(
        database: String = "db",
        collections: [CollectionName] = [],
        documents: [SeedDocument] = [],
        fixture: URL? = nil,
        clock: ClockSetting = .system,
        options: [String: SpecValue] = [:]
    ) {
        self.database = database
        self.collections = collections
        self.documents = documents
        self.fixture = fixture
        self.clock = clock
        self.options = options
    }
}

/// A document a case starts with.
package struct SeedDocument: Sendable, Hashable {
    /// Where it goes.
    package var reference: DocumentReference
    /// Its properties.
    package var properties: [String: SpecValue]

    /// Makes a seed document.
    package init(_ reference: DocumentReference, properties: [String: SpecValue]) {
        self.reference = reference
        self.properties = properties
    }
}

/// The time source a database is configured with.
package enum ClockSetting: Sendable, Hashable {
    /// The wall clock.
    case system
    /// A clock that stands still at `start` until an `advanceClock` step moves it.
    case manual(start: Date)

    /// Where a manual clock starts unless the spec says otherwise: 2025-01-01T00:00:00Z.
    package static let defaultManualStart = Date(timeIntervalSince1970: 1_735_689_600)
}
