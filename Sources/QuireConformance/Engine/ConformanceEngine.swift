import Foundation

/// A document store the runner can drive: the in-process Quire engine by default, or any
/// other implementation of the same behaviour.
///
/// The engine itself is shared by every case and every worker thread; each case gets its own
/// ``EngineSession``, made in its own empty directory.
package protocol ConformanceEngine: Sendable {
    /// A short name for reports (`quire`, `memory`).
    var name: String { get }

    /// Starts a case.
    ///
    /// - Parameters:
    ///   - directory: an empty directory that belongs to this case alone; databases go here.
    ///   - given: the case's starting point. The engine installs the fixture and sets up the
    ///     clock and options; the runner creates the collections and documents afterwards.
    ///   - seed: a number derived from `--seed` and the case's name, for anything random.
    /// - Returns: a session the runner uses from one thread and closes at the end of the case.
    func makeSession(directory: URL, given: Given, seed: UInt64) throws -> any EngineSession

    /// What the engine can do; nil means everything. A case needing a capability outside the
    /// set is skipped, naming it (see ``EngineCapability``).
    var capabilities: Set<EngineCapability>? { get }

    /// What the engine says of itself in reports, once the run is over (a test server's name,
    /// version and platform).
    var reportProperties: [String: String] { get }
}

extension ConformanceEngine {
    /// By default an engine can do everything.
    package var capabilities: Set<EngineCapability>? { nil }

    /// By default an engine says nothing more of itself.
    package var reportProperties: [String: String] { [:] }
}

/// One case's connection to an engine. Used from a single thread, then closed.
///
/// Errors the store reports are thrown as ``EngineError``; any other error type is shown
/// as is and can only be matched by an `error:` expectation through its description.
package protocol EngineSession: AnyObject {
    /// Performs a step.
    ///
    /// - Returns: the step's result as documented on each ``Step`` case, or nil for steps
    ///   that return nothing.
    func perform(_ step: Step, in context: StepContext) throws -> SpecValue?

    /// Runs `body` as one transaction on the current database: other connections see all of
    /// it or nothing; an error thrown by `body` rolls everything back and is rethrown unchanged.
    func inBatch(_ body: () throws -> Void) throws

    /// What the current database holds for a document; used by document-state expectations.
    func documentState(of document: DocumentReference) throws -> DocumentState

    /// Whether the content of the blob with this digest (`sha1-...`) is stored.
    func isBlobStored(digest: String) throws -> Bool

    /// Gets the named baseline ready, untimed, before a round: the state its workload's
    /// `prepare` steps gave the store (`prepareIterations` documents), made its own way.
    func prepareBaseline(named name: String, iterations: Int, prepareIterations: Int, in context: StepContext) throws

    /// Performs the named baseline workload `iterations` times; the runner times it.
    ///
    /// A baseline does the same storage work as a performance case's workload by a route
    /// with no document-store overhead (for example raw SQLite inserts), measured in the
    /// same run on the same machine.
    func runBaseline(named name: String, iterations: Int, in context: StepContext) throws

    /// Ends the session: closes databases and releases everything. The runner removes the
    /// directory afterwards.
    func close() throws
}

extension EngineSession {
    /// By default an engine stores no blobs.
    package func isBlobStored(digest: String) throws -> Bool {
        throw EngineError.unsupported("blob checks")
    }

    /// By default a baseline needs no preparation.
    package func prepareBaseline(named name: String, iterations: Int, prepareIterations: Int, in context: StepContext)
        throws
    {}

    /// By default an engine provides no baselines.
    package func runBaseline(named name: String, iterations: Int, in context: StepContext) throws {
        throw EngineError.unsupported("the baseline '\(name)'")
    }
}

/// Where a step runs: handed to the engine with each step.
package struct StepContext: Sendable, Hashable {
    /// The step's position in its spec file, for messages.
    package var location: SourceLocation
    /// The case's own directory.
    package var directory: URL
    /// The directory of the spec file, against which relative paths in it resolve.
    package var specDirectory: URL
    /// The case's seed.
    package var seed: UInt64
    /// True for the steps of a performance workload, whose results nobody reads: an engine
    /// may then skip building the value it would return (a save's re-read document, say), so
    /// that the timing is the operation alone.
    package var discardsResult = false
    /// The name the step's `as:` gives its result. An engine that holds document objects keeps
    /// the object a `get`, `save` or `toMutable` step produced under it, for later `object:`
    /// arguments.
    package var objectName: String?
    /// The threads a performance workload runs on (`threads:`); its baseline does its work on
    /// as many.
    package var threads = 1
    /// The step as the spec wrote it: its keyword and arguments, variables substituted (nil for
    /// the steps the runner makes itself, `given:`'s). An engine that has the step performed
    /// elsewhere sends these, to be decoded there as the runner decoded them.
    package var source: StepSource?

    /// Makes a context.
    package init(location: SourceLocation, directory: URL, specDirectory: URL, seed: UInt64) {
        self.location = location
        self.directory = directory
        self.specDirectory = specDirectory
        self.seed = seed
    }
}

/// A step as written in a spec: its keyword and its arguments with variables substituted.
package struct StepSource: Sendable, Hashable {
    /// The step's keyword (`save`, `newDocument` ...).
    package var keyword: String
    /// Its arguments.
    package var arguments: SpecValue

    /// Makes a source.
    package init(keyword: String, arguments: SpecValue) {
        self.keyword = keyword
        self.arguments = arguments
    }
}
