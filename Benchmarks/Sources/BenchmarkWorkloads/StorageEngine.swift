import BenchmarkCatalog
import Foundation

/// A document store under test: Quire, SQLite's C API, or GRDB.
///
/// Every engine gets the same input (``SampleDocument``: an ID and canonical JSON text), the
/// same pragmas (WAL, `synchronous=NORMAL`, `foreign_keys=OFF`, `temp_store=FILE`). The
/// baselines store them as a careful engineer would by hand: an ordinary rowid table of ID
/// and body with a unique index on the ID.
///
/// A new storage workload is one more requirement here, written once per engine.
public protocol StorageEngine: AnyObject {
    /// Opens a new, empty store in `directory`.
    init(directory: URL) throws

    /// Saves every document in one transaction.
    func saveInOneTransaction(_ documents: [SampleDocument]) throws

    /// Saves each document in a transaction of its own.
    func saveEachInItsOwnTransaction(_ documents: [SampleDocument]) throws

    /// A reader of `property` for one thread; engines that pool connections share them.
    func makeReader(property: ReadProperty) throws -> any PropertyReader

    /// The store's file size in bytes after a checkpoint (the WAL folded in and truncated).
    func bytesOnDisk() throws -> Int

    /// Runs the query of `subject` (its filter property equal to its value) over every stored
    /// document, iterating every result and reading its ID and selected property; returns the
    /// UTF-8 length of both, summed over the results.
    func query(_ subject: QuerySubject) throws -> Int

    /// Creates the value index on the property `subject` filters on.
    func createIndex(_ subject: QuerySubject) throws

    /// Drops the index ``createIndex(_:)`` made.
    func dropIndex(_ subject: QuerySubject) throws

    /// Creates a full-text index on the `description` of every stored hotel (English
    /// stemming, accents kept).
    func createDescriptionIndex() throws

    /// Runs the full-text match of `terms` against that index, iterating every result and
    /// reading its ID and `name`; returns the UTF-8 length of both, summed over the results.
    func matchDescription(_ terms: String) throws -> Int

    /// Closes the store.
    func close() throws
}

/// Reads documents by ID on one thread.
public protocol PropertyReader: AnyObject {
    /// Reads document `id` and returns the UTF-8 length of its ``ReadProperty`` (the raw
    /// SQLite baseline, which does not parse, returns the length of the body it fetched).
    func read(id: String) throws -> Int
}

/// The property a read workload reads of each document.
public enum ReadProperty: Sendable {
    /// A person's `contact.address.state` (nested two levels).
    case state
    /// A hotel's `city` (top level of a document of a few KB).
    case city
}

/// The size of the SQLite file at `path`.
func fileSize(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.size] as? NSNumber)?.intValue ?? 0
}

/// The engine type behind each storage ``Engine``.
public func storageEngineType(_ engine: Engine) -> (any StorageEngine.Type)? {
    switch engine {
    case .quire: QuireEngine.self
    case .sqlite: SQLiteEngine.self
    case .grdb: GRDBEngine.self
    case .foundation: nil
    }
}

/// A storage workload failed in a way the engine did not report as an error.
public struct WorkloadFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// Makes a failure.
    public init(_ description: String) { self.description = description }
}
