/// The kinds of work ``Database/performMaintenance(type:)`` does, named as in Couchbase Lite.
public enum MaintenanceType: Sendable, Equatable, CaseIterable {
    /// Checkpoints the WAL into the main file and rebuilds the file without free pages
    /// (`VACUUM`), leaving no `-wal` content behind.
    case compact
    /// Runs SQLite's `PRAGMA integrity_check`; a damaged file is a `corruptData` error listing
    /// what SQLite found.
    case integrityCheck
}
