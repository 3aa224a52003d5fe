import BenchmarkCatalog
import Foundation

/// A ``QuerySubject``'s query without or with an index, or the index's creation, on a store
/// of its documents that the engine itself filled and that was reopened, so every engine
/// starts with cold caches.
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

    private let kind: Kind
    private let subject: QuerySubject
    private let folder: URL
    private var engine: (any StorageEngine)?

    init(engine engineType: any StorageEngine.Type, subject: QuerySubject, kind: Kind) throws {
        self.kind = kind
        self.subject = subject
        let documents =
            switch subject {
            case .peopleInState: try SampleData.people(count: WorkloadSize.queryDocuments)
            case .hotelsInCountry: try SampleData.hotels(count: WorkloadSize.hotelDocuments)
            }
        folder = try Scratch.directory(named: "query")
        let filler = try engineType.init(directory: folder)
        try filler.saveInOneTransaction(documents)
        if kind == .indexed { try filler.createIndex(subject) }
        try filler.close()
        engine = try engineType.init(directory: folder)
    }

    func measured() throws -> Int {
        guard let engine else { throw WorkloadFailure("no store open") }
        switch kind {
        case .scan, .indexed:
            return try engine.query(subject)
        case .createIndex:
            try engine.createIndex(subject)
            return 1
        }
    }

    func finishIteration() throws {
        if kind == .createIndex { try engine?.dropIndex(subject) }
    }

    func tearDown() {
        try? engine?.close()
        engine = nil
        try? FileManager.default.removeItem(at: folder)
    }
}
