import Quire

extension Replicator {
    /// What a replicator is doing.
    public enum ActivityLevel: UInt8, Sendable, Comparable, CustomStringConvertible {
        /// Not running: never started, stopped, finished, or failed (see ``Status/error``).
        case stopped = 0
        /// The remote cannot be reached; the replicator waits before trying again.
        case offline
        /// Connecting to the remote and reading checkpoints.
        case connecting
        /// Caught up; a continuous replicator waits for changes.
        case idle
        /// Transferring changes.
        case busy

        /// Orders levels as their raw values.
        public static func < (lhs: ActivityLevel, rhs: ActivityLevel) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The level's name.
        public var description: String {
            switch self {
            case .stopped: return "stopped"
            case .offline: return "offline"
            case .connecting: return "connecting"
            case .idle: return "idle"
            case .busy: return "busy"
            }
        }
    }

    /// How much of the known work is done: changes processed out of changes seen. A total of
    /// zero means nothing is known yet.
    public struct Progress: Sendable, Equatable {
        /// Changes processed.
        public let completed: UInt64
        /// Changes seen.
        public let total: UInt64

        /// Makes a progress value.
        public init(completed: UInt64, total: UInt64) {
            self.completed = completed
            self.total = total
        }
    }

    /// A replicator's activity, progress and last error.
    public struct Status: Sendable, Equatable {
        /// What the replicator is doing.
        public let activity: ActivityLevel
        /// How far it got.
        public let progress: Progress
        /// Why it stopped or is offline; nil when all is well.
        public let error: QuireError?

        /// Makes a status.
        public init(activity: ActivityLevel, progress: Progress, error: QuireError?) {
            self.activity = activity
            self.progress = progress
            self.error = error
        }
    }
}
