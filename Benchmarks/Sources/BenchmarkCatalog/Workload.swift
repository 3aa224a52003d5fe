/// What the benchmarks measure: one case per workload, each run by several engines.
///
/// Adding a workload is one case here, with its engines, plus one function per engine in
/// `BenchmarkWorkloads`; the benchmark target and the results page pick it up.
public enum Workload: String, CaseIterable, Sendable {
    /// 100,000 documents saved in one `inBatch` (one transaction).
    case batchSave = "batch-save"
    /// 5,000 documents saved one transaction each.
    case transactionSaves = "transaction-saves"
    /// 100,000 random reads by ID on one thread, each reading `contact.address.state`.
    case read = "read"
    /// The same 100,000 reads split over two threads, to measure scaling.
    case readTwoThreads = "read-2-threads"
    /// 10,000 hotels (a few KB each, travel-sized) saved in one transaction.
    case batchSaveHotels = "batch-save-hotels"
    /// 100,000 random reads by ID of hotels, on one thread, each reading `city`.
    case readHotels = "read-hotels"
    /// The same hotel reads split over two threads.
    case readHotelsTwoThreads = "read-hotels-2-threads"
    /// Parsing 100,000 people documents (about 300 bytes each).
    case parsePeople = "parse-people"
    /// Writing 100,000 people documents back to JSON text, keys sorted.
    case writePeople = "write-people"
    /// Parsing hotel documents (a few KB each, with reviews).
    case parseHotels = "parse-hotels"
    /// Writing hotel documents back to JSON text, keys sorted.
    case writeHotels = "write-hotels"
    /// The query `contact.address.state == "WA"` over 100,000 people, without an index,
    /// iterating every result and reading two values.
    case query = "query"
    /// Creating a value index on `contact.address.state` over 100,000 people.
    case createIndex = "create-index"
    /// The query of ``query`` with that index.
    case queryIndexed = "query-indexed"
    /// The query `country == "France"` over 10,000 hotels (a few KB each), without an index,
    /// iterating every result and reading two values.
    case queryHotels = "query-hotels"
    /// Creating a value index on `country` over those hotels.
    case createIndexHotels = "create-index-hotels"
    /// The query of ``queryHotels`` with that index.
    case queryHotelsIndexed = "query-hotels-indexed"
    /// A full-text match over the descriptions of 10,000 hotels (a few KB each, with reviews).
    case fullText = "full-text"
    /// Building and packing a fixture of 100,000 people from a generated dataset.
    case fixtureBuild = "fixture-build"
    /// Installing that fixture from its archive and opening it (reading one document).
    case fixtureInstall = "fixture-install"
    /// Building and packing a fixture of 10,000 hotels (the travel dataset's hotel collection).
    case fixtureBuildHotels = "fixture-build-hotels"
    /// Installing that fixture from its archive and opening it (reading one document).
    case fixtureInstallHotels = "fixture-install-hotels"
    /// Every case of the conformance suite (`Specs/`), as `quire conform Specs` runs it.
    case conformance = "conformance"

