import BenchmarkCatalog
import Foundation

/// One benchmark's state between iterations: what is prepared once (documents, a populated
/// store, parsed values) and the three parts of an iteration, of which only ``measured()``
/// is timed.
public protocol WorkloadRun: AnyObject {
    /// Unmeasured work before each measured part (a fresh, empty store for saves).
    func prepareIteration() throws
    /// The measured work; returns a checksum so the optimizer cannot drop it.
    func measured() throws -> Int
    /// Unmeasured work after each measured part (closing and deleting that store).
    func finishIteration() throws
    /// Releases everything (files included).
    func tearDown()
    /// Counts the last measured part made besides its time, by the names in
    /// `Workload.counters` (the conformance suite's cases run and failed).
    var counters: [String: Int] { get }
}

extension WorkloadRun {
    /// Nothing to prepare by default.
    public func prepareIteration() throws {}
    /// Nothing to finish by default.
    public func finishIteration() throws {}
    /// No counts by default.
    public var counters: [String: Int] { [:] }
}

/// Makes the run of a benchmark: loads its data and, for reads and queries, fills a store.
public func makeRun(_ id: BenchmarkID) throws -> any WorkloadRun {
    switch id.workload {
    case .batchSave, .transactionSaves:
        guard let engine = storageEngineType(id.engine) else { break }
        let count = id.workload.documentsPerIteration
        return SaveRun(
            engine: engine, documents: try SampleData.people(count: count), oneTransaction: id.workload == .batchSave,
            measuresSize: id.workload == .batchSave)
    case .batchSaveHotels:
        guard let engine = storageEngineType(id.engine) else { break }
        return SaveRun(
            engine: engine, documents: try SampleData.hotels(count: WorkloadSize.hotelDocuments), oneTransaction: true,
            measuresSize: true)
    case .read, .readTwoThreads:
        guard let engine = storageEngineType(id.engine) else { break }
        return try ReadRun(
            engine: engine, documents: try SampleData.people(count: WorkloadSize.batchDocuments), property: .state,
            threads: id.workload == .read ? 1 : 2)
    case .readHotels, .readHotelsTwoThreads:
        guard let engine = storageEngineType(id.engine) else { break }
        return try ReadRun(
            engine: engine, documents: try SampleData.hotels(count: WorkloadSize.hotelDocuments), property: .city,
            threads: id.workload == .readHotels ? 1 : 2)
    case .parsePeople, .writePeople:
        return try CodecRun(
            engine: id.engine, parse: id.workload == .parsePeople,
            documents: SampleData.people(count: WorkloadSize.codecPeople))
    case .parseHotels, .writeHotels:
        return try CodecRun(
            engine: id.engine, parse: id.workload == .parseHotels,
            documents: SampleData.hotels(count: WorkloadSize.codecHotels))
    case .query, .createIndex, .queryIndexed, .queryHotels, .createIndexHotels, .queryHotelsIndexed:
        guard let engine = storageEngineType(id.engine) else { break }
        let kind: QueryRun.Kind =
            switch id.workload {
            case .query, .queryHotels: .scan
            case .createIndex, .createIndexHotels: .createIndex
            default: .indexed
            }
        let subject: QuerySubject =
            [.query, .createIndex, .queryIndexed].contains(id.workload) ? .peopleInState : .hotelsInCountry
        return try QueryRun(engine: engine, subject: subject, kind: kind)
    case .fullText:
        guard let engine = storageEngineType(id.engine) else { break }
        return try FullTextRun(engine: engine)
    case .fixtureBuild, .fixtureInstall:
        return try FixtureRun(engine: id.engine, contents: .people, install: id.workload == .fixtureInstall)
    case .fixtureBuildHotels, .fixtureInstallHotels:
        return try FixtureRun(engine: id.engine, contents: .hotels, install: id.workload == .fixtureInstallHotels)
    case .conformance:
        guard id.engine == .quire else { break }
        return try ConformanceRun()
    }
    throw WorkloadFailure("\(id) is not a benchmark")
}

