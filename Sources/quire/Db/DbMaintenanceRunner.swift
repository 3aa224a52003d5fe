import Foundation
import Quire

/// Runs one kind of maintenance on a database for `check`, `compact` and `reindex`.
enum DbMaintenanceRunner {
    /// Runs `type` on the database and prints `done` (or `{"ok": true, "database": ...}`).
    static func run(_ type: MaintenanceType, on target: DbDatabaseArgument, json: Bool, done: String) throws {
        try target.with { database in try database.performMaintenance(type: type) }
        if json {
            try DbOutput.json(.object(["ok": .bool(true), "database": .string(target.folder.path)]))
        } else {
            DbOutput.write("\(done) \(target.folder.path)\n")
        }
    }
}