    /// A short description for tables.
    public var title: String {
        switch self {
        case .batchSave: "Batch save, \(WorkloadSize.batchDocuments.formatted) docs in one transaction"
        case .transactionSaves: "\(WorkloadSize.transactionSaves.formatted) saves, one transaction each"
        case .read: "\(WorkloadSize.reads.formatted) random reads of one nested property, 1 thread"
        case .readTwoThreads: "\(WorkloadSize.reads.formatted) random reads of one nested property, 2 threads"
        case .batchSaveHotels:
            "Batch save, \(WorkloadSize.hotelDocuments.formatted) hotels (a few KB) in one transaction"
        case .readHotels: "\(WorkloadSize.reads.formatted) random reads of one property of hotels, 1 thread"
        case .readHotelsTwoThreads: "\(WorkloadSize.reads.formatted) random reads of one property of hotels, 2 threads"
        case .parsePeople: "Parse \(WorkloadSize.codecPeople.formatted) people (~300 B)"
        case .writePeople: "Write \(WorkloadSize.codecPeople.formatted) people (~300 B), sorted keys"
        case .parseHotels: "Parse \(WorkloadSize.codecHotels.formatted) hotels (a few KB)"
        case .writeHotels: "Write \(WorkloadSize.codecHotels.formatted) hotels (a few KB), sorted keys"
        case .query: "Query state = 'WA' over \(WorkloadSize.queryDocuments.formatted) people, no index"
        case .createIndex: "Create a value index on state over \(WorkloadSize.queryDocuments.formatted) people"
        case .queryIndexed: "Query state = 'WA' over \(WorkloadSize.queryDocuments.formatted) people, indexed"
        case .queryHotels:
            "Query country = 'France' over \(WorkloadSize.hotelDocuments.formatted) hotels, no index"
        case .createIndexHotels:
            "Create a value index on country over \(WorkloadSize.hotelDocuments.formatted) hotels"
        case .queryHotelsIndexed:
            "Query country = 'France' over \(WorkloadSize.hotelDocuments.formatted) hotels, indexed"
        case .fullText: "Full-text match over \(WorkloadSize.fullTextHotels.formatted) hotels"
        case .fixtureBuild: "Fixture build and pack, \(WorkloadSize.fixtureDocuments.formatted) people"
        case .fixtureInstall: "Fixture install and open, \(WorkloadSize.fixtureDocuments.formatted) people"
        case .fixtureBuildHotels: "Fixture build and pack, \(WorkloadSize.fixtureHotels.formatted) hotels"
        case .fixtureInstallHotels: "Fixture install and open, \(WorkloadSize.fixtureHotels.formatted) hotels"
        case .conformance: "Conformance suite (`Specs/`), every case"
        }
    }

    /// The engines that run it; the first is Quire, the second the baseline ratios refer to.
    public var engines: [Engine] {
        switch self {
        case .batchSave, .transactionSaves, .read, .readTwoThreads: [.quire, .sqlite, .grdb]
        case .batchSaveHotels, .readHotels, .readHotelsTwoThreads: [.quire, .sqlite, .grdb]
        case .query, .createIndex, .queryIndexed, .fullText: [.quire, .sqlite, .grdb]
        case .queryHotels, .createIndexHotels, .queryHotelsIndexed: [.quire, .sqlite, .grdb]
        case .parsePeople, .writePeople, .parseHotels, .writeHotels: [.quire, .foundation]
        case .fixtureBuild, .fixtureInstall, .fixtureBuildHotels, .fixtureInstallHotels: [.quire, .sqlite]
        case .conformance: [.quire]
        }
    }

    /// How many documents one iteration handles.
    public var documentsPerIteration: Int {
        switch self {
        case .batchSave: WorkloadSize.batchDocuments
        case .transactionSaves: WorkloadSize.transactionSaves
        case .read, .readTwoThreads, .readHotels, .readHotelsTwoThreads: WorkloadSize.reads
        case .batchSaveHotels: WorkloadSize.hotelDocuments
        case .parsePeople, .writePeople: WorkloadSize.codecPeople
        case .parseHotels, .writeHotels: WorkloadSize.codecHotels
        case .query, .createIndex, .queryIndexed: WorkloadSize.queryDocuments
        case .queryHotels, .createIndexHotels, .queryHotelsIndexed: WorkloadSize.hotelDocuments
        case .fullText: WorkloadSize.fullTextHotels
        case .fixtureBuild, .fixtureInstall: WorkloadSize.fixtureDocuments
        case .fixtureBuildHotels, .fixtureInstallHotels: WorkloadSize.fixtureHotels
        // Cases, not documents: the count is measured (the `cases` metric), not known here.
        case .conformance: 0
        }
    }