/// Saves into a new store each iteration; with `measuresSize`, reports the file's size after
/// the save (checkpointed, outside the measured part) and the JSON bytes saved.
final class SaveRun: WorkloadRun {
    let engineType: any StorageEngine.Type
    let documents: [SampleDocument]
    let oneTransaction: Bool
    let measuresSize: Bool
    private var engine: (any StorageEngine)?
    private var folder: URL?

    init(engine: any StorageEngine.Type, documents: [SampleDocument], oneTransaction: Bool, measuresSize: Bool = false)
    {
        self.engineType = engine
        self.documents = documents
        self.oneTransaction = oneTransaction
        self.measuresSize = measuresSize
    }

    var counters: [String: Int] {
        guard measuresSize, let engine, let size = try? engine.bytesOnDisk() else { return [:] }
        return ["diskBytes": size, "jsonBytes": documents.reduce(0) { $0 + $1.json.utf8.count }]
    }

    func prepareIteration() throws {
        let folder = try Scratch.directory(named: "save")
        self.folder = folder
        engine = try engineType.init(directory: folder)
    }

    func measured() throws -> Int {
        guard let engine else { throw WorkloadFailure("no store prepared") }
        if oneTransaction {
            try engine.saveInOneTransaction(documents)
        } else {
            try engine.saveEachInItsOwnTransaction(documents)
        }
        return documents.count
    }

    func finishIteration() throws {
        try engine?.close()
        engine = nil
        if let folder { try FileManager.default.removeItem(at: folder) }
        folder = nil
    }

    func tearDown() {
        try? finishIteration()
    }
}

/// Random reads by ID from a store filled once, on one or more threads.
final class ReadRun: WorkloadRun, @unchecked Sendable {
    // @unchecked: each thread of `measured()` uses only its own reader and ID list.
    private let folder: URL
    private var engine: (any StorageEngine)?
    private let readers: [any PropertyReader]
    private let idsPerThread: [[String]]

    init(engine engineType: any StorageEngine.Type, documents: [SampleDocument], property: ReadProperty, threads: Int)
        throws
    {
        folder = try Scratch.directory(named: "read")
        // Filled by the engine itself, then reopened so every engine starts with cold caches.
        let filler = try engineType.init(directory: folder)
        try filler.saveInOneTransaction(documents)
        try filler.close()
        let engine = try engineType.init(directory: folder)
        self.engine = engine
        readers = try (0..<threads).map { _ in try engine.makeReader(property: property) }
        let perThread = WorkloadSize.reads / threads
        idsPerThread = (0..<threads).map { SampleData.randomIDs(perThread, from: documents, stream: UInt64($0)) }
    }

    func measured() throws -> Int {
        if readers.count == 1 {
            return try Self.readAll(idsPerThread[0], with: readers[0])
        }
        let results = ThreadResults(count: readers.count)
        DispatchQueue.concurrentPerform(iterations: readers.count) { thread in
            results.set(thread, Result { try Self.readAll(idsPerThread[thread], with: readers[thread]) })
        }
        return try results.sum()
    }

    private static func readAll(_ ids: [String], with reader: any PropertyReader) throws -> Int {
        var total = 0
        for id in ids { total &+= try reader.read(id: id) }
        return total
    }

    func tearDown() {
        try? engine?.close()
        engine = nil
        try? FileManager.default.removeItem(at: folder)
    }
}

/// What each thread of a parallel run returned.
final class ThreadResults: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var results: [Result<Int, any Error>?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<Int, any Error>) {
        lock.withLock { results[index] = result }
    }

    func sum() throws -> Int {
        try lock.withLock {
            try results.reduce(0) { total, result in
                guard let result else { throw WorkloadFailure("a thread did not finish") }
                return total &+ (try result.get())
            }
        }
    }
}
