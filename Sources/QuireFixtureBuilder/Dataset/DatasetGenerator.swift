import Foundation
import Quire
import QuireFixtures

/// Writes a synthetic dataset in the test-kit layout that ``DatasetReader`` reads
/// (`quire fixture generate KIND --count N --seed S -o DIR`).
///
/// Output is fixed by kind, count and seed: the generator uses its own seeded PRNG
/// (xoshiro256**), never the system's random numbers, and writes each document with Quire's
/// canonical ``JSONWriter`` (sorted keys, no spaces), so the same inputs give the same bytes
/// on every machine.
public struct DatasetGenerator: Sendable {
    /// Most documents a kind's count may ask for.
    public static let maximumCount = 10_000_000

    /// What to generate.
    public var kind: DatasetKind
    /// How many: people for `names`, hotels for `travel`.
    public var count: Int
    /// The PRNG seed.
    public var seed: UInt64

    /// Makes a generator.
    public init(kind: DatasetKind, count: Int, seed: UInt64) {
        self.kind = kind
        self.count = count
        self.seed = seed
    }

    /// Writes the dataset into `folder`, creating it; an existing folder must be empty.
    ///
    /// - Returns: the index written as `index.json`.
    /// - Throws: `QuireError.invalidParameter` for a count out of range or a non-empty folder;
    ///   POSIX errors for I/O.
    @discardableResult
    public func write(to folder: URL) throws -> DatasetIndex {
        guard (1...Self.maximumCount).contains(count) else {
            throw QuireError(.invalidParameter, "count \(count) is not in 1...\(Self.maximumCount)")
        }
        try prepare(folder)
        let index: DatasetIndex
        switch kind {
        case .names:
            index = DatasetIndex(name: "names-\(count)", collections: [CollectionName.defaultName])
            var random = SeededGenerator(seed: seed)
            let width = String(count).count
            try writeCollection(CollectionName.defaultName, in: folder, count: count) { number in
                PeopleGenerator.person(number, width: width, random: &random)
            }
        case .travel:
            index = DatasetIndex(name: "travel-\(count)", collections: TravelGenerator.collections)
            try writeTravel(into: folder)
        }
        let indexJSON = JSONValue.object([
            "name": .string(index.name), "collections": .array(index.collections.map(JSONValue.string)),
        ])
        let writer = try BufferedFileWriter(path: folder.appendingPathComponent(DatasetIndex.fileName).path)
        try writer.append(try JSONWriter.bytes(indexJSON) + [0x0a])
        try writer.close()
        return index
    }

    private func writeTravel(into folder: URL) throws {
        let travel = TravelGenerator(count: count, seed: seed)
        var random = travel.random(for: "inventory.airline")
        try writeCollection("inventory.airline", in: folder, count: travel.airlineCount) {
            travel.airline($0, random: &random)
        }
        random = travel.random(for: "inventory.airport")
        try writeCollection("inventory.airport", in: folder, count: travel.airportCount) {
            travel.airport($0, random: &random)
        }
        random = travel.random(for: "inventory.hotel")
        try writeCollection("inventory.hotel", in: folder, count: travel.hotelCount) {
            travel.hotel($0, random: &random)
        }
        random = travel.random(for: "inventory.landmark")
        try writeCollection("inventory.landmark", in: folder, count: travel.landmarkCount) {
            travel.landmark($0, random: &random)
        }
        random = travel.random(for: "inventory.route")
        try writeCollection("inventory.route", in: folder, count: travel.routeCount) {
            travel.route($0, random: &random)
        }

        let attachments = folder.appendingPathComponent(DatasetBlobName.folderName)
        guard mkdir(attachments.path, 0o755) == 0, chmod(attachments.path, 0o755) == 0 else {
            throw QuireError.posix(errno, "cannot create '\(attachments.path)'")
        }
        for blob in travel.blobs {
            let name = try DatasetBlobName.fileName(forDigest: blob.digest)
            let writer = try BufferedFileWriter(path: attachments.appendingPathComponent(name).path)
            try writer.append(blob.bytes)
            try writer.close()
        }
    }

    /// Writes the file of the collection listed as `listed`, named as Couchbase names it.
    private func writeCollection(
        _ listed: String, in folder: URL, count: Int, document: (Int) throws -> JSONValue
    ) throws {
        let writer = try BufferedFileWriter(path: DatasetReader.documentsURL(in: folder, listed: listed).path)
        for number in 0..<count {
            var line = try JSONWriter.bytes(try document(number))
            line.append(0x0a)
            try writer.append(line)
        }
        try writer.close()
    }

    private func prepare(_ folder: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw QuireError(.invalidParameter, "output '\(folder.path)' exists and is not a folder")
            }
            let existing = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            guard existing.isEmpty else {
                throw QuireError(.invalidParameter, "output folder '\(folder.path)' is not empty")
            }
        } else {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw QuireError(
                    .cantOpenFile, "cannot create output folder '\(folder.path)': \(error.localizedDescription)")
            }
        }
    }
}
