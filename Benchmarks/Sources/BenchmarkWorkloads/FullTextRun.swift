import BenchmarkCatalog
import Foundation

/// A full-text match on a store of hotels that the engine itself filled and indexed, then
/// reopened.
final class FullTextRun: WorkloadRun {
    /// The words matched: two common ones, both required (FTS5's implicit AND).
    static let terms = "pool breakfast"

    private let folder: URL
    private var engine: (any StorageEngine)?

    init(engine engineType: any StorageEngine.Type) throws {
        let documents = try SampleData.hotels(count: WorkloadSize.fullTextHotels)
        folder = try Scratch.directory(named: "fulltext")
        let filler = try engineType.init(directory: folder)
        try filler.saveInOneTransaction(documents)
        try filler.createDescriptionIndex()
        try filler.close()
        engine = try engineType.init(directory: folder)
    }

    func measured() throws -> Int {
        guard let engine else { throw WorkloadFailure("no store open") }
        return try engine.matchDescription(Self.terms)
    }

    func tearDown() {
        try? engine?.close()
        engine = nil
        try? FileManager.default.removeItem(at: folder)
    }
}
