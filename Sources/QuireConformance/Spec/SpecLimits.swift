/// How far a spec file may expand. A few lines of YAML can describe billions of values (aliases
/// of aliases, a huge `count`, vectors whose combinations multiply); past these limits the file
/// or case gets a spec error instead of exhausting memory.
package enum SpecLimits {
    /// Most YAML nodes a file may hold once aliases are expanded.
    package static let maximumNodes = 1_000_000
    /// Most characters a `repeat` or `random` generator may make.
    package static let maximumGeneratedLength = 1_000_000
    /// Most values one generator, or characters one `characters` set, may make.
    package static let maximumGeneratedValues = 100_000
    /// Most cases the vectors of one case may expand to.
    package static let maximumRowsPerCase = 100_000
    /// Most expanded cases one file may hold.
    package static let maximumCasesPerFile = 100_000
    /// Most steps a performance case may decode (`iterations` times the workload's steps).
    package static let maximumPerformanceSteps = 10_000_000
    /// Most threads a performance workload may run on.
    package static let maximumPerformanceThreads = 16
}
