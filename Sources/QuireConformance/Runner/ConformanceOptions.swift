import Foundation

/// Everything `quire conform` can be told, independent of how the arguments were parsed.
public struct ConformanceOptions: Sendable, Hashable {
    /// Spec files and directories.
    package var paths: [String]
    /// The engine's registered name; nil means the default engine.
    package var engine: String?
    /// How many cases run at once.
    package var jobs: Int
    /// Which cases run.
    package var selection: CaseSelection
    /// Feeds generators and engines.
    package var seed: UInt64
    /// Run performance cases (otherwise they are reported as skipped).
    package var includePerformance: Bool
    /// Keep each case's directory.
    package var keepDirectories: Bool
    /// Where to write JUnit XML.
    package var junitPath: String?
    /// Print TAP on standard output instead of the text report.
    package var tapToStandardOutput: Bool
    /// Where to write TAP.
    package var tapPath: String?
    /// Where to write the CTRF JSON summary.
    package var jsonPath: String?
    /// List passing and skipped cases in the text report.
    package var verbose: Bool
    /// List the selected cases instead of running them.
    package var listOnly: Bool
    /// Run performance cases in a debug build too (see ``RunnerOptions/measuresUnoptimisedBuilds``).
    package var measuresUnoptimisedBuilds = false

    /// Makes options with the command line's defaults.
    public init(
        paths: [String] = ["Specs"], engine: String? = nil, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        selection: CaseSelection = CaseSelection(), seed: UInt64 = 0, includePerformance: Bool = false,
        keepDirectories: Bool = false,
        junitPath: String? = nil, tapToStandardOutput: Bool = false, tapPath: String? = nil, jsonPath: String? = nil,
        verbose: Bool = false, listOnly: Bool = false
    ) {
        self.paths = paths
        self.engine = engine
        self.jobs = jobs
        self.selection = selection
        self.seed = seed
        self.includePerformance = includePerformance
        self.keepDirectories = keepDirectories
        self.junitPath = junitPath
        self.tapToStandardOutput = tapToStandardOutput
        self.tapPath = tapPath
        self.jsonPath = jsonPath
        self.verbose = verbose
        self.listOnly = listOnly
    }
}
