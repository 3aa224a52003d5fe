/// What ``CheckpointDoctor`` found: whether the first replication will resume from a stored
/// checkpoint, and when not, which inputs differ from the closest stored one.
package struct CheckpointDiagnosis: Sendable, Equatable, CustomStringConvertible {
    /// Whether a matching local checkpoint exists, so replication resumes (as long as the
    /// remote still holds its side, which only a replication can tell).
    package let willResume: Bool
    /// The checkpoint ID the replication would look for first (with the current UUID).
    package let checkpointID: String
    /// The stored checkpoint it would resume from, or the closest one when none matches.
    package let storedCheckpointID: String?
    /// The UUID the matching checkpoint was made with; for a fixture or a database installed
    /// with `Database.copy`, a previous UUID.
    package let matchedUUID: String?
    /// Why it will not resume: the inputs that differ from the closest stored checkpoint,
    /// or ``CheckpointDifference/noCheckpoint``. Empty when it will resume.
    package let differences: [CheckpointDifference]
    /// The inputs the replication would use.
    package let expected: CheckpointInputs
    /// How many checkpoints the collection stores.
    package let storedCheckpointCount: Int

    /// A report for people.
    package var description: String {
        var lines: [String] = []
        if willResume {
            lines.append("The first replication will resume from checkpoint \(storedCheckpointID ?? checkpointID).")
            if let matchedUUID, matchedUUID != expected.uuid {
                lines.append("It was made before a copy, with the previous UUID \(matchedUUID).")
            }
        } else {
            lines.append("The first replication will NOT resume from a stored checkpoint; it will start over.")
            if let storedCheckpointID {
                lines.append(
                    "Closest stored checkpoint: \(storedCheckpointID) (of \(storedCheckpointCount)); what differs:")
            }
            lines += differences.map { "  - \($0)" }
        }
        lines.append("Remote: \(expected.remoteURL), collection \(expected.collection).")
        return lines.joined(separator: "\n")
    }
}
