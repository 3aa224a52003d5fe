/// How a case ended.
public enum CaseStatus: String, Sendable, Hashable, CaseIterable {
    /// Every expectation held.
    case passed
    /// An expectation did not hold: the engine misbehaved.
    case failed
    /// The case could not be judged: a spec error, or the harness or engine broke.
    case error
    /// Not run: a performance case without `--perf`, or a case marked `skip`.
    case skipped
}
