/// Ordered schema migrations, tracked with `PRAGMA user_version`.
///
/// Each migration runs once, in order, inside the writer's transaction, and bumps
/// `user_version` to its own number; a file written by a newer Quire (a higher version than
/// any known migration) is refused rather than modified.
package struct SchemaMigrator: Sendable {
    /// One step of the schema.
    package struct Migration: Sendable {
        /// The `user_version` the file has after this migration.
        package let version: Int64
        /// A short description, used in error messages.
        package let name: String
        /// The work; it runs inside a transaction on the writer.
        package let apply: @Sendable (Connection) throws -> Void

        /// Makes a migration.
        package init(version: Int64, name: String, apply: @escaping @Sendable (Connection) throws -> Void) {
            self.version = version
            self.name = name
            self.apply = apply
        }
    }

    /// The migrations, in ascending version order.
    package let migrations: [Migration]

    /// Makes a migrator; versions must ascend strictly from 1.
    package init(_ migrations: [Migration]) {
        precondition(
            zip(migrations, migrations.dropFirst()).allSatisfy { $0.version < $1.version },
            "migration versions must ascend")
        self.migrations = migrations
    }

    /// The version a fully migrated file has.
    package var latestVersion: Int64 { migrations.last?.version ?? 0 }

    /// Brings the writer's file up to date; returns the versions applied.
    @discardableResult
    package func migrate(_ connection: Connection) throws -> [Int64] {
        let current = try connection.scalarInt("PRAGMA user_version") ?? 0
        if current > latestVersion {
            throw QuireError(
                .databaseTooNew,
                "database \(connection.path) has schema version \(current), newer than this Quire's \(latestVersion)")
        }
        let pending = migrations.filter { $0.version > current }
        guard !pending.isEmpty else { return [] }
        let work = {
            for migration in pending {
                do {
                    try migration.apply(connection)
                } catch let error as QuireError {
                    var failure = error
                    failure.message = "migration \(migration.version) (\(migration.name)) failed: \(error.message)"
                    throw failure
                }
                try connection.execute("PRAGMA user_version = \(migration.version)")
            }
        }
        if connection.isInTransaction {
            try connection.savepoint(work)
        } else {
            try connection.transaction(work)
        }
        return pending.map(\.version)
    }
}
