/// A step as written: its keyword and arguments with `${...}` references still in place.
/// The runner substitutes the variables when the step's turn comes, then decodes a ``Step``.
struct StepTemplate: Sendable {
    /// The action keyword (`save`, `batch`, `set` ...).
    var keyword: String
    /// The action's arguments; for a batch, without its `steps`.
    var arguments: SpecValue
    /// The `expect:` mapping, if any.
    var expect: SpecValue?
    /// Where `expect:` is written.
    var expectLocation: SourceLocation?
    /// The variable named by `as:`, bound to the step's result when it succeeds.
    var bind: String?
    /// Where the step starts.
    var location: SourceLocation
    /// A batch's steps.
    var nested: [StepTemplate] = []

    /// `save {"body":{"a":1},"id":"doc"}`: how reports show the step.
    func rendered(arguments shown: SpecValue? = nil) -> String {
        let value = shown ?? arguments
        switch value {
        case .null, .object([:]): return keyword
        default: return "\(keyword) \(ValueMatcher.render(value, limit: 200))"
        }
    }
}

/// A performance case's workload, baseline and limits.
struct PerformanceTemplate: Sendable {
    var workload: [StepTemplate]
    var baseline: String
    /// The workload's iterations at each size: one size, or two for a scaling case.
    var sizes: [Int]
    var maxRatio: Double
    /// How much more than linear the cost may grow from the first size to the second.
    var maxGrowth: Double?
    /// The threads the iterations are shared among: one count, or two for a case that
    /// compares them (`maxGrowth` then limits the time on the second ÷ on the first).
    var threads: [Int] = [1]
    /// Whether all iterations run inside one batch.
    var inBatch: Bool
    /// Untimed steps run `prepareIterations` times in one batch before each measurement.
    var prepare: [StepTemplate]
    var prepareIterations: Int
    /// Measured rounds; the verdict is the median of their ratios.
    var rounds: Int
    /// Rounds run first and not counted.
    var warmup: Int
    /// For a case that times the runner itself (`suite:`): the spec files or folders, relative to
    /// the spec file, run through the runner at each iteration instead of a workload.
    var suite: String?
    var location: SourceLocation
}
