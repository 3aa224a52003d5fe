/// How far a spec file may expand. A few lines of YAML can describe billions of values (aliases
/// of aliases, a huge `count`, vectors whose combinations multiply); past these limits the file
/// or case gets a spec error instead of exhausting memory.
public enum SpecLimits {
    /// Most YAML nodes a file may hold once aliases are expanded.
    public static let maximumNodes = 1_000_000
    /// Most characters a `repeat` or `random` generator may make.
    public static let maximumGeneratedLength = 1_000_000
    /// Most values one generator, or characters one `characters` set, may make.
    public static let maximumGeneratedValues = 100_000
    /// Most cases the vectors of one case may expand to.
    public static let maximumRowsPerCase = 100_000
    /// Most expanded cases one file may hold.
    public static let maximumCasesPerFile = 100_000
    /// Most steps a performance case may decode (`iterations` times the workload's steps).
    public static let maximumPerformanceSteps = 10_000_000
    /// Most threads a performance workload may run on.
    public static let maximumPerformanceThreads = 16
}
