import Foundation

/// An engine whose sessions accept every step and return nothing (``ConformanceRunner/init(dryRunWith:)``).
struct DryRunEngine: ConformanceEngine {
    var name: String { "dry-run" }

    func makeSession(directory: URL, given: Given, seed: UInt64) throws -> any EngineSession {
        DryRunSession()
    }
}

/// Accepts every step; answers every question about a document with "unsupported".
final class DryRunSession: EngineSession {
    func perform(_ step: Step, in context: StepContext) throws -> SpecValue? { nil }
    func inBatch(_ body: () throws -> Void) throws { try body() }
    func documentState(of document: DocumentReference) throws -> DocumentState {
        throw EngineError.unsupported("document state")
    }
    func close() throws {}
}
