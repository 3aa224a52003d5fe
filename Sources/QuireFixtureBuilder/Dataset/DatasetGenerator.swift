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
        let writer = try DatasetWriter(folder: folder)
        switch kind {
        case .names:
            var random = SeededGenerator(seed: seed)
            let width = String(count).count
            try writeCollection(CollectionName.defaultName, into: writer, count: count) { number in
                PeopleGenerator.person(number, width: width, random: &random)
            }
            return try writer.finish(name: "names-\(count)")
        case .travel:
            try writeTravel(into: writer)
            return try writer.finish(name: "travel-\(count)")
        }
    }

    private func writeTravel(into writer: DatasetWriter) throws {
        let travel = TravelGenerator(count: count, seed: seed)
        var random = travel.random(for: "inventory.airline")
        try writeCollection("inventory.airline", into: writer, count: travel.airlineCount) {
            travel.airline($0, random: &random)
        }
        random = travel.random(for: "inventory.airport")
        try writeCollection("inventory.airport", into: writer, count: travel.airportCount) {
            travel.airport($0, random: &random)
        }
        random = travel.random(for: "inventory.hotel")
        try writeCollection("inventory.hotel", into: writer, count: travel.hotelCount) {
            travel.hotel($0, random: &random)
        }
        random = travel.random(for: "inventory.landmark")
        try writeCollection("inventory.landmark", into: writer, count: travel.landmarkCount) {
            travel.landmark($0, random: &random)
        }
        random = travel.random(for: "inventory.route")
        try writeCollection("inventory.route", into: writer, count: travel.routeCount) {
            travel.route($0, random: &random)
        }
        for blob in travel.blobs {
            try writer.addBlob(digest: blob.digest) { write in try write(blob.bytes) }
        }
    }

    /// Writes the collection listed as `listed`.
    private func writeCollection(
        _ listed: String, into writer: DatasetWriter, count: Int, document: (Int) throws -> JSONValue
    ) throws {
        try writer.beginCollection(listed)
        for number in 0..<count { try writer.addDocument(try document(number)) }
    }
}
