import BenchmarkCatalog
import Foundation

/// The state query without or with an index, or the index's creation, on a store of people
/// that the engine itself filled and that was reopened, so every engine starts with cold
/// caches.
final class QueryRun: WorkloadRun {
    /// What the measured part does.
    enum Kind {
        /// The query, no index.
        case scan
        /// Creating the index (dropped again after each measured part).
        case createIndex
        /// The query, with the index made before the store was reopened.
        case indexed
    }

    /// The state the query asks for (one person in five lives there).
    static let state = "WA"

    private let kind: Kind
    private let folder: URL
    private var engine: (any StorageEngine)?

    init(engine engineType: any StorageEngine.Type, kind: Kind) throws {
        self.kind = kind
        let documents = try SampleData.people(count: WorkloadSize.queryDocuments)
        folder = try Scratch.directory(named: "query")
        let filler = try engineType.init(directory: folder)
        try filler.saveInOneTransaction(documents)
        if kind == .indexed { try filler.createStateIndex() }
        try filler.close()
        engine = try engineType.init(directory: folder)
    }

    func measured() throws -> Int {
        guard let engine else { throw WorkloadFailure("no store open") }
        switch kind {
        case .scan, .indexed:
            return try engine.queryState(Self.state)
        case .createIndex:
            try engine.createStateIndex()
            return 1
        }
    }

    func finishIteration() throws {
        if kind == .createIndex { try engine?.dropStateIndex() }
    }

    func tearDown() {
        try? engine?.close()
        engine = nil
        try? FileManager.default.removeItem(at: folder)
    }
}
