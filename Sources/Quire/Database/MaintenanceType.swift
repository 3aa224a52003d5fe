/// The kinds of upkeep ``Database/performMaintenance(type:)`` does, with Couchbase Lite's
/// names and numbers.
public enum MaintenanceType: UInt8, Sendable, CaseIterable {
    /// Deletes the blob files no document refers to any more, then rebuilds the file without
    /// free pages (`VACUUM`) and empties the write-ahead log.
    case compact = 0
    /// Rebuilds every index (`REINDEX`).
    case reindex = 1
    /// Checks the SQLite file (`PRAGMA integrity_check`) and every blob file a document
    /// refers to (present, of the right length and digest); throws corruptData naming the
    /// damage.
    case integrityCheck = 2
    /// Refreshes the query planner's statistics where SQLite thinks it worthwhile
    /// (`PRAGMA optimize`); cheap enough to run often.
    case optimize = 3
    /// Gathers full statistics for every table and index (`ANALYZE` with no row limit).
    case fullOptimize = 4
}
