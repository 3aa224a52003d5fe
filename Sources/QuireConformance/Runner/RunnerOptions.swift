import Foundation

/// How a ``ConformanceRunner`` runs cases.
public struct RunnerOptions: Sendable, Hashable {
    /// How many cases run at once.
    package var jobs: Int
    /// Whether performance cases run (otherwise they are reported as skipped).
    package var includePerformance: Bool
    /// Keep each case's directory instead of removing it.
    package var keepDirectories: Bool
    /// Where case directories go; the system's temporary directory by default.
    package var workDirectory: URL?
    /// Run performance cases in a debug build too. A debug build's Swift against the always
    /// optimised C of the baselines says little about Quire, so they are skipped there unless
    /// this is set (tests of the runner itself set it).
    package var measuresUnoptimisedBuilds = false

    /// Makes options; the defaults run one case at a time, skip performance cases and clean up.
    public init(
        jobs: Int = 1, includePerformance: Bool = false, keepDirectories: Bool = false, workDirectory: URL? = nil
    ) {
        self.jobs = jobs
        self.includePerformance = includePerformance
        self.keepDirectories = keepDirectories
        self.workDirectory = workDirectory
    }
}