    /// Whether the workload stores documents (and so compares against SQLite and GRDB).
    public var isStorage: Bool { engines.contains(.sqlite) }

    /// Counts the workload reports besides time, as custom metrics of these names.
    public var counters: [String] {
        switch self {
        case .conformance: ["cases", "failedCases"]
        // The file's size after the save (checkpointed) and the JSON bytes saved.
        case .batchSave, .batchSaveHotels: ["diskBytes", "jsonBytes"]
        default: []
        }
    }

    /// Whether one iteration takes seconds rather than milliseconds, so the harness runs
    /// fewer of them.
    public var isLong: Bool {
        switch self {
        case .fixtureBuild, .fixtureBuildHotels, .conformance: true
        default: false
        }
    }
}

/// The implementations compared.
public enum Engine: String, CaseIterable, Sendable {
    /// Quire itself.
    case quire = "Quire"
    /// SQLite's C API: prepared statements, one table of ID and JSON text.
    case sqlite = "SQLite"
    /// GRDB's `DatabaseQueue` with a Codable record of ID and JSON text.
    case grdb = "GRDB"
    /// Foundation's `JSONSerialization`.
    case foundation = "Foundation"
}

/// A benchmark's name, `<workload>/<engine>`, as the harness shows and exports it.
public struct BenchmarkID: Hashable, Sendable, CustomStringConvertible {
    /// The workload.
    public var workload: Workload
    /// The engine.
    public var engine: Engine

    /// Makes an ID.
    public init(_ workload: Workload, _ engine: Engine) {
        self.workload = workload
        self.engine = engine
    }

    /// Reads `<workload>/<engine>`, also with the harness's prefix (`package.benchmark.<target>.`).
    public init?(name: String) {
        let last = name.split(separator: ".").last.map(String.init) ?? name
        let parts = last.split(separator: "/").map(String.init)
        guard parts.count == 2, let workload = Workload(rawValue: parts[0]), let engine = Engine(rawValue: parts[1])
        else {
            return nil
        }
        self.init(workload, engine)
    }

    /// `<workload>/<engine>`.
    public var description: String { "\(workload.rawValue)/\(engine.rawValue)" }
}

/// Document counts per iteration. `QUIRE_BENCH_SCALE` (a fraction such as `0.1`) shrinks them
/// for a quick smoke run; the committed results use the full sizes.
public enum WorkloadSize {
    /// The scale factor from `QUIRE_BENCH_SCALE`, 1 when unset or invalid.
    public static let scale: Double = {
        guard let text = getenv("QUIRE_BENCH_SCALE").map({ String(cString: $0) }), let value = Double(text),
            value > 0, value <= 1
        else { return 1 }
        return value
    }()

    private static func scaled(_ count: Int) -> Int { max(10, Int((Double(count) * scale).rounded())) }

    /// Documents saved by the batch workload, and stored for the read workloads.
    public static let batchDocuments = scaled(100_000)
    /// Saves of the one-transaction-each workload.
    public static let transactionSaves = scaled(5_000)
    /// Reads per iteration of the read workloads.
    public static let reads = scaled(100_000)
    /// People parsed or written per iteration.
    public static let codecPeople = scaled(20_000)
    /// Hotels parsed or written per iteration.
    public static let codecHotels = scaled(2_000)
    /// People in the store the query and index workloads run on.
    public static let queryDocuments = scaled(100_000)
    /// Hotels in the store the full-text workload runs on.
    public static let fullTextHotels = scaled(10_000)
    /// Hotels saved by the travel-sized batch workload, and stored for the hotel reads and queries.
    public static let hotelDocuments = scaled(10_000)
    /// People in the fixture the build and install workloads make.
    public static let fixtureDocuments = scaled(100_000)
    /// Hotels in the fixture the travel-sized build and install workloads make.
    public static let fixtureHotels = scaled(10_000)
}

extension Int {
    /// `100,000`.
    var formatted: String {
        let digits = String(self)
        var result = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
