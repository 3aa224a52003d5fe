import Foundation
import Quire
import QuireFixtureBuilder
import QuireSync

extension DbReplicationOptions {
    /// Runs these options' replication of `target` in `direction` (both with `--bidi`) and
    /// prints the summary; a pull that fails leaves no collection it created and put nothing into.
    ///
    /// - Throws: ``CommandFailure`` naming why the replication stopped early, or how many documents failed.
    func run(_ direction: ReplicatorType, target: DbDatabaseArgument, filter: String? = nil) throws {
        let effective: ReplicatorType = bidi ? .pushAndPull : direction
        let (replication, summary) = try target.with { database in
            var created: [Collection] = []
            var succeeded = false
            defer {
                if !succeeded {
                    for collection in created where collection.count == 0 && collection.deletedCount == 0 {
                        try? database.deleteCollection(name: collection.name, scope: collection.scope.name)
                    }
                }
            }
            let config = try configuration(
                for: database, direction: direction, filter: filter, createMissing: effective != .push,
                created: &created)
            var replication = CommandReplication(Replicator(config: config), direction: effective, url: displayURL)
            replication.continuous = continuous
            replication.reset = reset
            replication.suggestsPinning = pinnedCertificate == nil
            let summary = try replication.run()
            succeeded = true
            return (replication, summary)
        }
        try replication.report(summary, json: json)
    }
}
